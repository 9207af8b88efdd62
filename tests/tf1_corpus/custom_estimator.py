"""A hand-written tf.estimator.Estimator on iris-like measurements. Its model_fn(features, labels, mode, params)
reads tf.feature_column.numeric_column columns through tf.feature_column.input_layer, stacks tf.layers.dense relu
layers, and returns an EstimatorSpec per mode: PREDICT with a dict of class ids (kept 2-D via tf.newaxis),
probabilities and logits; EVAL with tf.metrics.accuracy (its update op also logged by tf.summary.scalar); TRAIN
with tf.losses.sparse_softmax_cross_entropy minimised by Adagrad on the global step. Input functions return
tf.data Datasets of (feature dict, label) -- shuffled and repeated for training, a single batched pass for
evaluation, features alone for prediction. Flags come from argparse, the entry point is tf.app.run."""
import argparse

import tensorflow as tf

import corpus_data

FLOWERS = ["Setosa", "Versicolor", "Virginica"]
flags = argparse.ArgumentParser(description="a custom iris Estimator")
flags.add_argument("--batch_size", type=int, default=32, help="examples in a batch")
flags.add_argument("--train_steps", type=int, default=400, help="training steps")


def training_batches(features, labels, batch_size):
    return tf.data.Dataset.from_tensor_slices((dict(features), labels)).shuffle(1000).repeat().batch(batch_size)


def one_pass(features, batch_size, labels=None):
    items = dict(features) if labels is None else (dict(features), labels)
    return tf.data.Dataset.from_tensor_slices(items).batch(batch_size)


def flower_model(features, labels, mode, params):
    net = tf.feature_column.input_layer(features, params["columns"])
    for width in params["hidden"]:
        net = tf.layers.dense(net, width, activation=tf.nn.relu)
    logits = tf.layers.dense(net, params["classes"])
    chosen = tf.argmax(logits, 1)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={
            "class_ids": chosen[:, tf.newaxis], "probabilities": tf.nn.softmax(logits), "logits": logits})
    loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    accuracy = tf.metrics.accuracy(labels=labels, predictions=chosen, name="acc_op")
    tf.summary.scalar("accuracy", accuracy[1])
    if mode == tf.estimator.ModeKeys.EVAL:
        return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops={"accuracy": accuracy})
    step = tf.train.AdagradOptimizer(0.1).minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=step)


def main(argv):
    options = flags.parse_args(argv[1:])
    train_x, train_y = corpus_data.iris(240, seed=0)
    test_x, test_y = corpus_data.iris(60, seed=1)
    estimator = tf.estimator.Estimator(model_fn=flower_model, params={
        "columns": [tf.feature_column.numeric_column(key=name) for name in train_x],
        "hidden": [10, 10], "classes": len(FLOWERS)}, config=tf.estimator.RunConfig(tf_random_seed=7))
    estimator.train(lambda: training_batches(train_x, train_y, options.batch_size), steps=options.train_steps)
    result = estimator.evaluate(lambda: one_pass(test_x, options.batch_size, test_y))
    print("held-out accuracy: %.3f" % result["accuracy"])

    # one typical flower of each kind, measured by hand
    samples = {"SepalLength": [5.0, 6.0, 6.8], "SepalWidth": [3.4, 2.9, 3.0],
               "PetalLength": [1.5, 4.4, 5.6], "PetalWidth": [0.3, 1.4, 2.2]}
    for outcome, meant in zip(estimator.predict(lambda: one_pass(samples, options.batch_size)), FLOWERS):
        found = outcome["class_ids"][0]
        print("sample of %s classed as %s with probability %.1f%%"
              % (meant, FLOWERS[found], 100 * outcome["probabilities"][found]))


if __name__ == "__main__":
    tf.logging.set_verbosity(tf.logging.INFO)
    tf.app.run(main)
