# Mirrors aymericdamien/TensorFlow-Examples: examples/2_BasicModels/linear_regression.py
"""Least squares fit of one weight and one bias, one sample per step, then a test-set comparison.

Changed from the original: the 17 hand-typed points are 17 points of y = 0.25 x + 0.8 plus noise (fixed seed),
fewer epochs, and no matplotlib plot.
"""
from __future__ import print_function

import numpy
import tensorflow as tf

rng = numpy.random

learning_rate = 0.01
training_epochs = 1000
display_step = 200

data_rng = numpy.random.RandomState(0)
train_X = numpy.linspace(1.0, 10.0, 17)
train_Y = 0.25 * train_X + 0.8 + data_rng.normal(0, 0.2, size=17)
n_samples = train_X.shape[0]

X = tf.placeholder("float")
Y = tf.placeholder("float")

W = tf.Variable(rng.randn(), name="weight")
b = tf.Variable(rng.randn(), name="bias")

pred = tf.add(tf.multiply(X, W), b)

cost = tf.reduce_sum(tf.pow(pred - Y, 2)) / (2 * n_samples)
optimizer = tf.train.GradientDescentOptimizer(learning_rate).minimize(cost)

init = tf.global_variables_initializer()

with tf.Session() as sess:
    sess.run(init)

    for epoch in range(training_epochs):
        for (x, y) in zip(train_X, train_Y):
            sess.run(optimizer, feed_dict={X: x, Y: y})

        if (epoch + 1) % display_step == 0:
            c = sess.run(cost, feed_dict={X: train_X, Y: train_Y})
            print("Epoch:", '%04d' % (epoch + 1), "cost=", "{:.9f}".format(c),
                  "W=", sess.run(W), "b=", sess.run(b))

    print("Optimization Finished!")
    training_cost = sess.run(cost, feed_dict={X: train_X, Y: train_Y})
    print("Training cost=", training_cost, "W=", sess.run(W), "b=", sess.run(b), '\n')

    test_X = numpy.linspace(1.5, 9.5, 8)
    test_Y = 0.25 * test_X + 0.8 + data_rng.normal(0, 0.2, size=8)

    print("Testing... (Mean square loss Comparison)")
    testing_cost = sess.run(
        tf.reduce_sum(tf.pow(pred - Y, 2)) / (2 * test_X.shape[0]),
        feed_dict={X: test_X, Y: test_Y})
    print("Testing cost=", testing_cost)
    print("Absolute mean square loss difference:", abs(training_cost - testing_cost))
