# Mirrors aymericdamien/TensorFlow-Examples: examples/3_NeuralNetworks/dcgan.py
"""A deep convolutional GAN of tf.layers: conv2d_transpose generator, a conv2d/average_pooling2d/contrib
flatten discriminator built three times in one variable_scope ('Discriminator', reuse=True on re-entry), var
lists from tf.get_collection(TRAINABLE_VARIABLES, scope=...), sparse softmax losses.

Changed from the original: synthetic MNIST-shaped data; 16/8 generator and 8/16 discriminator channels, a 64-unit
dense layer (128/64, 64/128 and 1024 in the original); 40 steps of 16 images; and the matplotlib figure is
replaced by printing the generated batch's shape and range.
"""
from __future__ import division, print_function, absolute_import

import numpy as np
import tensorflow as tf

import corpus_data

mnist = corpus_data.mnist(one_hot=True)

num_steps = 40
batch_size = 16

image_dim = 784
gen_hidden_dim = 256
disc_hidden_dim = 256
noise_dim = 200


def generator(x, reuse=False):
    with tf.variable_scope('Generator', reuse=reuse):
        x = tf.layers.dense(x, units=6 * 6 * 16)
        x = tf.nn.tanh(x)
        x = tf.reshape(x, shape=[-1, 6, 6, 16])
        x = tf.layers.conv2d_transpose(x, 8, 4, strides=2)
        x = tf.layers.conv2d_transpose(x, 1, 2, strides=2)
        x = tf.nn.sigmoid(x)
        return x


def discriminator(x, reuse=False):
    with tf.variable_scope('Discriminator', reuse=reuse):
        x = tf.layers.conv2d(x, 8, 5)
        x = tf.nn.tanh(x)
        x = tf.layers.average_pooling2d(x, 2, 2)
        x = tf.layers.conv2d(x, 16, 5)
        x = tf.nn.tanh(x)
        x = tf.layers.average_pooling2d(x, 2, 2)
        x = tf.contrib.layers.flatten(x)
        x = tf.layers.dense(x, 64)
        x = tf.nn.tanh(x)
        x = tf.layers.dense(x, 2)
    return x


noise_input = tf.placeholder(tf.float32, shape=[None, noise_dim])
real_image_input = tf.placeholder(tf.float32, shape=[None, 28, 28, 1])

gen_sample = generator(noise_input)

disc_real = discriminator(real_image_input)
disc_fake = discriminator(gen_sample, reuse=True)
disc_concat = tf.concat([disc_real, disc_fake], axis=0)

stacked_gan = discriminator(gen_sample, reuse=True)

disc_target = tf.placeholder(tf.int32, shape=[None])
gen_target = tf.placeholder(tf.int32, shape=[None])

disc_loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
    logits=disc_concat, labels=disc_target))
gen_loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
    logits=stacked_gan, labels=gen_target))

optimizer_gen = tf.train.AdamOptimizer(learning_rate=0.001)
optimizer_disc = tf.train.AdamOptimizer(learning_rate=0.001)

gen_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope='Generator')
disc_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope='Discriminator')

train_gen = optimizer_gen.minimize(gen_loss, var_list=gen_vars)
train_disc = optimizer_disc.minimize(disc_loss, var_list=disc_vars)

init = tf.global_variables_initializer()

print("gen_vars:", [v.name for v in gen_vars])
print("disc_vars:", [v.name for v in disc_vars])

with tf.Session() as sess:

    sess.run(init)

    for i in range(1, num_steps + 1):

        batch_x, _ = mnist.train.next_batch(batch_size)
        batch_x = np.reshape(batch_x, [-1, 28, 28, 1])
        z = np.random.uniform(-1., 1., size=[batch_size, noise_dim])

        batch_disc_y = np.concatenate(
            [np.ones([batch_size]), np.zeros([batch_size])], axis=0)
        batch_gen_y = np.ones([batch_size])

        feed_dict = {real_image_input: batch_x, noise_input: z,
                     disc_target: batch_disc_y, gen_target: batch_gen_y}
        _, _, gl, dl = sess.run([train_gen, train_disc, gen_loss, disc_loss],
                                feed_dict=feed_dict)
        if i % 10 == 0 or i == 1:
            print('Step %i: Generator Loss: %f, Discriminator Loss: %f' % (i, gl, dl))

    z = np.random.uniform(-1., 1., size=[4, noise_dim])
    g = sess.run(gen_sample, feed_dict={noise_input: z})
    print("generated:", g.shape, "in [0, 1]:", bool(g.min() >= 0 and g.max() <= 1))
