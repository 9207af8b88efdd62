# Mirrors aymericdamien/TensorFlow-Examples: examples/3_NeuralNetworks/gan.py
"""A fully connected GAN of raw variables: Glorot-style init with a *tensor* stddev in tf.random_normal, one
discriminator applied to real and generated images by sharing its weights dict, two Adam optimizers each
with its own var_list.

Changed from the original: synthetic MNIST-shaped data, 64 hidden units (256 in the original), 300 steps of
64 images, and the matplotlib figure of generated digits is replaced by printing the discriminator's mean
output on real and on generated images.
"""
from __future__ import division, print_function, absolute_import

import numpy as np
import tensorflow as tf

import corpus_data

mnist = corpus_data.mnist(one_hot=True)

num_steps = 300
batch_size = 64
learning_rate = 0.0002

image_dim = 784
gen_hidden_dim = 64
disc_hidden_dim = 64
noise_dim = 100


def glorot_init(shape):
    return tf.random_normal(shape=shape, stddev=1. / tf.sqrt(shape[0] / 2.))


weights = {
    'gen_hidden1': tf.Variable(glorot_init([noise_dim, gen_hidden_dim])),
    'gen_out': tf.Variable(glorot_init([gen_hidden_dim, image_dim])),
    'disc_hidden1': tf.Variable(glorot_init([image_dim, disc_hidden_dim])),
    'disc_out': tf.Variable(glorot_init([disc_hidden_dim, 1])),
}
biases = {
    'gen_hidden1': tf.Variable(tf.zeros([gen_hidden_dim])),
    'gen_out': tf.Variable(tf.zeros([image_dim])),
    'disc_hidden1': tf.Variable(tf.zeros([disc_hidden_dim])),
    'disc_out': tf.Variable(tf.zeros([1])),
}


def generator(x):
    hidden_layer = tf.matmul(x, weights['gen_hidden1'])
    hidden_layer = tf.add(hidden_layer, biases['gen_hidden1'])
    hidden_layer = tf.nn.relu(hidden_layer)
    out_layer = tf.matmul(hidden_layer, weights['gen_out'])
    out_layer = tf.add(out_layer, biases['gen_out'])
    out_layer = tf.nn.sigmoid(out_layer)
    return out_layer


def discriminator(x):
    hidden_layer = tf.matmul(x, weights['disc_hidden1'])
    hidden_layer = tf.add(hidden_layer, biases['disc_hidden1'])
    hidden_layer = tf.nn.relu(hidden_layer)
    out_layer = tf.matmul(hidden_layer, weights['disc_out'])
    out_layer = tf.add(out_layer, biases['disc_out'])
    out_layer = tf.nn.sigmoid(out_layer)
    return out_layer


gen_input = tf.placeholder(tf.float32, shape=[None, noise_dim], name='input_noise')
disc_input = tf.placeholder(tf.float32, shape=[None, image_dim], name='disc_input')

gen_sample = generator(gen_input)

disc_real = discriminator(disc_input)
disc_fake = discriminator(gen_sample)

gen_loss = -tf.reduce_mean(tf.log(disc_fake))
disc_loss = -tf.reduce_mean(tf.log(disc_real) + tf.log(1. - disc_fake))

optimizer_gen = tf.train.AdamOptimizer(learning_rate=learning_rate)
optimizer_disc = tf.train.AdamOptimizer(learning_rate=learning_rate)

gen_vars = [weights['gen_hidden1'], weights['gen_out'],
            biases['gen_hidden1'], biases['gen_out']]
disc_vars = [weights['disc_hidden1'], weights['disc_out'],
             biases['disc_hidden1'], biases['disc_out']]

train_gen = optimizer_gen.minimize(gen_loss, var_list=gen_vars)
train_disc = optimizer_disc.minimize(disc_loss, var_list=disc_vars)

init = tf.global_variables_initializer()

with tf.Session() as sess:

    sess.run(init)
    print("disc_hidden1 init stddev: %.4f" % sess.run(weights['disc_hidden1']).std())

    for i in range(1, num_steps + 1):
        batch_x, _ = mnist.train.next_batch(batch_size)
        z = np.random.uniform(-1., 1., size=[batch_size, noise_dim])

        feed_dict = {disc_input: batch_x, gen_input: z}
        _, _, gl, dl = sess.run([train_gen, train_disc, gen_loss, disc_loss], feed_dict=feed_dict)
        if i % 100 == 0 or i == 1:
            print('Step %i: Generator Loss: %f, Discriminator Loss: %f' % (i, gl, dl))

    z = np.random.uniform(-1., 1., size=[40, noise_dim])
    g = sess.run([gen_sample], feed_dict={gen_input: z})
    g = np.reshape(g, (40, 28, 28, 1))
    real = sess.run(disc_real, feed_dict={disc_input: mnist.test.images[:40]})
    fake = sess.run(disc_real, feed_dict={disc_input: g.reshape(40, 784)})
    print("D(real) mean: %f, D(generated) mean: %f" % (real.mean(), fake.mean()))
    print("generated images in [0, 1]:", bool(g.min() >= 0 and g.max() <= 1), g.shape)
