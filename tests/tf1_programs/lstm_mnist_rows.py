"""Classify MNIST-shaped images with an LSTM that reads them one row (28 pixels) per time step, written like the
classic TF1 "recurrent network" example.

Ported from TensorFlow 1: `import tensorflow as tf` became `import trainer as tf`, and the MNIST download
became `synthetic_mnist.read_data_sets`.
"""
import argparse
import sys

import trainer as tf

import synthetic_mnist as input_data

FLAGS = None

# MNIST images are 28x28: each row is one time step of 28 inputs.
timesteps = 28
num_input = 28
num_classes = 10


def RNN(x, weights, biases):
    lstm_cell = tf.nn.rnn_cell.BasicLSTMCell(FLAGS.num_hidden, forget_bias=1.0)
    outputs, states = tf.nn.dynamic_rnn(lstm_cell, x, dtype=tf.float32)
    # The last step's output sees the whole image.
    last = outputs[:, -1, :]
    return tf.matmul(last, weights['out']) + biases['out']


def main(_):
    mnist = input_data.read_data_sets(FLAGS.data_dir, one_hot=True)

    X = tf.placeholder("float", [None, timesteps, num_input])
    Y = tf.placeholder("float", [None, num_classes])
    weights = {'out': tf.Variable(tf.random_normal([FLAGS.num_hidden, num_classes], stddev=0.1))}
    biases = {'out': tf.Variable(tf.zeros([num_classes]))}

    logits = RNN(X, weights, biases)
    prediction = tf.nn.softmax(logits)
    loss_op = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=logits, labels=Y))
    optimizer = tf.train.AdamOptimizer(learning_rate=FLAGS.learning_rate)
    train_op = optimizer.minimize(loss_op)

    correct_pred = tf.equal(tf.argmax(prediction, 1), tf.argmax(Y, 1))
    accuracy = tf.reduce_mean(tf.cast(correct_pred, tf.float32))
    init = tf.global_variables_initializer()

    print("variables: " + ", ".join("%s %s" % (v.op.name, v.shape.as_list()) for v in tf.trainable_variables()))
    with tf.Session() as sess:
        sess.run(init)
        for step in range(1, FLAGS.steps + 1):
            batch_x, batch_y = mnist.train.next_batch(FLAGS.batch_size)
            batch_x = batch_x.reshape((FLAGS.batch_size, timesteps, num_input))
            sess.run(train_op, feed_dict={X: batch_x, Y: batch_y})
            if step % FLAGS.display_step == 0 or step == 1:
                loss, acc = sess.run([loss_op, accuracy], feed_dict={X: batch_x, Y: batch_y})
                print("Step " + str(step) + ", Minibatch Loss= " + "{:.4f}".format(loss) +
                      ", Training Accuracy= " + "{:.3f}".format(acc))
        print("Optimization Finished!")

        test_len = 256
        test_data = mnist.test.images[:test_len].reshape((-1, timesteps, num_input))
        test_label = mnist.test.labels[:test_len]
        print("Testing Accuracy: %g" % sess.run(accuracy, feed_dict={X: test_data, Y: test_label}))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--data_dir", type=str, default="/tmp/tensorflow/mnist/input_data")
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--batch_size", type=int, default=64)
    parser.add_argument("--num_hidden", type=int, default=64)
    parser.add_argument("--learning_rate", type=float, default=0.01)
    parser.add_argument("--display_step", type=int, default=20)
    FLAGS, unparsed = parser.parse_known_args()
    tf.app.run(main=main, argv=[sys.argv[0]] + unparsed)
