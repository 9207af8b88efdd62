"""A small colour-image classifier, from input pipeline to checkpoints, in the TF1 idioms of a full training
script:
- flags by tf.app.flags, the train directory emptied and made with tf.gfile, then tf.app.run;
- a tf.data pipeline over a dict of numpy arrays whose Dataset.map distorts each image (tf.random_crop,
  random_flip_left_right, random_brightness, random_contrast, per_image_standardization) under a name scope,
  with prefetch, repeat, batch(drop_remainder=True) for a static batch size, and a tf.summary.image;
- variables made by tf.get_variable on /cpu:0, weight decay joined to a 'losses' collection and summed by
  tf.add_n; conv2d/bias_add/relu, max_pool and lrn stages; relu ops named after their variable scope, with
  histogram and tf.nn.zero_fraction summaries;
- loss summaries raw and smoothed by an ExponentialMovingAverage, a staircase exponential_decay learning rate,
  compute_gradients under control dependencies, variable and gradient histograms, moving averages of the
  variables, and the training step as a tf.no_op depending on all of it;
- a MonitoredTrainingSession with a checkpoint_dir, StopAtStepHook, NanTensorHook and a SessionRunHook of our
  own that asks for the loss in before_run and prints it every few steps.
Summary names follow TF1's uniquifying: a summary named like an existing op gets a `_1`."""
import re
import time
from datetime import datetime

import tensorflow as tf

import corpus_data

FLAGS = tf.app.flags.FLAGS
tf.app.flags.DEFINE_string("train_dir", "/tmp/colour_train", "where checkpoints and events go")
tf.app.flags.DEFINE_integer("batch_size", 32, "images per step")
tf.app.flags.DEFINE_integer("max_steps", 60, "the global step at which training stops")
tf.app.flags.DEFINE_integer("log_every", 10, "steps between printed losses")
tf.app.flags.DEFINE_boolean("log_device_placement", False, "let the session log op placement")

CROP, CLASSES, TRAIN_IMAGES = 12, 10, 640
DECAY_EPOCHS, DECAY_FACTOR, START_RATE, AVERAGE_DECAY = 350.0, 0.1, 0.1, 0.9999


def distort(record):
    image = tf.cast(record["pixels"], tf.float32)
    image = tf.image.random_flip_left_right(tf.random_crop(image, [CROP, CROP, 3]))
    image = tf.image.random_contrast(tf.image.random_brightness(image, max_delta=63), lower=0.2, upper=1.8)
    return {"image": tf.image.per_image_standardization(image), "label": record["label"]}


def training_batches():
    pixels, labels = corpus_data.cifar(TRAIN_IMAGES, seed=0)
    dataset = tf.data.Dataset.from_tensor_slices({"pixels": pixels, "label": labels})
    with tf.name_scope("distort"):
        dataset = dataset.map(distort, num_parallel_calls=4)
    batch = dataset.prefetch(-1).repeat().batch(FLAGS.batch_size, drop_remainder=True) \
        .make_one_shot_iterator().get_next()
    tf.summary.image("batch", batch["image"])
    return batch["image"], batch["label"]


def watch(activation):
    """Histogram and sparsity of an activation, its name freed of any tower prefix."""
    name = re.sub("tower_[0-9]*/", "", activation.op.name)
    tf.summary.histogram(name + "/activations", activation)
    tf.summary.scalar(name + "/sparsity", tf.nn.zero_fraction(activation))


def cpu_variable(name, shape, initializer):
    with tf.device("/cpu:0"):
        return tf.get_variable(name, shape, initializer=initializer, dtype=tf.float32)


def kernel(shape, stddev, decay=None):
    made = cpu_variable("kernel", shape, tf.truncated_normal_initializer(stddev=stddev))
    if decay is not None:
        tf.add_to_collection("losses", tf.multiply(tf.nn.l2_loss(made), decay, name="decay"))
    return made


def conv_stage(name, inputs, filters, bias, pool_first):
    with tf.variable_scope(name) as scope:
        maps = tf.nn.conv2d(inputs, kernel([5, 5, inputs.shape[-1].value, filters], 5e-2), [1, 1, 1, 1], "SAME")
        maps = tf.nn.relu(tf.nn.bias_add(maps, cpu_variable("bias", [filters], tf.constant_initializer(bias))),
                          name=scope.name)
        watch(maps)
    pool = lambda x: tf.nn.max_pool(x, [1, 3, 3, 1], [1, 2, 2, 1], "SAME", name=name + "_pool")  # noqa: E731
    norm = lambda x: tf.nn.lrn(x, 4, bias=1.0, alpha=0.001 / 9.0, beta=0.75, name=name + "_norm")  # noqa: E731
    return norm(pool(maps)) if pool_first else pool(norm(maps))


def dense(name, inputs, units, stddev, decay, relu=True):
    with tf.variable_scope(name) as scope:
        weights = kernel([inputs.shape[1].value, units], stddev, decay)
        bias = cpu_variable("bias", [units], tf.constant_initializer(0.1 if relu else 0.0))
        out = (tf.nn.relu(tf.matmul(inputs, weights) + bias, name=scope.name) if relu
               else tf.add(tf.matmul(inputs, weights), bias, name=scope.name))
        watch(out)
    return out


def logits_of(images):
    maps = conv_stage("stage2", conv_stage("stage1", images, 16, 0.0, pool_first=True), 16, 0.1, pool_first=False)
    flat = tf.reshape(maps, [FLAGS.batch_size, -1])
    hidden = dense("hidden2", dense("hidden1", flat, 48, 0.04, 0.004), 24, 0.04, 0.004)
    return dense("logits", hidden, CLASSES, 1 / 24.0, None, relu=False)


def total_loss(logits, labels):
    per_image = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.cast(labels, tf.int64), logits=logits)
    tf.add_to_collection("losses", tf.reduce_mean(per_image, name="mean_xent"))
    return tf.add_n(tf.get_collection("losses"), name="total")


def training_step(loss, global_step):
    decay_steps = int(TRAIN_IMAGES / FLAGS.batch_size * DECAY_EPOCHS)
    rate = tf.train.exponential_decay(START_RATE, global_step, decay_steps, DECAY_FACTOR, staircase=True)
    tf.summary.scalar("lr", rate)

    smoother = tf.train.ExponentialMovingAverage(0.9, name="smoothed")
    parts = tf.get_collection("losses") + [loss]
    smoothing = smoother.apply(parts)
    for part in parts:
        tf.summary.scalar(part.op.name + " (raw)", part)
        tf.summary.scalar(part.op.name, smoother.average(part))

    with tf.control_dependencies([smoothing]):
        optimizer = tf.train.GradientDescentOptimizer(rate)
        gradients = optimizer.compute_gradients(loss)
    apply = optimizer.apply_gradients(gradients, global_step=global_step)
    for variable in tf.trainable_variables():
        tf.summary.histogram(variable.op.name, variable)
    for gradient, variable in gradients:
        if gradient is not None:
            tf.summary.histogram(variable.op.name + "/gradients", gradient)

    with tf.control_dependencies([apply]):
        averaged = tf.train.ExponentialMovingAverage(AVERAGE_DECAY, global_step).apply(tf.trainable_variables())
    with tf.control_dependencies([apply, averaged]):
        return tf.no_op(name="step")


class PrintLoss(tf.train.SessionRunHook):
    """Fetches `loss` beside every run and prints it, with the speed, every FLAGS.log_every runs."""

    def __init__(self, loss):
        self.loss = loss

    def begin(self):
        self.runs, self.since = 0, time.time()

    def before_run(self, run_context):
        return tf.train.SessionRunArgs(self.loss)

    def after_run(self, run_context, run_values):
        if self.runs % FLAGS.log_every == 0:
            now = time.time()
            took, self.since = now - self.since, now
            print("%s step %d: loss %.2f (%.1f images/s, %.3f s/batch)"
                  % (datetime.now(), self.runs, run_values.results, FLAGS.log_every * FLAGS.batch_size / took,
                     took / FLAGS.log_every))
        self.runs += 1


def main(_):
    if tf.gfile.Exists(FLAGS.train_dir):
        tf.gfile.DeleteRecursively(FLAGS.train_dir)
    tf.gfile.MakeDirs(FLAGS.train_dir)
    with tf.Graph().as_default():
        global_step = tf.train.get_or_create_global_step()
        with tf.device("/cpu:0"):
            images, labels = training_batches()
        loss = total_loss(logits_of(images), labels)
        step = training_step(loss, global_step)
        hooks = [tf.train.StopAtStepHook(last_step=FLAGS.max_steps), tf.train.NanTensorHook(loss), PrintLoss(loss)]
        config = tf.ConfigProto(log_device_placement=FLAGS.log_device_placement)
        with tf.train.MonitoredTrainingSession(checkpoint_dir=FLAGS.train_dir, hooks=hooks, config=config) as session:
            while not session.should_stop():
                session.run(step)


if __name__ == "__main__":
    tf.app.run()
