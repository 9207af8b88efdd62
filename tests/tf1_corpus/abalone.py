# Mirrors tensorflow/tensorflow: tensorflow/examples/tutorials/estimators/abalone.py (r1 Estimators tutorial)
"""An Estimator from a model_fn with params: tf.layers.dense on float64 features, EstimatorSpec per mode,
tf.losses.mean_squared_error, tf.metrics.root_mean_squared_error, numpy_input_fn for train / evaluate / predict.

Changed from the original: synthetic abalone-like rows (corpus_data.abalone; integer ages) instead of the CSV
downloads read by tf.contrib.learn's load_csv_without_header; 500 training steps; a --model_dir flag (the
original lets the Estimator pick a temporary directory).
"""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import argparse
import collections
import sys

import numpy as np
import tensorflow as tf

import corpus_data

FLAGS = None

tf.logging.set_verbosity(tf.logging.INFO)

LEARNING_RATE = 0.001

Dataset = collections.namedtuple('Dataset', ['data', 'target'])


def load_sets():
    """Training, test and prediction sets: float64 features and integer ages, as load_csv_without_header
    returns them with target_dtype=np.int and features_dtype=np.float64."""
    sets = []
    for n, seed in ((800, 0), (200, 1), (7, 2)):
        data, target = corpus_data.abalone(n, seed=seed)
        sets.append(Dataset(data=data.astype(np.float64), target=np.round(target).astype(np.int64)))
    return sets


def model_fn(features, labels, mode, params):
    """Two relu layers of 10 and one output: ages, or a spec with the loss, its training op and RMSE."""

    first_hidden_layer = tf.layers.dense(features["x"], 10, activation=tf.nn.relu)

    second_hidden_layer = tf.layers.dense(
        first_hidden_layer, 10, activation=tf.nn.relu)

    output_layer = tf.layers.dense(second_hidden_layer, 1)

    predictions = tf.reshape(output_layer, [-1])

    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(
            mode=mode,
            predictions={"ages": predictions})

    loss = tf.losses.mean_squared_error(labels, predictions)

    eval_metric_ops = {
        "rmse": tf.metrics.root_mean_squared_error(
            tf.cast(labels, tf.float64), predictions)
    }

    optimizer = tf.train.GradientDescentOptimizer(
        learning_rate=params["learning_rate"])
    train_op = optimizer.minimize(
        loss=loss, global_step=tf.train.get_global_step())

    return tf.estimator.EstimatorSpec(
        mode=mode,
        loss=loss,
        train_op=train_op,
        eval_metric_ops=eval_metric_ops)


def main(unused_argv):
    training_set, test_set, prediction_set = load_sets()

    model_params = {"learning_rate": LEARNING_RATE}

    nn = tf.estimator.Estimator(model_fn=model_fn, params=model_params,
                                model_dir=FLAGS.model_dir)

    train_input_fn = tf.estimator.inputs.numpy_input_fn(
        x={"x": np.array(training_set.data)},
        y=np.array(training_set.target),
        num_epochs=None,
        shuffle=True)

    nn.train(input_fn=train_input_fn, steps=500)

    test_input_fn = tf.estimator.inputs.numpy_input_fn(
        x={"x": np.array(test_set.data)},
        y=np.array(test_set.target),
        num_epochs=1,
        shuffle=False)

    ev = nn.evaluate(input_fn=test_input_fn)
    print("Loss: %s" % ev["loss"])
    print("Root Mean Squared Error: %s" % ev["rmse"])

    predict_input_fn = tf.estimator.inputs.numpy_input_fn(
        x={"x": prediction_set.data},
        num_epochs=1,
        shuffle=False)
    predictions = nn.predict(input_fn=predict_input_fn)
    for i, p in enumerate(predictions):
        print("Prediction %s: %s" % (i + 1, p["ages"]))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.register("type", "bool", lambda v: v.lower() == "true")
    parser.add_argument(
        "--model_dir", type=str, default=None, help="checkpoint directory (default: a temporary one)")
    FLAGS, unparsed = parser.parse_known_args()
    tf.app.run(main=main, argv=[sys.argv[0]] + unparsed)
