# Mirrors tensorflow/tensorflow: tensorflow/docs_src/deploy/distributed.md (r1 guide: the trainer.py skeleton)
"""A tf.train.Server started for the only task of a one-ps cluster (no peers), after which the program trains
in a plain local tf.Session, as programs do while being developed before they go to a cluster.

Changed from the guide: the ps task does not block in server.join(); the model is the seed notebooks' y = 2x
linear regression.
"""
from __future__ import print_function

import argparse
import sys

import numpy as np
import tensorflow as tf

FLAGS = None


def main(_):
    ps_hosts = FLAGS.ps_hosts.split(",")

    cluster = tf.train.ClusterSpec({"ps": ps_hosts})

    server = tf.train.Server(cluster,
                             job_name=FLAGS.job_name,
                             task_index=FLAGS.task_index)
    print("server started for /job:%s/task:%d" % (FLAGS.job_name, FLAGS.task_index))

    np.random.seed(0)
    train_X = np.linspace(-1, 1, 100)
    train_Y = 2 * train_X + np.random.randn(*train_X.shape) * 0.3

    X = tf.placeholder("float")
    Y = tf.placeholder("float")
    W = tf.Variable(tf.random_normal([1]), name="weight")
    b = tf.Variable(tf.zeros([1]), name="bias")
    z = tf.multiply(X, W) + b
    cost = tf.reduce_mean(tf.square(Y - z))
    global_step = tf.train.get_or_create_global_step()
    optimizer = tf.train.GradientDescentOptimizer(0.01).minimize(cost, global_step=global_step)

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for epoch in range(20):
            for (x, y) in zip(train_X, train_Y):
                sess.run(optimizer, feed_dict={X: x, Y: y})
        print("cost=", sess.run(cost, feed_dict={X: train_X, Y: train_Y}),
              "W=", sess.run(W)[0], "b=", sess.run(b)[0], "step=", sess.run(global_step))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.register("type", "bool", lambda v: v.lower() == "true")
    parser.add_argument("--ps_hosts", type=str, default="localhost:2222",
                        help="the ps tasks, host:port,...")
    parser.add_argument("--job_name", type=str, default="ps", help="this task's job")
    parser.add_argument("--task_index", type=int, default=0, help="this task's index in its job")
    FLAGS, unparsed = parser.parse_known_args()
    tf.app.run(main=main, argv=[sys.argv[0]] + unparsed)
