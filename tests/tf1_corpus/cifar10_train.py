# Mirrors tensorflow/models: tutorials/image/cifar10/cifar10_train.py with cifar10.py and cifar10_input.py
"""CIFAR-10 training as the tutorial writes it: tf.app.flags, a tf.data input pipeline with per-image
distortions in Dataset.map (random_crop, random_flip_left_right, random_brightness, random_contrast,
per_image_standardization), variables on /cpu:0 through get_variable and weight decay in a 'losses'
collection, conv2d/max_pool/lrn layers, activation summaries with zero_fraction, loss averages by
ExponentialMovingAverage, exponential_decay with staircase, gradient histograms, variable moving averages,
train_op as a no_op under control dependencies, and a MonitoredTrainingSession with StopAtStepHook,
NanTensorHook and a custom SessionRunHook logger.

Changed from the original: synthetic 16x16 colour images instead of the CIFAR-10 download (a Dataset made
from_tensor_slices of a dict, as cifar10_input's tfds dataset yields dicts), cropped to 12x12 (32 to 24 in the
original); batches with drop_remainder=True so that they keep the static batch size the queue-based
pipeline gave `tf.reshape(pool2, [FLAGS.batch_size, -1])`; 16/16 filters and 48/24 local units (64/64,
384/192); 32 images a batch; 60 steps.
"""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

from datetime import datetime
import re
import time

import tensorflow as tf

import corpus_data

FLAGS = tf.app.flags.FLAGS

tf.app.flags.DEFINE_integer('batch_size', 32,
                            """Images per step.""")
tf.app.flags.DEFINE_string('data_dir', '/tmp/cifar10_data',
                           """Unused: the images are made in the program.""")
tf.app.flags.DEFINE_boolean('use_fp16', False,
                            """Half-precision variables and inputs.""")
tf.app.flags.DEFINE_string('train_dir', '/tmp/cifar10_train',
                           """Checkpoints and event files go here.""")
tf.app.flags.DEFINE_integer('max_steps', 60,
                            """Global step to stop at.""")
tf.app.flags.DEFINE_boolean('log_device_placement', False,
                            """Have the session log where ops run.""")
tf.app.flags.DEFINE_integer('log_frequency', 10,
                            """Print the loss every this many steps.""")

IMAGE_SIZE = 12
NUM_CLASSES = 10
NUM_EXAMPLES_PER_EPOCH_FOR_TRAIN = 640
NUM_EXAMPLES_PER_EPOCH_FOR_EVAL = 200


class DataPreprocessor(object):
    """Per-image preprocessing for Dataset.map: random distortions when training, a centre crop else."""

    def __init__(self, distords):
        self._distords = distords

    def __call__(self, record):
        img = record['image']
        img = tf.cast(img, tf.float32)
        if self._distords:
            img = tf.random_crop(img, [IMAGE_SIZE, IMAGE_SIZE, 3])
            img = tf.image.random_flip_left_right(img)
            img = tf.image.random_brightness(img, max_delta=63)
            img = tf.image.random_contrast(img, lower=0.2, upper=1.8)
        else:
            img = tf.image.resize_image_with_crop_or_pad(img, IMAGE_SIZE, IMAGE_SIZE)
        img = tf.image.per_image_standardization(img)
        return dict(input=img, target=record['label'])


def _get_images_labels(batch_size, split, distords=False):
    """Batches of (images, labels) from an iterator over the split, with an image summary."""
    images, labels = corpus_data.cifar(NUM_EXAMPLES_PER_EPOCH_FOR_TRAIN if split == 'train'
                                       else NUM_EXAMPLES_PER_EPOCH_FOR_EVAL, seed=0 if split == 'train' else 1)
    dataset = tf.data.Dataset.from_tensor_slices({'image': images, 'label': labels})
    scope = 'data_augmentation' if distords else 'input'
    with tf.name_scope(scope):
        dataset = dataset.map(DataPreprocessor(distords), num_parallel_calls=10)
    dataset = dataset.prefetch(-1)
    dataset = dataset.repeat().batch(batch_size, drop_remainder=True)
    iterator = dataset.make_one_shot_iterator()
    images_labels = iterator.get_next()
    images, labels = images_labels['input'], images_labels['target']
    tf.summary.image('images', images)
    return images, labels


MOVING_AVERAGE_DECAY = 0.9999
NUM_EPOCHS_PER_DECAY = 350.0
LEARNING_RATE_DECAY_FACTOR = 0.1
INITIAL_LEARNING_RATE = 0.1

TOWER_NAME = 'tower'


def _activation_summary(x):
    """Histogram and zero fraction of an activation, named without any tower prefix."""
    tensor_name = re.sub('%s_[0-9]*/' % TOWER_NAME, '', x.op.name)
    tf.summary.histogram(tensor_name + '/activations', x)
    tf.summary.scalar(tensor_name + '/sparsity',
                      tf.nn.zero_fraction(x))


def _variable_on_cpu(name, shape, initializer):
    """get_variable pinned to the CPU."""
    with tf.device('/cpu:0'):
        dtype = tf.float16 if FLAGS.use_fp16 else tf.float32
        var = tf.get_variable(name, shape, initializer=initializer, dtype=dtype)
    return var


def _variable_with_weight_decay(name, shape, stddev, wd):
    """A truncated-normal variable whose L2 norm times wd, if wd is given, joins the 'losses' collection."""
    dtype = tf.float16 if FLAGS.use_fp16 else tf.float32
    var = _variable_on_cpu(
        name,
        shape,
        tf.truncated_normal_initializer(stddev=stddev, dtype=dtype))
    if wd is not None:
        weight_decay = tf.multiply(tf.nn.l2_loss(var), wd, name='weight_loss')
        tf.add_to_collection('losses', weight_decay)
    return var


def distorted_inputs():
    """Training batches with random distortions."""
    images, labels = _get_images_labels(FLAGS.batch_size, 'train', distords=True)
    if FLAGS.use_fp16:
        images = tf.cast(images, tf.float16)
        labels = tf.cast(labels, tf.float16)
    return images, labels


def inference(images):
    """Two conv/pool/lrn stages, two relu layers and a linear one: the logits."""
    with tf.variable_scope('conv1') as scope:
        kernel = _variable_with_weight_decay('weights',
                                             shape=[5, 5, 3, 16],
                                             stddev=5e-2,
                                             wd=None)
        conv = tf.nn.conv2d(images, kernel, [1, 1, 1, 1], padding='SAME')
        biases = _variable_on_cpu('biases', [16], tf.constant_initializer(0.0))
        pre_activation = tf.nn.bias_add(conv, biases)
        conv1 = tf.nn.relu(pre_activation, name=scope.name)
        _activation_summary(conv1)

    pool1 = tf.nn.max_pool(conv1, ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1],
                           padding='SAME', name='pool1')
    norm1 = tf.nn.lrn(pool1, 4, bias=1.0, alpha=0.001 / 9.0, beta=0.75,
                      name='norm1')

    with tf.variable_scope('conv2') as scope:
        kernel = _variable_with_weight_decay('weights',
                                             shape=[5, 5, 16, 16],
                                             stddev=5e-2,
                                             wd=None)
        conv = tf.nn.conv2d(norm1, kernel, [1, 1, 1, 1], padding='SAME')
        biases = _variable_on_cpu('biases', [16], tf.constant_initializer(0.1))
        pre_activation = tf.nn.bias_add(conv, biases)
        conv2 = tf.nn.relu(pre_activation, name=scope.name)
        _activation_summary(conv2)

    norm2 = tf.nn.lrn(conv2, 4, bias=1.0, alpha=0.001 / 9.0, beta=0.75,
                      name='norm2')
    pool2 = tf.nn.max_pool(norm2, ksize=[1, 3, 3, 1],
                           strides=[1, 2, 2, 1], padding='SAME', name='pool2')

    with tf.variable_scope('local3') as scope:
        reshape = tf.reshape(pool2, [FLAGS.batch_size, -1])
        dim = reshape.get_shape()[1].value
        weights = _variable_with_weight_decay('weights', shape=[dim, 48],
                                              stddev=0.04, wd=0.004)
        biases = _variable_on_cpu('biases', [48], tf.constant_initializer(0.1))
        local3 = tf.nn.relu(tf.matmul(reshape, weights) + biases, name=scope.name)
        _activation_summary(local3)

    with tf.variable_scope('local4') as scope:
        weights = _variable_with_weight_decay('weights', shape=[48, 24],
                                              stddev=0.04, wd=0.004)
        biases = _variable_on_cpu('biases', [24], tf.constant_initializer(0.1))
        local4 = tf.nn.relu(tf.matmul(local3, weights) + biases, name=scope.name)
        _activation_summary(local4)

    with tf.variable_scope('softmax_linear') as scope:
        weights = _variable_with_weight_decay('weights', [24, NUM_CLASSES],
                                              stddev=1 / 24.0, wd=None)
        biases = _variable_on_cpu('biases', [NUM_CLASSES],
                                  tf.constant_initializer(0.0))
        softmax_linear = tf.add(tf.matmul(local4, weights), biases, name=scope.name)
        _activation_summary(softmax_linear)

    return softmax_linear


def loss(logits, labels):
    """Mean cross entropy plus every weight-decay term."""
    labels = tf.cast(labels, tf.int64)
    cross_entropy = tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=labels, logits=logits, name='cross_entropy_per_example')
    cross_entropy_mean = tf.reduce_mean(cross_entropy, name='cross_entropy')
    tf.add_to_collection('losses', cross_entropy_mean)

    return tf.add_n(tf.get_collection('losses'), name='total_loss')


def _add_loss_summaries(total_loss):
    """Raw and moving-average summaries of each loss; returns the averaging op."""
    loss_averages = tf.train.ExponentialMovingAverage(0.9, name='avg')
    losses = tf.get_collection('losses')
    loss_averages_op = loss_averages.apply(losses + [total_loss])

    for l in losses + [total_loss]:
        tf.summary.scalar(l.op.name + ' (raw)', l)
        tf.summary.scalar(l.op.name, loss_averages.average(l))

    return loss_averages_op


def train(total_loss, global_step):
    """SGD with a decaying rate, histograms, and moving averages of the variables: the train op."""
    num_batches_per_epoch = NUM_EXAMPLES_PER_EPOCH_FOR_TRAIN / FLAGS.batch_size
    decay_steps = int(num_batches_per_epoch * NUM_EPOCHS_PER_DECAY)

    lr = tf.train.exponential_decay(INITIAL_LEARNING_RATE,
                                    global_step,
                                    decay_steps,
                                    LEARNING_RATE_DECAY_FACTOR,
                                    staircase=True)
    tf.summary.scalar('learning_rate', lr)

    loss_averages_op = _add_loss_summaries(total_loss)

    with tf.control_dependencies([loss_averages_op]):
        opt = tf.train.GradientDescentOptimizer(lr)
        grads = opt.compute_gradients(total_loss)

    apply_gradient_op = opt.apply_gradients(grads, global_step=global_step)

    for var in tf.trainable_variables():
        tf.summary.histogram(var.op.name, var)

    for grad, var in grads:
        if grad is not None:
            tf.summary.histogram(var.op.name + '/gradients', grad)

    variable_averages = tf.train.ExponentialMovingAverage(
        MOVING_AVERAGE_DECAY, global_step)
    with tf.control_dependencies([apply_gradient_op]):
        variables_averages_op = variable_averages.apply(tf.trainable_variables())

    with tf.control_dependencies([apply_gradient_op, variables_averages_op]):
        train_op = tf.no_op(name='train')

    return train_op


def train_model():
    """Builds the graph and trains it in a MonitoredTrainingSession."""
    with tf.Graph().as_default():
        global_step = tf.train.get_or_create_global_step()

        with tf.device('/cpu:0'):
            images, labels = distorted_inputs()

        logits = inference(images)

        loss_ = loss(logits, labels)

        train_op = train(loss_, global_step)

        class _LoggerHook(tf.train.SessionRunHook):
            """Prints the loss and the speed every log_frequency steps."""

            def begin(self):
                self._step = -1
                self._start_time = time.time()

            def before_run(self, run_context):
                self._step += 1
                return tf.train.SessionRunArgs(loss_)

            def after_run(self, run_context, run_values):
                if self._step % FLAGS.log_frequency == 0:
                    current_time = time.time()
                    duration = current_time - self._start_time
                    self._start_time = current_time

                    loss_value = run_values.results
                    examples_per_sec = FLAGS.log_frequency * FLAGS.batch_size / duration
                    sec_per_batch = float(duration / FLAGS.log_frequency)

                    format_str = ('%s: step %d, loss = %.2f (%.1f examples/sec; %.3f '
                                  'sec/batch)')
                    print(format_str % (datetime.now(), self._step, loss_value,
                                        examples_per_sec, sec_per_batch))

        with tf.train.MonitoredTrainingSession(
                checkpoint_dir=FLAGS.train_dir,
                hooks=[tf.train.StopAtStepHook(last_step=FLAGS.max_steps),
                       tf.train.NanTensorHook(loss_),
                       _LoggerHook()],
                config=tf.ConfigProto(
                    log_device_placement=FLAGS.log_device_placement)) as mon_sess:
            while not mon_sess.should_stop():
                mon_sess.run(train_op)


def main(argv=None):
    if tf.gfile.Exists(FLAGS.train_dir):
        tf.gfile.DeleteRecursively(FLAGS.train_dir)
    tf.gfile.MakeDirs(FLAGS.train_dir)
    train_model()


if __name__ == '__main__':
    tf.app.run()
