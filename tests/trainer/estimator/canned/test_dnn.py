"""DNNClassifier, DNNRegressor and DNNEstimator: separable clusters learned to accuracy 1.0, a network of identity
activations reaching the least-squares fit, TF 1.15's variable names (batch norm's included), dropout only while
training, and Horovod's Estimator pattern on one rank."""
import numpy as np
import pytest

import trainer as tf
import trainer.horovod as hvd

from .synthetic import X_COLUMN, clusters, config, least_squares, linear, once, repeated


def test_classifier_separates_three_clusters(tmp_path):
    x, labels = clusters()
    est = tf.estimator.DNNClassifier([8, 8], [X_COLUMN], model_dir=str(tmp_path), n_classes=3, config=config())
    est.train(repeated(x, labels, batch_size=40), steps=300)
    assert est.evaluate(once(x, labels))["accuracy"] == 1.0
    assert [p["class_ids"][0] for p in est.predict(once(x))] == labels.tolist()
    assert sorted(n for n in est.get_variable_names() if not n.endswith("Adagrad")) == [
        "dnn/hiddenlayer_0/bias", "dnn/hiddenlayer_0/kernel", "dnn/hiddenlayer_1/bias", "dnn/hiddenlayer_1/kernel",
        "dnn/logits/bias", "dnn/logits/kernel", "global_step"]
    assert est.get_variable_value("dnn/logits/kernel").shape == (8, 3)


def test_regressor_of_identity_layers_reaches_least_squares(tmp_path):
    x, y = linear(noise=0.1)
    est = tf.estimator.DNNRegressor([3], [X_COLUMN], model_dir=str(tmp_path), activation_fn=tf.identity,
                                    optimizer=lambda: tf.train.AdamOptimizer(0.02), config=config())
    est.train(repeated(x, y), steps=800)
    w, b = least_squares(x, y)
    predictions = np.array([p["predictions"][0] for p in est.predict(once(x))])
    np.testing.assert_allclose(predictions, x @ w + b, atol=2e-3)
    assert set(est.evaluate(once(x, y))) == {"loss", "average_loss", "prediction/mean", "label/mean", "global_step"}


def test_batch_norm_variables_and_dropout_only_while_training(tmp_path):
    x, labels = clusters(rows=60, classes=2)
    est = tf.estimator.DNNClassifier([4], [X_COLUMN], model_dir=str(tmp_path), dropout=0.5, batch_norm=True,
                                     config=config())
    est.train(repeated(x, labels), steps=5)
    names = set(est.get_variable_names())
    assert {"dnn/hiddenlayer_0/batchnorm_0/gamma", "dnn/hiddenlayer_0/batchnorm_0/beta",
            "dnn/hiddenlayer_0/batchnorm_0/moving_mean", "dnn/hiddenlayer_0/batchnorm_0/moving_variance"} <= names
    assert np.any(est.get_variable_value("dnn/hiddenlayer_0/batchnorm_0/moving_mean") != 0)  # the update ops ran
    first, second = (np.array([p["logits"] for p in est.predict(once(x))]) for _ in range(2))
    np.testing.assert_array_equal(first, second)  # no dropout in prediction


@pytest.fixture
def horovod():
    hvd.init()
    yield
    hvd.shutdown()


def test_estimator_takes_a_head_and_horovods_optimizer(tmp_path, horovod):
    x, y = linear(rows=40)
    est = tf.estimator.DNNEstimator(tf.estimator.regression_head(), [4], [X_COLUMN],
                                    model_dir=str(tmp_path) if hvd.rank() == 0 else None,
                                    optimizer=hvd.DistributedOptimizer(tf.train.AdagradOptimizer(0.1)),
                                    config=config())
    est.train(repeated(x, y), steps=20, hooks=[hvd.BroadcastGlobalVariablesHook(0)])
    assert est.get_variable_value("global_step") == 20
    with pytest.raises(ValueError, match="features should be a dictionary of `Tensor`s"):
        est.train(tf.estimator.inputs.numpy_input_fn(x, y, shuffle=False), steps=1)


def test_default_optimizer_is_adagrad_at_tf1s_rate(tmp_path):
    """Zero features give zero hidden activations, so one step moves only the logits' bias, by Adagrad (initial
    accumulator 0.1) at TF1's 0.05 on the summed loss's gradient -2 * sum(y)."""
    y = np.array([1.0, 2.0, 0.5, 1.5], np.float32)
    est = tf.estimator.DNNRegressor([3], [X_COLUMN], model_dir=str(tmp_path), config=config())
    est.train(repeated(np.zeros((4, 2), np.float32), y), steps=1)
    g = -2 * y.sum()
    np.testing.assert_allclose(est.get_variable_value("dnn/logits/bias"), [-0.05 * g / np.sqrt(0.1 + g * g)],
                               rtol=1e-5)


def test_ringflows_distributed_optimizer_is_taken_and_anything_else_refused(tmp_path):
    # tg.DistributedOptimizer wraps an optimizer without subclassing tf.train.Optimizer: TF1's isinstance rule would
    # refuse the one optimizer a data-parallel ringflow program passes
    x, y = linear(rows=40)
    est = tf.estimator.DNNRegressor([4], [X_COLUMN], model_dir=str(tmp_path), config=config(),
                                    optimizer=tf.DistributedOptimizer(tf.train.AdagradOptimizer(0.1)))
    est.train(repeated(x, y), steps=3)
    assert est.get_variable_value("global_step") == 3
    with pytest.raises(ValueError, match="not an Optimizer instance"):
        tf.estimator.DNNRegressor([4], [X_COLUMN], model_dir=str(tmp_path / "other"), config=config(),
                                  optimizer=object()).train(repeated(x, y), steps=1)
