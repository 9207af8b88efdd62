"""A two-layer convolutional network, written like TF1's "Deep MNIST for experts" tutorial (mnist_deep.py).

Ported from TensorFlow 1: the import line and the data source changed. The images are 12x12 instead of 28x28
and the layers narrower so the test runs in seconds on a CPU; the structure is the tutorial's.
"""
import argparse
import sys

import numpy as np

import trainer as tf

import synthetic_mnist as input_data

FLAGS = None


def deepnn(x):
    """Builds the graph: x (N, side*side) -> logits (N, 10), and the dropout keep probability placeholder."""
    side = int(round(np.sqrt(x.get_shape().as_list()[1])))
    with tf.name_scope('reshape'):
        x_image = tf.reshape(x, [-1, side, side, 1])

    with tf.name_scope('conv1'):
        W_conv1 = weight_variable([5, 5, 1, FLAGS.conv1_features])
        b_conv1 = bias_variable([FLAGS.conv1_features])
        h_conv1 = tf.nn.relu(conv2d(x_image, W_conv1) + b_conv1)

    with tf.name_scope('pool1'):
        h_pool1 = max_pool_2x2(h_conv1)

    with tf.name_scope('conv2'):
        W_conv2 = weight_variable([5, 5, FLAGS.conv1_features, FLAGS.conv2_features])
        b_conv2 = bias_variable([FLAGS.conv2_features])
        h_conv2 = tf.nn.relu(conv2d(h_pool1, W_conv2) + b_conv2)

    with tf.name_scope('pool2'):
        h_pool2 = max_pool_2x2(h_conv2)

    with tf.name_scope('fc1'):
        _, height, width, channels = h_pool2.get_shape().as_list()
        flat = height * width * channels
        W_fc1 = weight_variable([flat, FLAGS.fc1_units])
        b_fc1 = bias_variable([FLAGS.fc1_units])
        h_pool2_flat = tf.reshape(h_pool2, [-1, flat])
        h_fc1 = tf.nn.relu(tf.matmul(h_pool2_flat, W_fc1) + b_fc1)

    with tf.name_scope('dropout'):
        keep_prob = tf.placeholder(tf.float32)
        h_fc1_drop = tf.nn.dropout(h_fc1, keep_prob)

    with tf.name_scope('fc2'):
        W_fc2 = weight_variable([FLAGS.fc1_units, 10])
        b_fc2 = bias_variable([10])
        y_conv = tf.matmul(h_fc1_drop, W_fc2) + b_fc2
    return y_conv, keep_prob


def conv2d(x, W):
    """A 2-D convolution with stride 1 and SAME padding."""
    return tf.nn.conv2d(x, W, strides=[1, 1, 1, 1], padding='SAME')


def max_pool_2x2(x):
    """Halves each spatial side."""
    return tf.nn.max_pool(x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='SAME')


def weight_variable(shape):
    initial = tf.truncated_normal(shape, stddev=0.1)
    return tf.Variable(initial)


def bias_variable(shape):
    initial = tf.constant(0.1, shape=shape)
    return tf.Variable(initial)


def main(_):
    tf.set_random_seed(1)
    mnist = input_data.read_data_sets(FLAGS.data_dir, one_hot=True, image_size=FLAGS.image_size)

    x = tf.placeholder(tf.float32, [None, FLAGS.image_size * FLAGS.image_size])
    y_ = tf.placeholder(tf.float32, [None, 10])
    y_conv, keep_prob = deepnn(x)

    with tf.name_scope('loss'):
        cross_entropy = tf.nn.softmax_cross_entropy_with_logits(labels=y_, logits=y_conv)
    cross_entropy = tf.reduce_mean(cross_entropy)

    with tf.name_scope('adam_optimizer'):
        train_step = tf.train.AdamOptimizer(FLAGS.learning_rate).minimize(cross_entropy)  # the tutorial: 1e-4

    with tf.name_scope('accuracy'):
        correct_prediction = tf.equal(tf.argmax(y_conv, 1), tf.argmax(y_, 1))
        correct_prediction = tf.cast(correct_prediction, tf.float32)
    accuracy = tf.reduce_mean(correct_prediction)

    print('graph has name scopes:', sorted({op.name.split('/')[0] for op in tf.get_default_graph().get_operations()
                                           if '/' in op.name}))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i in range(FLAGS.steps):
            batch = mnist.train.next_batch(50)
            if i % 20 == 0:
                train_accuracy = accuracy.eval(feed_dict={x: batch[0], y_: batch[1], keep_prob: 1.0})
                print('step %d, training accuracy %g' % (i, train_accuracy))
            train_step.run(feed_dict={x: batch[0], y_: batch[1], keep_prob: 0.5})

        print('test accuracy %g' % accuracy.eval(feed_dict={x: mnist.test.images, y_: mnist.test.labels,
                                                            keep_prob: 1.0}))


if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    parser.add_argument('--data_dir', type=str, default='/tmp/tensorflow/mnist/input_data')
    parser.add_argument('--image_size', type=int, default=12)
    parser.add_argument('--conv1_features', type=int, default=8)
    parser.add_argument('--conv2_features', type=int, default=16)
    parser.add_argument('--fc1_units', type=int, default=64)
    parser.add_argument('--steps', type=int, default=150)
    parser.add_argument('--learning_rate', type=float, default=1e-3,
                        help='The tutorial uses 1e-4 over 20000 steps; 1e-3 learns in 150.')
    FLAGS, unparsed = parser.parse_known_args()
    tf.app.run(main=main, argv=[sys.argv[0]] + unparsed)
