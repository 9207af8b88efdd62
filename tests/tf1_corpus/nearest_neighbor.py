# Mirrors aymericdamien/TensorFlow-Examples: examples/2_BasicModels/nearest_neighbor.py
"""1-nearest-neighbour classification by L1 distance, with the deprecated tf.arg_min.

Changed from the original: synthetic MNIST-shaped data, 500 candidates and 40 test images.
"""
from __future__ import print_function

import numpy as np
import tensorflow as tf

import corpus_data

mnist = corpus_data.mnist(one_hot=True)

Xtr, Ytr = mnist.train.next_batch(500)
Xte, Yte = mnist.test.next_batch(40)

xtr = tf.placeholder("float", [None, 784])
xte = tf.placeholder("float", [784])

distance = tf.reduce_sum(tf.abs(tf.add(xtr, tf.negative(xte))), reduction_indices=1)
pred = tf.arg_min(distance, 0)

accuracy = 0.

init = tf.global_variables_initializer()

with tf.Session() as sess:
    sess.run(init)

    for i in range(len(Xte)):
        nn_index = sess.run(pred, feed_dict={xtr: Xtr, xte: Xte[i, :]})
        print("Test", i, "Prediction:", np.argmax(Ytr[nn_index]), "True Class:", np.argmax(Yte[i]))
        if np.argmax(Ytr[nn_index]) == np.argmax(Yte[i]):
            accuracy += 1. / len(Xte)
    print("Done!")
    print("Accuracy:", accuracy)
    print("first nn_index:", sess.run(pred, feed_dict={xtr: Xtr, xte: Xte[0, :]}),
          np.argmin(np.abs(Xtr - Xte[0]).sum(axis=1)))
