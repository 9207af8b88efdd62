"""Sequences of different lengths padded to one width: tf.contrib.rnn.static_rnn over tf.unstack'ed steps with a
sequence_length placeholder, then each sequence's last real output picked out of the tf.stack'ed outputs with
tf.transpose, tf.range, tf.reshape and tf.gather (flat index = row * width + length - 1), a raw-variable
classifier on it, plain gradient descent, accuracy by tf.argmax/tf.equal."""
import itertools

import numpy as np
import tensorflow as tf

WIDTH, UNITS, SHORTEST, TOP = 20, 64, 3, 1000
STEPS, BATCH, REPORT_EVERY = 200, 128, 8


def sequences(count, rng):
    """Padded [count, WIDTH, 1] values, one-hot labels ([1, 0]: a run of consecutive integers / TOP, [0, 1]:
    random integers / TOP) and true lengths."""
    values, labels = np.zeros((count, WIDTH, 1), np.float32), np.zeros((count, 2), np.float32)
    lengths = rng.randint(SHORTEST, WIDTH + 1, size=count)
    for row, length in enumerate(lengths):
        counting = rng.rand() < 0.5
        start = rng.randint(0, TOP - length)
        drawn = np.arange(start, start + length) if counting else rng.randint(0, TOP + 1, size=length)
        values[row, :length, 0] = drawn / TOP
        labels[row, 0 if counting else 1] = 1.0
    return values, labels, lengths


rng = np.random.RandomState(0)
tf.set_random_seed(0)  # the initial weights too: with these steps and rate, a test wants one outcome
train, test = sequences(1000, rng), sequences(500, rng)
slices = itertools.cycle([slice(i, i + BATCH) for i in range(0, 1000, BATCH)])  # 8 batches, the last short

steps_in = tf.placeholder(tf.float32, [None, WIDTH, 1])
truth = tf.placeholder(tf.float32, [None, 2])
lengths = tf.placeholder(tf.int32, [None])

outputs, _ = tf.contrib.rnn.static_rnn(tf.contrib.rnn.BasicLSTMCell(UNITS), tf.unstack(steps_in, WIDTH, 1),
                                       dtype=tf.float32, sequence_length=lengths)
by_row = tf.transpose(tf.stack(outputs), [1, 0, 2])  # [batch, WIDTH, UNITS]
last = tf.gather(tf.reshape(by_row, [-1, UNITS]), tf.range(0, tf.shape(by_row)[0]) * WIDTH + lengths - 1)
logits = tf.matmul(last, tf.Variable(tf.random_normal([UNITS, 2]))) + tf.Variable(tf.random_normal([2]))

loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=truth, logits=logits))
learn = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), tf.argmax(truth, 1)), tf.float32))


def feed(data, part=slice(None)):
    return {steps_in: data[0][part], truth: data[1][part], lengths: data[2][part]}


with tf.Session() as session:
    session.run(tf.global_variables_initializer())
    for step in range(1, STEPS + 1):
        batch = feed(train, next(slices))
        session.run(learn, batch)
        if step == 1 or step % REPORT_EVERY == 0:
            got_loss, got_accuracy = session.run([loss, accuracy], batch)
            print("after step %d: batch loss %.6f, batch accuracy %.5f" % (step, got_loss, got_accuracy))
    print("accuracy on held-out sequences: %.4f" % session.run(accuracy, feed(test)))
