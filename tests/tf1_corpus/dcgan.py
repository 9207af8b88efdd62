"""A convolutional GAN of tf.layers under tf.variable_scope: the generator goes dense -> reshape ->
conv2d_transpose twice; the discriminator (conv2d, average_pooling2d, tf.contrib.layers.flatten, dense) is
built three times, re-entering its scope with reuse=True so all three share one set of variables. Each player's
variables come from tf.get_collection(TRAINABLE_VARIABLES, scope=...), and both losses are sparse softmax cross
entropies over real/fake labels fed as int32 placeholders."""
import numpy as np
import tensorflow as tf

import corpus_data

NOISE, STEPS, BATCH, REPORT_EVERY = 200, 40, 16, 10


def generate(noise):
    with tf.variable_scope("Generator"):
        seed = tf.reshape(tf.nn.tanh(tf.layers.dense(noise, 6 * 6 * 16)), [-1, 6, 6, 16])
        grown = tf.layers.conv2d_transpose(seed, 8, 4, strides=2)  # 6 -> 14
        return tf.nn.sigmoid(tf.layers.conv2d_transpose(grown, 1, 2, strides=2))  # 14 -> 28


def discriminate(images, reuse=False):
    with tf.variable_scope("Discriminator", reuse=reuse):
        features = images
        for filters in (8, 16):
            features = tf.layers.average_pooling2d(tf.nn.tanh(tf.layers.conv2d(features, filters, 5)), 2, 2)
        hidden = tf.nn.tanh(tf.layers.dense(tf.contrib.layers.flatten(features), 64))
        return tf.layers.dense(hidden, 2)  # class 1: real, class 0: generated


noise = tf.placeholder(tf.float32, [None, NOISE])
real = tf.placeholder(tf.float32, [None, 28, 28, 1])
judge_labels = tf.placeholder(tf.int32, [None])
maker_labels = tf.placeholder(tf.int32, [None])

fakes = generate(noise)
both = tf.concat([discriminate(real), discriminate(fakes, reuse=True)], axis=0)
fooled = discriminate(fakes, reuse=True)
cross_entropy = tf.nn.sparse_softmax_cross_entropy_with_logits
judge_loss = tf.reduce_mean(cross_entropy(logits=both, labels=judge_labels))
maker_loss = tf.reduce_mean(cross_entropy(logits=fooled, labels=maker_labels))

maker_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope="Generator")
judge_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope="Discriminator")
train_maker = tf.train.AdamOptimizer(0.001).minimize(maker_loss, var_list=maker_vars)
train_judge = tf.train.AdamOptimizer(0.001).minimize(judge_loss, var_list=judge_vars)
print("generator variables:", [v.name for v in maker_vars])
print("discriminator variables:", [v.name for v in judge_vars])

digits = corpus_data.mnist(one_hot=True)
labels = {judge_labels: np.r_[np.ones(BATCH), np.zeros(BATCH)], maker_labels: np.ones(BATCH)}
with tf.Session() as session:
    session.run(tf.global_variables_initializer())
    for step in range(1, STEPS + 1):
        images, _ = digits.train.next_batch(BATCH)
        feed = {real: images.reshape(-1, 28, 28, 1), noise: np.random.uniform(-1.0, 1.0, [BATCH, NOISE]), **labels}
        _, _, m_loss, j_loss = session.run([train_maker, train_judge, maker_loss, judge_loss], feed)
        if step == 1 or step % REPORT_EVERY == 0:
            print("step %d: generator loss %f, discriminator loss %f" % (step, m_loss, j_loss))
    made = session.run(fakes, {noise: np.random.uniform(-1.0, 1.0, [4, NOISE])})
    print("made", made.shape, "within [0, 1]:", bool(0 <= made.min() and made.max() <= 1))
