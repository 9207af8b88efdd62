"""Data-parallel Estimator training with Horovod, written like Horovod's tensorflow_mnist_estimator.py example.

Ported from TensorFlow 1 + Horovod: `import tensorflow as tf` became `import trainer as tf`, `import
horovod.tensorflow as hvd` became `import trainer.horovod as hvd`, Keras' MNIST download became synthetic
MNIST-shaped data (synthetic_mnist.py), and the network is narrower and the images smaller (--image_size) so a
test runs it in seconds. Launch with `mpiexec -n N python horovod_mnist_estimator.py` or alone.
"""
import argparse
import sys

import numpy as np

import trainer as tf
import trainer.horovod as hvd

import synthetic_mnist

FLAGS = None


def cnn_model_fn(features, labels, mode):
    """Model function for CNN."""
    side = FLAGS.image_size
    input_layer = tf.reshape(features["x"], [-1, side, side, 1])
    conv1 = tf.layers.conv2d(inputs=input_layer, filters=8, kernel_size=[3, 3], padding="same",
                             activation=tf.nn.relu)
    pool1 = tf.layers.max_pooling2d(inputs=conv1, pool_size=[2, 2], strides=2)
    pool1_flat = tf.reshape(pool1, [-1, (side // 2) * (side // 2) * 8])
    dense = tf.layers.dense(inputs=pool1_flat, units=64, activation=tf.nn.relu)
    dropout = tf.layers.dropout(inputs=dense, rate=0.4, training=mode == tf.estimator.ModeKeys.TRAIN)
    logits = tf.layers.dense(inputs=dropout, units=10)

    predictions = {
        "classes": tf.argmax(input=logits, axis=1),
        "probabilities": tf.nn.softmax(logits, name="softmax_tensor")
    }
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode=mode, predictions=predictions)

    onehot_labels = tf.one_hot(indices=tf.cast(labels, tf.int32), depth=10)
    loss = tf.losses.softmax_cross_entropy(onehot_labels=onehot_labels, logits=logits)

    if mode == tf.estimator.ModeKeys.TRAIN:
        # Horovod: scale learning rate by the number of workers.
        optimizer = tf.train.MomentumOptimizer(learning_rate=0.01 * hvd.size(), momentum=0.9)
        # Horovod: add Horovod Distributed Optimizer.
        optimizer = hvd.DistributedOptimizer(optimizer)
        train_op = optimizer.minimize(loss=loss, global_step=tf.train.get_global_step())
        return tf.estimator.EstimatorSpec(mode=mode, loss=loss, train_op=train_op)

    eval_metric_ops = {"accuracy": tf.metrics.accuracy(labels=labels, predictions=predictions["classes"])}
    return tf.estimator.EstimatorSpec(mode=mode, loss=loss, eval_metric_ops=eval_metric_ops)


def main(unused_argv):
    # Horovod: initialize Horovod.
    hvd.init()

    mnist = synthetic_mnist.read_data_sets('MNIST-data-%d' % hvd.rank(), image_size=FLAGS.image_size)
    train_data, train_labels = mnist.train.images, mnist.train.labels.astype(np.int32)
    eval_data, eval_labels = mnist.test.images, mnist.test.labels.astype(np.int32)

    # Horovod: pin GPU to be used to process local rank (one GPU per process)
    config = tf.ConfigProto()
    config.gpu_options.allow_growth = True
    config.gpu_options.visible_device_list = str(hvd.local_rank())

    # Horovod: save checkpoints only on worker 0 to prevent other workers from corrupting them.
    model_dir = FLAGS.model_dir if hvd.rank() == 0 else None

    mnist_classifier = tf.estimator.Estimator(
        model_fn=cnn_model_fn, model_dir=model_dir,
        config=tf.estimator.RunConfig(session_config=config))

    tensors_to_log = {"probabilities": "softmax_tensor"}
    logging_hook = tf.train.LoggingTensorHook(tensors=tensors_to_log, every_n_iter=500)

    # Horovod: BroadcastGlobalVariablesHook broadcasts initial variable states from rank 0 to all other
    # processes. This is necessary to ensure consistent initialization of all workers when training is
    # started with random weights or restored from a checkpoint.
    bcast_hook = hvd.BroadcastGlobalVariablesHook(0)

    train_input_fn = tf.estimator.inputs.numpy_input_fn(
        x={"x": train_data}, y=train_labels, batch_size=FLAGS.batch_size, num_epochs=None, shuffle=True)

    # Horovod: adjust number of steps based on number of GPUs.
    mnist_classifier.train(input_fn=train_input_fn, steps=FLAGS.steps // hvd.size(),
                           hooks=[logging_hook, bcast_hook])

    eval_input_fn = tf.estimator.inputs.numpy_input_fn(
        x={"x": eval_data}, y=eval_labels, num_epochs=1, shuffle=False)
    eval_results = mnist_classifier.evaluate(input_fn=eval_input_fn)
    print(eval_results)

    names = [n for n in mnist_classifier.get_variable_names() if n != "global_step"]
    checksum = sum(float(np.sum(mnist_classifier.get_variable_value(n), dtype=np.float64)) for n in names)
    print('rank %d of %d: accuracy %.4f step %d checksum %.12e model_dir %s' % (
        hvd.rank(), hvd.size(), eval_results['accuracy'], eval_results['global_step'], checksum,
        mnist_classifier.model_dir))


if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    parser.add_argument('--steps', type=int, default=200, help='Total steps over all workers.')
    parser.add_argument('--batch_size', type=int, default=32)
    parser.add_argument('--image_size', type=int, default=12)
    parser.add_argument('--model_dir', default='./mnist_convnet_model')
    FLAGS, unparsed = parser.parse_known_args()
    tf.app.run(main=main, argv=[sys.argv[0]] + unparsed)
