# Mirrors tensorflow/tensorflow: tensorflow/examples/tutorials/mnist/mnist_softmax_xla.py
"""Softmax regression with XLA's JIT level set through ConfigProto's OptimizerOptions, and a Chrome trace of
the last step from RunOptions(FULL_TRACE), RunMetadata.step_stats and tensorflow.python.client.timeline.

Changed from the original: synthetic MNIST-shaped data instead of input_data.read_data_sets, 200 steps.
"""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import argparse
import sys

import tensorflow as tf

from tensorflow.python.client import timeline

import corpus_data

FLAGS = None


def main(_):
    mnist = corpus_data.mnist(one_hot=True)

    x = tf.placeholder(tf.float32, [None, 784])
    w = tf.Variable(tf.zeros([784, 10]))
    b = tf.Variable(tf.zeros([10]))
    y = tf.matmul(x, w) + b

    y_ = tf.placeholder(tf.float32, [None, 10])

    cross_entropy = tf.reduce_mean(
        tf.nn.softmax_cross_entropy_with_logits(labels=y_, logits=y))
    train_step = tf.train.GradientDescentOptimizer(0.5).minimize(cross_entropy)

    config = tf.ConfigProto()
    jit_level = 0
    if FLAGS.xla:
        jit_level = tf.OptimizerOptions.ON_1

    config.graph_options.optimizer_options.global_jit_level = jit_level
    run_metadata = tf.RunMetadata()
    sess = tf.Session(config=config)
    tf.global_variables_initializer().run(session=sess)
    train_loops = 200
    for i in range(train_loops):
        batch_xs, batch_ys = mnist.train.next_batch(100)

        if i == train_loops - 1:
            sess.run(train_step,
                     feed_dict={x: batch_xs,
                                y_: batch_ys},
                     options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
                     run_metadata=run_metadata)
            trace = timeline.Timeline(step_stats=run_metadata.step_stats)
            with open('timeline.ctf.json', 'w') as trace_file:
                trace_file.write(trace.generate_chrome_trace_format())
        else:
            sess.run(train_step, feed_dict={x: batch_xs, y_: batch_ys})

    correct_prediction = tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1))
    accuracy = tf.reduce_mean(tf.cast(correct_prediction, tf.float32))
    print(sess.run(accuracy,
                   feed_dict={x: mnist.test.images,
                              y_: mnist.test.labels}))
    sess.close()


if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    parser.add_argument(
        '--data_dir',
        type=str,
        default='/tmp/tensorflow/mnist/input_data',
        help='unused: the data is made in the program')
    parser.add_argument(
        '--no-xla',
        dest='xla', action='store_false',
        help='JIT level 0')
    parser.add_argument(
        '--xla',
        dest='xla', action='store_true',
        help='JIT level ON_1 (the default)')
    parser.set_defaults(xla=True)

    FLAGS, unparsed = parser.parse_known_args()
    tf.app.run(main=main, argv=[sys.argv[0]] + unparsed)
