"""Read each image as a sequence of its rows with an LSTM and classify from the last output.

Idioms: a `[None, steps, inputs]` placeholder split into a list of steps by `tf.unstack(x, steps, 1)`;
`tf.contrib.rnn.BasicLSTMCell(forget_bias=1.0)` run by `tf.contrib.rnn.static_rnn(dtype=tf.float32)`; an
output projection from unnamed `tf.Variable`s created before the cell (so the variable names are TF1's
`Variable`, `Variable_1`, then the cell's `rnn/basic_lstm_cell/...`); Adam; a `while` loop over a sample budget
with separate `sess.run` calls for the metrics.
"""
import tensorflow as tf
from tensorflow.contrib import rnn

import corpus_data

ROWS = COLUMNS = 14
UNITS, BATCH, BUDGET, EVERY = 32, 64, 9600, 30
digits = corpus_data.mnist(one_hot=True, side=ROWS)

sequences = tf.placeholder("float", [None, ROWS, COLUMNS])
onehots = tf.placeholder("float", [None, 10])
project = tf.Variable(tf.random_normal([UNITS, 10]))
project_bias = tf.Variable(tf.random_normal([10]))

steps = tf.unstack(sequences, ROWS, 1)
outputs, _ = rnn.static_rnn(rnn.BasicLSTMCell(UNITS, forget_bias=1.0), steps, dtype=tf.float32)
scores = tf.matmul(outputs[-1], project) + project_bias
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=scores, labels=onehots))
learn = tf.train.AdamOptimizer(learning_rate=0.001).minimize(loss)
hit_rate = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(scores, 1), tf.argmax(onehots, 1)), tf.float32))

with tf.Session() as session:
    session.run(tf.global_variables_initializer())
    batches = 1
    while batches * BATCH < BUDGET:
        images, labels = digits.train.next_batch(BATCH)
        feed = {sequences: images.reshape((BATCH, ROWS, COLUMNS)), onehots: labels}
        session.run(learn, feed)
        if batches % EVERY == 0:
            print("seen %d: batch loss %.6f, batch hit rate %.5f"
                  % (batches * BATCH, session.run(loss, feed), session.run(hit_rate, feed)))
        batches += 1
    held_out = {sequences: digits.test.images[:128].reshape((-1, ROWS, COLUMNS)), onehots: digits.test.labels[:128]}
    print("held-out hit rate:", session.run(hit_rate, held_out))
    print("variables:", [v.name for v in tf.trainable_variables()])
