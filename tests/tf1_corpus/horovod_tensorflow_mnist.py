"""Horovod data parallelism in TF1 graph mode. Each rank reads its own file through
tf.keras.datasets.mnist.load_data(path) (looked up in ~/.keras/datasets, made if missing), feeds shuffled batches
from a Python generator into placeholders, and trains a tf.layers CNN (conv2d + max_pool stages in variable
scopes, dense, dropout; tf.losses.softmax_cross_entropy on tf.one_hot labels). Adam's rate is scaled by
hvd.size() (or local size for Adasum) and wrapped in hvd.DistributedOptimizer(op=..., gradient_predivide_factor=);
a MonitoredTrainingSession runs with hvd.BroadcastGlobalVariablesHook(0), a StopAtStepHook whose last step is the
total divided by hvd.size(), a LoggingTensorHook of a dict of tensors, a ConfigProto pinning the rank's GPU, and
a checkpoint directory on rank 0 only."""
import argparse
import os

import numpy as np
import tensorflow as tf
import horovod.tensorflow as hvd

TOTAL_STEPS, BATCH = 120, 50

parser = argparse.ArgumentParser(description="Horovod CNN on digits")
parser.add_argument("--use-adasum", action="store_true", help="combine gradients by Adasum, not by averaging")
parser.add_argument("--gradient-predivide-factor", type=float, default=1.0,
                    help="split the averaging's division between before and after the sum")
options = parser.parse_args()


def classify(pixels, labels, training):
    """(predicted class, loss) of a small CNN."""
    maps = tf.reshape(pixels, [-1, 28, 28, 1])
    for number, filters in enumerate((8, 16), start=1):
        with tf.variable_scope("block%d" % number):
            maps = tf.layers.conv2d(maps, filters, kernel_size=[5, 5], padding="SAME", activation=tf.nn.relu)
            maps = tf.nn.max_pool(maps, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")
    hidden = tf.layers.dense(tf.reshape(maps, [-1, 7 * 7 * 16]), 64, activation=tf.nn.relu)
    logits = tf.layers.dense(tf.layers.dropout(hidden, rate=0.5, training=training), 10)
    loss = tf.losses.softmax_cross_entropy(tf.one_hot(tf.cast(labels, tf.int32), 10, 1, 0), logits)
    return tf.argmax(logits, 1), loss


def shuffled_batches(images, labels, size):
    """Endless full batches, reshuffled every pass."""
    while True:
        order = np.random.permutation(len(images))
        for start in range(0, len(images) - size + 1, size):
            pick = order[start:start + size]
            yield images[pick], labels[pick]


def main(_):
    hvd.init()
    os.makedirs(os.path.join(os.path.expanduser("~"), ".keras", "datasets"), exist_ok=True)
    (train_images, train_labels), _ = tf.keras.datasets.mnist.load_data("digits-rank%d.npz" % hvd.rank())
    train_images = train_images.reshape(-1, 784) / 255.0

    with tf.name_scope("input"):
        pixels = tf.placeholder(tf.float32, [None, 784], name="pixels")
        labels = tf.placeholder(tf.float32, [None], name="labels")
    _, loss = classify(pixels, labels, training=True)

    scale = (hvd.local_size() if hvd.nccl_built() else 1) if options.use_adasum else hvd.size()
    optimizer = hvd.DistributedOptimizer(tf.train.AdamOptimizer(0.001 * scale),
                                         op=hvd.Adasum if options.use_adasum else hvd.Average,
                                         gradient_predivide_factor=options.gradient_predivide_factor)
    global_step = tf.train.get_or_create_global_step()
    train = optimizer.minimize(loss, global_step=global_step)

    hooks = [hvd.BroadcastGlobalVariablesHook(0),  # every rank starts from rank 0's weights
             tf.train.StopAtStepHook(last_step=TOTAL_STEPS // hvd.size()),
             tf.train.LoggingTensorHook(tensors={"loss": loss, "step": global_step}, every_n_iter=10)]
    config = tf.ConfigProto()
    config.gpu_options.allow_growth = True
    config.gpu_options.visible_device_list = str(hvd.local_rank())
    batches = shuffled_batches(train_images, train_labels, BATCH)
    with tf.train.MonitoredTrainingSession(checkpoint_dir="./checkpoints" if hvd.rank() == 0 else None,
                                           hooks=hooks, config=config) as session:
        while not session.should_stop():
            batch_images, batch_labels = next(batches)
            session.run(train, feed_dict={pixels: batch_images, labels: batch_labels})


if __name__ == "__main__":
    tf.logging.set_verbosity(tf.logging.INFO)
    tf.app.run()
