"""An unmodified TensorFlow 1 program: the "MNIST rows as a sequence" LSTM written with tf.contrib.rnn, the MNIST
tutorial's input_data and a Chrome trace of one step from tensorflow.python.client.timeline.

It imports tensorflow itself; the tests run it with `python -m trainer.as_tensorflow lstm_mnist_contrib.py ...`
over MNIST-format IDX files they write to --data_dir.
"""
import argparse

import tensorflow as tf
from tensorflow.contrib import rnn
from tensorflow.examples.tutorials.mnist import input_data
from tensorflow.python.client import timeline

parser = argparse.ArgumentParser()
parser.add_argument("--data_dir", required=True)
parser.add_argument("--timeline", default="timeline.json")
parser.add_argument("--steps", type=int, default=100)
FLAGS = parser.parse_args()

mnist = input_data.read_data_sets(FLAGS.data_dir, one_hot=True, validation_size=100, seed=1)
timesteps, num_input, num_hidden, num_classes, batch_size = 28, 28, 32, 10, 64

X = tf.placeholder("float", [None, timesteps, num_input])
Y = tf.placeholder("float", [None, num_classes])
weights = tf.Variable(tf.random_normal([num_hidden, num_classes], seed=2))
biases = tf.Variable(tf.random_normal([num_classes], seed=3))

inputs = tf.unstack(X, timesteps, 1)
lstm_cell = rnn.BasicLSTMCell(num_hidden, forget_bias=1.0)
outputs, states = rnn.static_rnn(lstm_cell, inputs, dtype=tf.float32)
logits = tf.matmul(outputs[-1], weights) + biases
loss_op = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(logits=logits, labels=Y))
train_op = tf.train.AdamOptimizer(learning_rate=0.01).minimize(loss_op)
correct = tf.equal(tf.argmax(logits, 1), tf.argmax(Y, 1))
accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
print(", ".join("%s %s" % (v.op.name, v.shape.as_list()) for v in tf.trainable_variables()))

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(1, FLAGS.steps + 1):
        batch_x, batch_y = mnist.train.next_batch(batch_size)
        batch_x = batch_x.reshape((batch_size, timesteps, num_input))
        if step == FLAGS.steps:
            run_options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)
            run_metadata = tf.RunMetadata()
            sess.run(train_op, feed_dict={X: batch_x, Y: batch_y}, options=run_options, run_metadata=run_metadata)
            trace = timeline.Timeline(run_metadata.step_stats)
            with open(FLAGS.timeline, "w") as f:
                f.write(trace.generate_chrome_trace_format())
        else:
            sess.run(train_op, feed_dict={X: batch_x, Y: batch_y})
        if step == 1 or step % 50 == 0:
            loss, acc = sess.run([loss_op, accuracy], feed_dict={X: batch_x, Y: batch_y})
            print("Step %d, Minibatch Loss= %.4f, Training Accuracy= %.3f" % (step, loss, acc))
    test_x = mnist.test.images.reshape((-1, timesteps, num_input))
    print("Testing Accuracy: %.3f" % sess.run(accuracy, feed_dict={X: test_x, Y: mnist.test.labels}))
