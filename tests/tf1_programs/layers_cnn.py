"""A convolutional network built from tf.layers with batch normalization and dropout switched by an
`is_training` placeholder, trained with the UPDATE_OPS control dependency TF1 requires for batch norm.

Ported from TensorFlow 1: the import line and the data source changed.
"""
import argparse
import sys

import numpy as np

import trainer as tf

import synthetic_mnist as input_data

FLAGS = None


def conv_net(x, n_classes, dropout, is_training):
    with tf.variable_scope('ConvNet'):
        side = FLAGS.image_size
        x = tf.reshape(x, shape=[-1, side, side, 1])
        conv1 = tf.layers.conv2d(x, 8, 3, activation=tf.nn.relu, padding='same')
        conv1 = tf.layers.max_pooling2d(conv1, 2, 2)
        conv2 = tf.layers.conv2d(conv1, 16, 3, activation=None)
        conv2 = tf.layers.batch_normalization(conv2, training=is_training)
        conv2 = tf.nn.relu(conv2)
        conv2 = tf.layers.max_pooling2d(conv2, 2, 2)
        fc1 = tf.layers.flatten(conv2)
        fc1 = tf.layers.dense(fc1, 64, activation=tf.nn.relu)
        fc1 = tf.layers.dropout(fc1, rate=dropout, training=is_training)
        out = tf.layers.dense(fc1, n_classes)
    return out


def main(_):
    tf.set_random_seed(3)
    mnist = input_data.read_data_sets(FLAGS.data_dir, one_hot=False, image_size=FLAGS.image_size)

    images = tf.placeholder(tf.float32, [None, FLAGS.image_size ** 2], name='images')
    labels = tf.placeholder(tf.int32, [None], name='labels')
    is_training = tf.placeholder(tf.bool, name='is_training')

    logits = conv_net(images, 10, FLAGS.dropout, is_training)
    loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    global_step = tf.train.get_or_create_global_step()
    update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    with tf.control_dependencies(update_ops):
        train_op = tf.train.AdamOptimizer(FLAGS.learning_rate).minimize(loss, global_step=global_step)

    predictions = tf.argmax(logits, 1, output_type=tf.int32)
    accuracy = tf.reduce_mean(tf.cast(tf.equal(predictions, labels), tf.float32))
    moving_mean = [v for v in tf.global_variables() if v.name.endswith('moving_mean:0')][0]
    print('update ops:', len(update_ops), 'trainable variables:', len(tf.trainable_variables()))

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(1, FLAGS.steps + 1):
            batch_x, batch_y = mnist.train.next_batch(FLAGS.batch_size)
            _, loss_value = sess.run([train_op, loss], feed_dict={images: batch_x, labels: batch_y,
                                                                  is_training: True})
            if step % 20 == 0 or step == 1:
                print('Step %d, minibatch loss= %.4f' % (step, loss_value))
        test_feed = {images: mnist.test.images, labels: mnist.test.labels, is_training: False}
        print('global step: %d' % sess.run(global_step))
        print('moving_mean abs sum: %.6f' % np.abs(sess.run(moving_mean)).sum())
        print('Testing Accuracy: %g' % sess.run(accuracy, feed_dict=test_feed))


if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    parser.add_argument('--data_dir', type=str, default='/tmp/data')
    parser.add_argument('--image_size', type=int, default=12)
    parser.add_argument('--steps', type=int, default=100)
    parser.add_argument('--batch_size', type=int, default=64)
    parser.add_argument('--learning_rate', type=float, default=0.003)
    parser.add_argument('--dropout', type=float, default=0.25, help='Fraction of units dropped while training.')
    FLAGS, unparsed = parser.parse_known_args()
    tf.app.run(main=main, argv=[sys.argv[0]] + unparsed)
