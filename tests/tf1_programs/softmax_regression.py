"""Softmax regression on MNIST-shaped data, written like TF1's "MNIST for ML beginners" tutorial.

Ported from TensorFlow 1: `import tensorflow as tf` became `import trainer as tf`, and the MNIST download
became `synthetic_mnist.read_data_sets`.
"""
import argparse
import sys

import trainer as tf

import synthetic_mnist as input_data

FLAGS = None


def main(_):
    mnist = input_data.read_data_sets(FLAGS.data_dir, one_hot=True)

    # The model: y = xW + b.
    x = tf.placeholder(tf.float32, [None, 784])
    W = tf.Variable(tf.zeros([784, 10]))
    b = tf.Variable(tf.zeros([10]))
    y = tf.matmul(x, W) + b

    y_ = tf.placeholder(tf.float32, [None, 10])
    cross_entropy = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y_, logits=y))
    # The tutorial's first version spelled the same loss out by hand.
    manual_cross_entropy = tf.reduce_mean(-tf.reduce_sum(y_ * tf.log(tf.nn.softmax(y)), reduction_indices=[1]))
    train_step = tf.train.GradientDescentOptimizer(FLAGS.learning_rate).minimize(cross_entropy)

    sess = tf.InteractiveSession()
    tf.global_variables_initializer().run()
    for _ in range(FLAGS.steps):
        batch_xs, batch_ys = mnist.train.next_batch(FLAGS.batch_size)
        sess.run(train_step, feed_dict={x: batch_xs, y_: batch_ys})

    correct_prediction = tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1))
    accuracy = tf.reduce_mean(tf.cast(correct_prediction, tf.float32))
    test_feed = {x: mnist.test.images, y_: mnist.test.labels}
    print("cross_entropy %.6f manual_cross_entropy %.6f" % tuple(
        sess.run([cross_entropy, manual_cross_entropy], feed_dict=test_feed)))
    print("test accuracy %g" % sess.run(accuracy, feed_dict=test_feed))
    sess.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--data_dir", type=str, default="/tmp/tensorflow/mnist/input_data",
                        help="Directory for storing input data")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--batch_size", type=int, default=100)
    parser.add_argument("--learning_rate", type=float, default=0.5)
    FLAGS, unparsed = parser.parse_known_args()
    tf.app.run(main=main, argv=[sys.argv[0]] + unparsed)
