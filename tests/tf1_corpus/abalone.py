"""A regression Estimator from a model_fn with params: float64 features through tf.layers.dense relu layers to
one output reshaped to a vector; EstimatorSpec for PREDICT (a dict of ages) and for TRAIN/EVAL with
tf.losses.mean_squared_error, gradient descent on the global step and tf.metrics.root_mean_squared_error;
tf.estimator.inputs.numpy_input_fn feeds training (endless, shuffled), evaluation and prediction (one pass
each). The checkpoint directory is a flag parsed with argparse; tf.app.run runs main."""
import argparse
import sys

import numpy as np
import tensorflow as tf

import corpus_data

ARGS = None


def measured(count, seed):
    """float64 measurements and whole-year ages, as CSV loaders hand them over."""
    features, ages = corpus_data.abalone(count, seed=seed)
    return features.astype(np.float64), np.round(ages).astype(np.int64)


def age_model(features, labels, mode, params):
    hidden = features["shell"]
    for _ in range(2):
        hidden = tf.layers.dense(hidden, 10, activation=tf.nn.relu)
    ages = tf.reshape(tf.layers.dense(hidden, 1), [-1])
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode=mode, predictions={"age": ages})
    loss = tf.losses.mean_squared_error(labels, ages)
    step = tf.train.GradientDescentOptimizer(params["rate"]).minimize(loss, global_step=tf.train.get_global_step())
    rmse = tf.metrics.root_mean_squared_error(tf.cast(labels, tf.float64), ages)
    return tf.estimator.EstimatorSpec(mode=mode, loss=loss, train_op=step, eval_metric_ops={"rmse": rmse})


def main(_):
    estimator = tf.estimator.Estimator(model_fn=age_model, params={"rate": 0.001}, model_dir=ARGS.model_dir)
    train_x, train_y = measured(800, 0)
    estimator.train(tf.estimator.inputs.numpy_input_fn({"shell": train_x}, train_y, num_epochs=None,
                                                       shuffle=True), steps=500)
    test_x, test_y = measured(200, 1)
    result = estimator.evaluate(tf.estimator.inputs.numpy_input_fn({"shell": test_x}, test_y, num_epochs=1,
                                                                   shuffle=False))
    print("evaluation: mse %s, rmse %s" % (result["loss"], result["rmse"]))
    new_x, _ = measured(7, 2)
    for number, guess in enumerate(estimator.predict(
            tf.estimator.inputs.numpy_input_fn({"shell": new_x}, num_epochs=1, shuffle=False))):
        print("shell %d is about %s years" % (number, guess["age"]))


if __name__ == "__main__":
    tf.logging.set_verbosity(tf.logging.INFO)
    parser = argparse.ArgumentParser(description="abalone ages by a custom Estimator")
    parser.add_argument("--model_dir", default=None, help="where checkpoints go (default: a temporary folder)")
    ARGS, rest = parser.parse_known_args()
    tf.app.run(main=main, argv=[sys.argv[0]] + rest)
