# Mirrors aymericdamien/TensorFlow-Examples: examples/3_NeuralNetworks/dynamic_rnn.py
"""Variable-length sequences: tf.contrib.rnn.static_rnn with sequence_length, then the last relevant output
picked with tf.stack, tf.transpose, tf.range and tf.gather.

Changed from the original: the toy data generator is seeded; 200 training steps of 128 sequences, with a
display every 8 steps (always the same batch).
"""
from __future__ import print_function

import random

import tensorflow as tf


class ToySequenceData(object):
    """Sequences of 3 to max_seq_len values in [0, 1]: consecutive integers / max_value (label [1, 0]) or
    random ones (label [0, 1]), zero-padded to max_seq_len, with their true lengths in `seqlen`."""
    def __init__(self, n_samples=1000, max_seq_len=20, min_seq_len=3, max_value=1000):
        self.data = []
        self.labels = []
        self.seqlen = []
        for i in range(n_samples):
            len_ = random.randint(min_seq_len, max_seq_len)
            self.seqlen.append(len_)
            if random.random() < .5:
                rand_start = random.randint(0, max_value - len_)
                s = [[float(i) / max_value] for i in range(rand_start, rand_start + len_)]
                s += [[0.] for i in range(max_seq_len - len_)]
                self.data.append(s)
                self.labels.append([1., 0.])
            else:
                s = [[float(random.randint(0, max_value)) / max_value] for i in range(len_)]
                s += [[0.] for i in range(max_seq_len - len_)]
                self.data.append(s)
                self.labels.append([0., 1.])
        self.batch_id = 0

    def next(self, batch_size):
        """The next batch_size sequences, labels and lengths, wrapping around at the end."""
        if self.batch_id == len(self.data):
            self.batch_id = 0
        batch_data = (self.data[self.batch_id:min(self.batch_id + batch_size, len(self.data))])
        batch_labels = (self.labels[self.batch_id:min(self.batch_id + batch_size, len(self.data))])
        batch_seqlen = (self.seqlen[self.batch_id:min(self.batch_id + batch_size, len(self.data))])
        self.batch_id = min(self.batch_id + batch_size, len(self.data))
        return batch_data, batch_labels, batch_seqlen


learning_rate = 0.01
training_steps = 200
batch_size = 128
display_step = 8

seq_max_len = 20
n_hidden = 64
n_classes = 2

random.seed(0)
trainset = ToySequenceData(n_samples=1000, max_seq_len=seq_max_len)
testset = ToySequenceData(n_samples=500, max_seq_len=seq_max_len)

x = tf.placeholder("float", [None, seq_max_len, 1])
y = tf.placeholder("float", [None, n_classes])
seqlen = tf.placeholder(tf.int32, [None])

weights = {
    'out': tf.Variable(tf.random_normal([n_hidden, n_classes]))
}
biases = {
    'out': tf.Variable(tf.random_normal([n_classes]))
}


def dynamicRNN(x, seqlen, weights, biases):


    x = tf.unstack(x, seq_max_len, 1)

    lstm_cell = tf.contrib.rnn.BasicLSTMCell(n_hidden)

    outputs, states = tf.contrib.rnn.static_rnn(lstm_cell, x, dtype=tf.float32,
                                                sequence_length=seqlen)


    outputs = tf.stack(outputs)
    outputs = tf.transpose(outputs, [1, 0, 2])

    batch_size = tf.shape(outputs)[0]
    index = tf.range(0, batch_size) * seq_max_len + (seqlen - 1)
    outputs = tf.gather(tf.reshape(outputs, [-1, n_hidden]), index)

    return tf.matmul(outputs, weights['out']) + biases['out']


pred = dynamicRNN(x, seqlen, weights, biases)

cost = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=pred, labels=y))
optimizer = tf.train.GradientDescentOptimizer(learning_rate=learning_rate).minimize(cost)

correct_pred = tf.equal(tf.argmax(pred, 1), tf.argmax(y, 1))
accuracy = tf.reduce_mean(tf.cast(correct_pred, tf.float32))

init = tf.global_variables_initializer()

with tf.Session() as sess:

    sess.run(init)

    for step in range(1, training_steps + 1):
        batch_x, batch_y, batch_seqlen = trainset.next(batch_size)
        sess.run(optimizer, feed_dict={x: batch_x, y: batch_y, seqlen: batch_seqlen})
        if step % display_step == 0 or step == 1:
            acc, loss = sess.run([accuracy, cost], feed_dict={x: batch_x, y: batch_y, seqlen: batch_seqlen})
            print("Step " + str(step) + ", Minibatch Loss= " + "{:.6f}".format(loss) +
                  ", Training Accuracy= " + "{:.5f}".format(acc))

    print("Optimization Finished!")

    test_data = testset.data
    test_label = testset.labels
    test_seqlen = testset.seqlen
    print("Testing Accuracy:", sess.run(accuracy, feed_dict={x: test_data, y: test_label,
                                                              seqlen: test_seqlen}))
