"""Horovod with tf.estimator. The model_fn builds a tf.layers CNN (conv2d, max_pooling2d, dense, dropout active
only in TRAIN) with a named softmax tensor, and returns the spec for PREDICT, for TRAIN (MomentumOptimizer at a
rate scaled by hvd.size(), wrapped in hvd.DistributedOptimizer) or for EVAL (tf.metrics.accuracy). The
Estimator gets a RunConfig whose session_config pins the rank's GPU and a model_dir on rank 0 only; training
runs a share of the steps per rank with a LoggingTensorHook on the softmax's name and
hvd.BroadcastGlobalVariablesHook(0); each rank then evaluates on its own held-out digits."""
import numpy as np
import tensorflow as tf
import horovod.tensorflow as hvd

import corpus_data

TOTAL_STEPS, BATCH = 240, 32


def digit_model(features, labels, mode):
    training = mode == tf.estimator.ModeKeys.TRAIN
    maps = tf.reshape(features["pixels"], [-1, 28, 28, 1])
    for filters in (8, 16):
        maps = tf.layers.conv2d(maps, filters=filters, kernel_size=[5, 5], padding="same", activation=tf.nn.relu)
        maps = tf.layers.max_pooling2d(maps, pool_size=[2, 2], strides=2)
    hidden = tf.layers.dense(tf.reshape(maps, [-1, 7 * 7 * 16]), units=64, activation=tf.nn.relu)
    logits = tf.layers.dense(tf.layers.dropout(hidden, rate=0.4, training=training), units=10)
    classes = tf.argmax(logits, axis=1)
    scores = tf.nn.softmax(logits, name="class_scores")  # the logging hook asks for it by this name
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode=mode, predictions={"class": classes, "scores": scores})
    loss = tf.losses.softmax_cross_entropy(tf.one_hot(tf.cast(labels, tf.int32), depth=10), logits)
    if training:
        optimizer = hvd.DistributedOptimizer(tf.train.MomentumOptimizer(0.001 * hvd.size(), momentum=0.9))
        step = optimizer.minimize(loss, global_step=tf.train.get_global_step())
        return tf.estimator.EstimatorSpec(mode=mode, loss=loss, train_op=step)
    return tf.estimator.EstimatorSpec(mode=mode, loss=loss, eval_metric_ops={
        "accuracy": tf.metrics.accuracy(labels=labels, predictions=classes)})


def main(_):
    hvd.init()
    digits = corpus_data.mnist(one_hot=False, seed=hvd.rank())  # each rank its own shard of data
    session_config = tf.ConfigProto()
    session_config.gpu_options.allow_growth = True
    session_config.gpu_options.visible_device_list = str(hvd.local_rank())
    estimator = tf.estimator.Estimator(model_fn=digit_model,
                                       model_dir="./digits_model" if hvd.rank() == 0 else None,
                                       config=tf.estimator.RunConfig(session_config=session_config))
    feed = tf.estimator.inputs.numpy_input_fn
    estimator.train(feed({"pixels": digits.train.images}, digits.train.labels.astype(np.int32), batch_size=BATCH,
                         num_epochs=None, shuffle=True),
                    steps=TOTAL_STEPS // hvd.size(),
                    hooks=[tf.train.LoggingTensorHook({"scores": "class_scores"}, every_n_iter=500),
                           hvd.BroadcastGlobalVariablesHook(0)])
    result = estimator.evaluate(feed({"pixels": digits.test.images}, digits.test.labels.astype(np.int32),
                                     num_epochs=1, shuffle=False))
    print("rank %d evaluated: accuracy %.4f at global step %d" % (hvd.rank(), result["accuracy"],
                                                                   result["global_step"]))


if __name__ == "__main__":
    tf.logging.set_verbosity(tf.logging.INFO)
    tf.app.run()
