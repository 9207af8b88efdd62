"""A tf.train.Server started for the single task of a one-ps tf.train.ClusterSpec (flags parsed with argparse,
the rest handed to tf.app.run), then per-sample gradient descent on a line fit in a plain local tf.Session,
with the global step from tf.train.get_or_create_global_step counting the updates."""
import argparse
import sys

import numpy as np
import tensorflow as tf

ARGS = None


def fit_line(points, targets, epochs):
    x = tf.placeholder(tf.float32)
    y = tf.placeholder(tf.float32)
    slope = tf.Variable(tf.random_normal([1]), name="slope")
    offset = tf.Variable(tf.zeros([1]), name="offset")
    loss = tf.reduce_mean(tf.square(slope * x + offset - y))
    step = tf.train.get_or_create_global_step()
    update = tf.train.GradientDescentOptimizer(0.01).minimize(loss, global_step=step)
    with tf.Session() as session:
        session.run(tf.global_variables_initializer())
        for _ in range(epochs):
            for point, target in zip(points, targets):
                session.run(update, feed_dict={x: point, y: target})
        final_loss = session.run(loss, feed_dict={x: points, y: targets})
        got_slope, got_offset, steps = session.run([slope, offset, step])
    print("loss= %.5f W= %.5f b= %.5f step= %d" % (final_loss, got_slope[0], got_offset[0], steps))


def main(_):
    cluster = tf.train.ClusterSpec({"ps": ARGS.ps_hosts.split(",")})
    tf.train.Server(cluster, job_name=ARGS.job_name, task_index=ARGS.task_index)
    print("server started for /job:%s/task:%d" % (ARGS.job_name, ARGS.task_index))
    rng = np.random.RandomState(0)
    points = np.linspace(-1, 1, 100)
    fit_line(points, 2 * points + rng.randn(100) * 0.3, epochs=20)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="one parameter-server task, then a local fit")
    parser.add_argument("--ps_hosts", default="localhost:2222", help="comma-separated host:port of the ps tasks")
    parser.add_argument("--job_name", default="ps", help="the job this process serves")
    parser.add_argument("--task_index", type=int, default=0, help="its index within that job")
    ARGS, rest = parser.parse_known_args()
    tf.app.run(main=main, argv=[sys.argv[0]] + rest)
