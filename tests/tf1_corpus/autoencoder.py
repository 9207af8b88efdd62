# Mirrors aymericdamien/TensorFlow-Examples: examples/3_NeuralNetworks/autoencoder.py
"""A two-layer sigmoid auto-encoder of raw variables trained with RMSProp on the mean squared error.

Changed from the original: synthetic MNIST-shaped data, 300 steps, and the matplotlib figure of original and
reconstructed digits is replaced by printing the test reconstruction error.
"""
from __future__ import division, print_function, absolute_import

import numpy as np
import tensorflow as tf

import corpus_data

mnist = corpus_data.mnist(one_hot=True)

learning_rate = 0.01
num_steps = 300
batch_size = 256

display_step = 50
examples_to_show = 10

num_hidden_1 = 256
num_hidden_2 = 128
num_input = 784

X = tf.placeholder("float", [None, num_input])

weights = {
    'encoder_h1': tf.Variable(tf.random_normal([num_input, num_hidden_1])),
    'encoder_h2': tf.Variable(tf.random_normal([num_hidden_1, num_hidden_2])),
    'decoder_h1': tf.Variable(tf.random_normal([num_hidden_2, num_hidden_1])),
    'decoder_h2': tf.Variable(tf.random_normal([num_hidden_1, num_input])),
}
biases = {
    'encoder_b1': tf.Variable(tf.random_normal([num_hidden_1])),
    'encoder_b2': tf.Variable(tf.random_normal([num_hidden_2])),
    'decoder_b1': tf.Variable(tf.random_normal([num_hidden_1])),
    'decoder_b2': tf.Variable(tf.random_normal([num_input])),
}


def encoder(x):
    layer_1 = tf.nn.sigmoid(tf.add(tf.matmul(x, weights['encoder_h1']), biases['encoder_b1']))
    layer_2 = tf.nn.sigmoid(tf.add(tf.matmul(layer_1, weights['encoder_h2']), biases['encoder_b2']))
    return layer_2


def decoder(x):
    layer_1 = tf.nn.sigmoid(tf.add(tf.matmul(x, weights['decoder_h1']), biases['decoder_b1']))
    layer_2 = tf.nn.sigmoid(tf.add(tf.matmul(layer_1, weights['decoder_h2']), biases['decoder_b2']))
    return layer_2


encoder_op = encoder(X)
decoder_op = decoder(encoder_op)

y_pred = decoder_op
y_true = X

loss = tf.reduce_mean(tf.pow(y_true - y_pred, 2))
optimizer = tf.train.RMSPropOptimizer(learning_rate).minimize(loss)

init = tf.global_variables_initializer()

with tf.Session() as sess:

    sess.run(init)

    for i in range(1, num_steps + 1):
        batch_x, _ = mnist.train.next_batch(batch_size)

        _, l = sess.run([optimizer, loss], feed_dict={X: batch_x})
        if i % display_step == 0 or i == 1:
            print('Step %i: Minibatch Loss: %f' % (i, l))

    batch_x, _ = mnist.test.next_batch(examples_to_show)
    g = sess.run(decoder_op, feed_dict={X: batch_x})
    print("Reconstruction error on %d test images: %f" % (examples_to_show, np.mean((g - batch_x) ** 2)))
    print("Code width:", encoder_op.get_shape().as_list())
