"""A variational auto-encoder with a two-number code, then a grid of codes decoded into one picture.

Idioms: `tf.random_normal` initial values whose `stddev` is a tensor (`1 / tf.sqrt(fan_in / 2.)`); a sample
drawn as `mean + tf.exp(log_var / 2) * tf.random_normal(tf.shape(log_var))`; a Bernoulli reconstruction term
from `tf.log` with a small offset plus a closed-form KL term, both `reduce_sum(..., 1)`; `RMSPropOptimizer`; a
second decoder built after training on a new placeholder, reusing the trained variables, run from numpy codes.
"""
import numpy as np
import tensorflow as tf

import corpus_data

digits = corpus_data.mnist(one_hot=True)
PIXELS, HIDDEN, CODE, BATCH, STEPS = 784, 64, 2, 64, 400


def scaled_normal(shape):
    return tf.Variable(tf.random_normal(shape=shape, stddev=1.0 / tf.sqrt(shape[0] / 2.0)))


def layer(shape):
    return scaled_normal(shape), scaled_normal(shape[1:])


encode_in, to_mean, to_log_var = layer([PIXELS, HIDDEN]), layer([HIDDEN, CODE]), layer([HIDDEN, CODE])
decode_in, decode_out = layer([CODE, HIDDEN]), layer([HIDDEN, PIXELS])


def affine(x, weights):
    return tf.matmul(x, weights[0]) + weights[1]


def decode(code):
    return tf.nn.sigmoid(affine(tf.nn.tanh(affine(code, decode_in)), decode_out))


images = tf.placeholder(tf.float32, shape=[None, PIXELS])
hidden = tf.nn.tanh(affine(images, encode_in))
mean, log_var = affine(hidden, to_mean), affine(hidden, to_log_var)
noise = tf.random_normal(tf.shape(log_var), dtype=tf.float32, mean=0.0, stddev=1.0, name="noise")
rebuilt = decode(mean + tf.exp(log_var / 2) * noise)

likelihood = tf.reduce_sum(images * tf.log(1e-10 + rebuilt) + (1 - images) * tf.log(1e-10 + 1 - rebuilt), 1)
divergence = -0.5 * tf.reduce_sum(1 + log_var - tf.square(mean) - tf.exp(log_var), 1)
loss = tf.reduce_mean(divergence - likelihood)
learn = tf.train.RMSPropOptimizer(learning_rate=0.001).minimize(loss)

with tf.Session() as session:
    session.run(tf.global_variables_initializer())
    print("output layer init stddev: %.4f" % session.run(decode_out[0]).std())
    for step in range(STEPS):
        _, value = session.run([learn, loss], {images: digits.train.next_batch(BATCH)[0]})
        if step == 0 or (step + 1) % 100 == 0:
            print("after %d steps loss %f" % (step + 1, value))

    codes = tf.placeholder(tf.float32, shape=[None, CODE])
    pictures = decode(codes)
    side = 5
    grid = np.linspace(-3, 3, side)
    mosaic = np.zeros((28 * side, 28 * side))
    for row, up in enumerate(grid[::-1]):
        decoded = session.run(pictures, {codes: np.array([[across, up] for across in grid])})
        for col in range(side):
            mosaic[row * 28:(row + 1) * 28, col * 28:(col + 1) * 28] = decoded[col].reshape(28, 28)
    print("mosaic", mosaic.shape, "within [0, 1]:", bool(mosaic.min() >= 0 and mosaic.max() <= 1))
