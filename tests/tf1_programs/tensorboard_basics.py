"""TensorBoard basics: name scopes give the graph its structure, scalar and histogram summaries go to a
FileWriter every step, and the graph is added explicitly with add_graph.

Ported from TensorFlow 1 by changing the import line only.
"""
import argparse
import sys

import numpy as np

import trainer as tf

FLAGS = None


def main(_):
    rng = np.random.RandomState(0)
    x_data = rng.rand(100, 1).astype(np.float32)
    y_data = x_data * 0.1 + 0.3

    with tf.name_scope('inputs'):
        xs = tf.placeholder(tf.float32, [None, 1], name='x_input')
        ys = tf.placeholder(tf.float32, [None, 1], name='y_input')

    with tf.name_scope('layer'):
        with tf.name_scope('weights'):
            Weights = tf.Variable(tf.random_uniform([1, 1], -1.0, 1.0, seed=2), name='W')
            tf.summary.histogram('layer/weights', Weights)
        with tf.name_scope('biases'):
            biases = tf.Variable(tf.zeros([1]) + 0.1, name='b')
        with tf.name_scope('Wx_plus_b'):
            prediction = tf.add(tf.matmul(xs, Weights), biases)

    with tf.name_scope('loss'):
        loss = tf.reduce_mean(tf.reduce_sum(tf.square(ys - prediction), reduction_indices=[1]))
        tf.summary.scalar('loss', loss)

    with tf.name_scope('train'):
        train_step = tf.train.GradientDescentOptimizer(0.5).minimize(loss)

    sess = tf.Session()
    merged = tf.summary.merge_all()
    writer = tf.summary.FileWriter(FLAGS.logdir)
    writer.add_graph(sess.graph)
    sess.run(tf.global_variables_initializer())
    for step in range(FLAGS.steps):
        summary, _ = sess.run([merged, train_step], feed_dict={xs: x_data, ys: y_data})
        writer.add_summary(summary, step)
    final_loss = sess.run(loss, feed_dict={xs: x_data, ys: y_data})
    print('final loss %.8f W %.4f b %.4f' % (final_loss, sess.run(Weights)[0, 0], sess.run(biases)[0]))
    writer.close()
    sess.close()


if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    parser.add_argument('--logdir', default='logs/')
    parser.add_argument('--steps', type=int, default=200)
    FLAGS, unparsed = parser.parse_known_args()
    tf.app.run(main=main, argv=[sys.argv[0]] + unparsed)
