"""A bidirectional LSTM reading an image row by row: the batch is split into time steps with tf.unstack, run
through tf.contrib.rnn.static_bidirectional_rnn with a forward and a backward BasicLSTMCell, and the last
output (both directions concatenated, 2 * units wide) feeds a raw-variable softmax layer trained with Adam.
Also prints the logits' static shape beside the dynamic shape fetched with tf.shape, and the variable names."""
import numpy as np
import tensorflow as tf
from tensorflow.contrib import rnn

import corpus_data

SIDE, UNITS, CLASSES = 14, 32, 10
STEPS, BATCH, REPORT_EVERY, TESTED = 120, 64, 30, 128

rows = tf.placeholder(tf.float32, [None, SIDE, SIDE])
truth = tf.placeholder(tf.float32, [None, CLASSES])
out_kernel = tf.Variable(tf.random_normal([2 * UNITS, CLASSES]))
out_bias = tf.Variable(tf.random_normal([CLASSES]))

forward, backward = rnn.BasicLSTMCell(UNITS, forget_bias=1.0), rnn.BasicLSTMCell(UNITS, forget_bias=1.0)
outputs, _, _ = rnn.static_bidirectional_rnn(forward, backward, tf.unstack(rows, SIDE, axis=1), dtype=tf.float32)
logits = tf.matmul(outputs[-1], out_kernel) + out_bias

loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=truth, logits=logits))
learn = tf.train.AdamOptimizer(0.001).minimize(loss)
accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), tf.argmax(truth, 1)), tf.float32))

digits = corpus_data.mnist(one_hot=True, side=SIDE)
with tf.Session() as session:
    session.run(tf.global_variables_initializer())
    for step in range(1, STEPS + 1):
        images, labels = digits.train.next_batch(BATCH)
        feed = {rows: images.reshape(-1, SIDE, SIDE), truth: labels}
        session.run(learn, feed)
        if step == 1 or step % REPORT_EVERY == 0:
            print("step %d: loss %.4f, accuracy %.3f" % ((step,) + tuple(session.run([loss, accuracy], feed))))
    test = {rows: digits.test.images[:TESTED].reshape(-1, SIDE, SIDE), truth: digits.test.labels[:TESTED]}
    print("test accuracy: %.4f" % session.run(accuracy, test))
    print("logits static", logits.shape.as_list(), "dynamic", np.array(session.run(tf.shape(logits), test)))
    print("variables:", [v.name for v in tf.trainable_variables()])
