"""Softmax regression under a session config that asks for XLA, tracing its last training step.

Idioms: `argparse` flags read with `parse_known_args` and the rest handed to `tf.app.run(main=..., argv=...)`;
`tf.ConfigProto().graph_options.optimizer_options.global_jit_level` set to `tf.OptimizerOptions.ON_1` or 0;
`Operation.run(session=...)` for the initializer; `sess.run(..., options=tf.RunOptions(trace_level=FULL_TRACE),
run_metadata=tf.RunMetadata())`; `tensorflow.python.client.timeline.Timeline(step_stats=...)` written as a
Chrome trace; a session closed by hand.
"""
import argparse
import sys

import tensorflow as tf
from tensorflow.python.client import timeline

import corpus_data

SETTINGS = None
TRACE_FILE = "timeline.ctf.json"


def main(_):
    digits = corpus_data.mnist(one_hot=True)
    pixels = tf.placeholder(tf.float32, [None, 784])
    truth = tf.placeholder(tf.float32, [None, 10])
    weights = tf.Variable(tf.zeros([784, 10]))
    bias = tf.Variable(tf.zeros([10]))
    logits = tf.matmul(pixels, weights) + bias
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=truth, logits=logits))
    step = tf.train.GradientDescentOptimizer(0.5).minimize(loss)

    config = tf.ConfigProto()
    config.graph_options.optimizer_options.global_jit_level = tf.OptimizerOptions.ON_1 if SETTINGS.xla else 0
    session = tf.Session(config=config)
    tf.global_variables_initializer().run(session=session)
    steps = SETTINGS.steps
    for _ in range(steps - 1):
        xs, ys = digits.train.next_batch(100)
        session.run(step, {pixels: xs, truth: ys})
    xs, ys = digits.train.next_batch(100)
    metadata = tf.RunMetadata()
    session.run(step, {pixels: xs, truth: ys}, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
                run_metadata=metadata)
    with open(TRACE_FILE, "w") as out:
        out.write(timeline.Timeline(step_stats=metadata.step_stats).generate_chrome_trace_format())
    right = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), tf.argmax(truth, 1)), tf.float32))
    print("accuracy after %d steps: %s" % (steps, session.run(
        right, {pixels: digits.test.images, truth: digits.test.labels})))
    session.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=200, help="training steps; the last one is traced")
    parser.add_argument("--xla", dest="xla", action="store_true", help="ask for JIT level ON_1 (default)")
    parser.add_argument("--no-xla", dest="xla", action="store_false", help="JIT level 0")
    parser.set_defaults(xla=True)
    SETTINGS, rest = parser.parse_known_args()
    tf.app.run(main=main, argv=[sys.argv[0]] + rest)
