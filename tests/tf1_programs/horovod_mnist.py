"""Data-parallel training with Horovod's TF1 API, written like Horovod's tensorflow_mnist.py example.

Ported from TensorFlow 1 + Horovod: `import tensorflow as tf` became `import trainer as tf`,
`import horovod.tensorflow as hvd` became `import trainer.horovod as hvd`, and each rank draws its own
synthetic shard instead of downloading MNIST. Launch with `mpiexec -n N python horovod_mnist.py` or alone.
"""
import argparse
import sys

import numpy as np

import trainer as tf
import trainer.horovod as hvd

import synthetic_mnist as input_data

FLAGS = None


def conv_model(feature, target, mode):
    """A small convolutional model; returns the predicted class probabilities and the loss."""
    target = tf.one_hot(tf.cast(target, tf.int32), 10, 1, 0)
    side = FLAGS.image_size
    feature = tf.reshape(feature, [-1, side, side, 1])
    with tf.variable_scope('conv_layer1'):
        h_conv1 = tf.layers.conv2d(feature, 8, kernel_size=[3, 3], activation=tf.nn.relu, padding='SAME')
        h_pool1 = tf.nn.max_pool(h_conv1, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='SAME')
    with tf.variable_scope('fc_layer1'):
        h_pool1_flat = tf.reshape(h_pool1, [-1, int(np.prod(h_pool1.get_shape().as_list()[1:]))])
        h_fc1 = tf.layers.dense(h_pool1_flat, 32, activation=tf.nn.relu)
        h_fc1 = tf.layers.dropout(h_fc1, rate=0.25, training=mode == 'train')
    logits = tf.layers.dense(h_fc1, 10, activation=None)
    loss = tf.losses.softmax_cross_entropy(target, logits)
    return tf.nn.softmax(logits), loss


def train_input_generator(x_train, y_train, batch_size=64):
    assert len(x_train) == len(y_train)
    while True:
        p = np.random.permutation(len(x_train))
        x_train, y_train = x_train[p], y_train[p]
        index = 0
        while index <= len(x_train) - batch_size:
            yield x_train[index:index + batch_size], y_train[index:index + batch_size]
            index += batch_size


def main(_):
    hvd.init()
    np.random.seed(hvd.rank())
    tf.set_random_seed(hvd.rank())  # different initial weights on purpose: the broadcast hook must align them

    # Each rank its own shard: same classes, different samples.
    mnist = input_data.read_data_sets('MNIST-data-%d' % hvd.rank(), image_size=FLAGS.image_size)
    shard = mnist.train.num_examples // hvd.size()
    x_train = mnist.train.images[hvd.rank() * shard:(hvd.rank() + 1) * shard]
    y_train = mnist.train.labels[hvd.rank() * shard:(hvd.rank() + 1) * shard]

    with tf.name_scope('input'):
        image = tf.placeholder(tf.float32, [None, FLAGS.image_size ** 2], name='image')
        label = tf.placeholder(tf.float32, [None], name='label')
    predict, loss = conv_model(image, label, 'train')
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(predict, 1), tf.cast(label, tf.int64)), tf.float32))
    checksum = tf.add_n([tf.reduce_sum(v) for v in tf.trainable_variables()])

    # Horovod: scale the learning rate by the number of workers.
    opt = tf.train.AdamOptimizer(0.001 * hvd.size())
    opt = hvd.DistributedOptimizer(opt)

    global_step = tf.train.get_or_create_global_step()
    train_op = opt.minimize(loss, global_step=global_step)

    final = tf.train.FinalOpsHook({'accuracy': accuracy, 'checksum': checksum},
                                  final_ops_feed_dict={image: mnist.test.images, label: mnist.test.labels})
    hooks = [
        hvd.BroadcastGlobalVariablesHook(0),
        tf.train.StopAtStepHook(last_step=FLAGS.steps // hvd.size()),
        tf.train.LoggingTensorHook(tensors={'step': global_step, 'loss': loss}, every_n_iter=20),
        final,
    ]

    config = tf.ConfigProto()
    config.gpu_options.allow_growth = True
    config.gpu_options.visible_device_list = str(hvd.local_rank())

    # Horovod: only rank 0 saves checkpoints, so workers cannot corrupt them.
    checkpoint_dir = FLAGS.checkpoint_dir if hvd.rank() == 0 else None
    training_batch_generator = train_input_generator(x_train, y_train, batch_size=FLAGS.batch_size)
    with tf.train.MonitoredTrainingSession(checkpoint_dir=checkpoint_dir, hooks=hooks, config=config) as mon_sess:
        while not mon_sess.should_stop():
            image_, label_ = next(training_batch_generator)
            mon_sess.run(train_op, feed_dict={image: image_, label: label_})

    values = final.final_ops_values
    print('rank %d of %d: test accuracy %.4f checksum %.10e' % (hvd.rank(), hvd.size(), values['accuracy'],
                                                               values['checksum']))


if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    parser.add_argument('--steps', type=int, default=160, help='Total steps over all workers.')
    parser.add_argument('--batch_size', type=int, default=32)
    parser.add_argument('--image_size', type=int, default=12)
    parser.add_argument('--checkpoint_dir', default='./checkpoints')
    FLAGS, unparsed = parser.parse_known_args()
    tf.app.run(main=main, argv=[sys.argv[0]] + unparsed)
