"""A fully connected GAN of raw variables. Kernels start from tf.random_normal whose stddev is itself a tensor
(1 / tf.sqrt(fan_in / 2)); one discriminator's variables judge both the fed images and the generator's output;
each player has its own tf.train.AdamOptimizer restricted by var_list; the two updates and both losses are
fetched in one session.run."""
import numpy as np
import tensorflow as tf

import corpus_data

NOISE, HIDDEN, PIXELS = 100, 64, 784
STEPS, BATCH, REPORT_EVERY, SAMPLES = 300, 64, 100, 40


def make_layers(sizes):
    """[(kernel, bias), ...] for consecutive widths in `sizes`, kernels scaled to their fan-in."""
    return [(tf.Variable(tf.random_normal([fan_in, fan_out], stddev=1.0 / tf.sqrt(fan_in / 2.0))),
             tf.Variable(tf.zeros([fan_out])))
            for fan_in, fan_out in zip(sizes, sizes[1:])]


def apply(layers, inputs):
    """relu between the layers, a sigmoid after the last."""
    (hidden_kernel, hidden_bias), (out_kernel, out_bias) = layers
    hidden = tf.nn.relu(tf.matmul(inputs, hidden_kernel) + hidden_bias)
    return tf.nn.sigmoid(tf.matmul(hidden, out_kernel) + out_bias)


make = make_layers([NOISE, HIDDEN, PIXELS])
judge = make_layers([PIXELS, HIDDEN, 1])

noise = tf.placeholder(tf.float32, [None, NOISE], name="noise")
shown = tf.placeholder(tf.float32, [None, PIXELS], name="shown")
forged = apply(make, noise)
score_shown, score_forged = apply(judge, shown), apply(judge, forged)

maker_loss = -tf.reduce_mean(tf.log(score_forged))
judge_loss = -tf.reduce_mean(tf.log(score_shown) + tf.log(1.0 - score_forged))
flatten = lambda layers: [v for pair in layers for v in pair]  # noqa: E731
train_maker = tf.train.AdamOptimizer(0.0002).minimize(maker_loss, var_list=flatten(make))
train_judge = tf.train.AdamOptimizer(0.0002).minimize(judge_loss, var_list=flatten(judge))

digits = corpus_data.mnist(one_hot=True)
with tf.Session() as session:
    session.run(tf.global_variables_initializer())
    print("judge's first kernel starts with stddev %.4f" % session.run(judge[0][0]).std())
    for step in range(1, STEPS + 1):
        real, _ = digits.train.next_batch(BATCH)
        feed = {shown: real, noise: np.random.uniform(-1.0, 1.0, [BATCH, NOISE])}
        _, _, m_loss, j_loss = session.run([train_maker, train_judge, maker_loss, judge_loss], feed)
        if step == 1 or step % REPORT_EVERY == 0:
            print("step %d: maker loss %.5f, judge loss %.5f" % (step, m_loss, j_loss))
    fakes = session.run(forged, {noise: np.random.uniform(-1.0, 1.0, [SAMPLES, NOISE])})
    on_real = session.run(score_shown, {shown: digits.test.images[:SAMPLES]})
    on_fake = session.run(score_shown, {shown: fakes})
    print("judge's mean score: real %.4f, forged %.4f" % (on_real.mean(), on_fake.mean()))
    grid = fakes.reshape(SAMPLES, 28, 28, 1)
    print("forged images within [0, 1]:", bool(0 <= grid.min() and grid.max() <= 1), grid.shape)
