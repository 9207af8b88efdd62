"""DNNLinearCombinedClassifier, Regressor and Estimator ("wide & deep"): both parts' variables under dnn/ and
linear/ with TF 1.15's names, each trained by its own optimizer, one global step per train step, separable data to
accuracy 1.0, a linear-only model reaching least squares, and TF1's argument errors."""
import numpy as np
import pytest

import trainer as tf

from .synthetic import X_COLUMN, clusters, config, least_squares, linear, once, repeated

fc = tf.feature_column


def test_classifier_trains_both_parts(tmp_path):
    x, labels = clusters(rows=90)
    features = {"x": x, "cluster_hint": labels}  # the wide part sees the answer, the deep part the points
    est = tf.estimator.DNNLinearCombinedClassifier(
        model_dir=str(tmp_path), linear_feature_columns=[fc.categorical_column_with_identity("cluster_hint", 3)],
        linear_optimizer=tf.train.FtrlOptimizer(0.3), dnn_feature_columns=[X_COLUMN], dnn_hidden_units=[6],
        dnn_optimizer=lambda: tf.train.AdagradOptimizer(0.1), n_classes=3, config=config())
    est.train(repeated(features, labels), steps=100)
    result = est.evaluate(once(features, labels))
    assert result["accuracy"] == 1.0 and result["global_step"] == 100  # both optimizers, one step each
    names = set(est.get_variable_names())
    assert {"dnn/hiddenlayer_0/kernel", "dnn/logits/kernel", "linear/linear_model/cluster_hint/weights",
            "linear/linear_model/bias_weights"} <= names
    assert any(n.endswith("/Adagrad") for n in names) and any(n.endswith("/Ftrl") for n in names)
    assert np.any(est.get_variable_value("linear/linear_model/cluster_hint/weights") != 0)


def test_linear_only_regressor_reaches_least_squares(tmp_path):
    x, y = linear(noise=0.1)
    est = tf.estimator.DNNLinearCombinedRegressor(model_dir=str(tmp_path), linear_feature_columns=[X_COLUMN],
                                                  linear_optimizer=lambda: tf.train.FtrlOptimizer(0.5),
                                                  config=config())
    est.train(repeated(x, y), steps=400)
    w, b = least_squares(x, y)
    np.testing.assert_allclose(est.get_variable_value("linear/linear_model/x/weights").ravel(), w, atol=1e-3)
    assert not any(n.startswith("dnn/") for n in est.get_variable_names())


def test_estimator_with_a_head_and_argument_errors(tmp_path):
    x, y = linear(rows=30)
    est = tf.estimator.DNNLinearCombinedEstimator(tf.estimator.regression_head(), model_dir=str(tmp_path),
                                                  dnn_feature_columns=[X_COLUMN], dnn_hidden_units=[3],
                                                  config=config())
    est.train(repeated(x, y), steps=3)
    assert est.get_variable_value("global_step") == 3
    with pytest.raises(ValueError, match="Either linear_feature_columns or dnn_feature_columns must be defined"):
        tf.estimator.DNNLinearCombinedClassifier()
    with pytest.raises(ValueError, match="dnn_hidden_units must be defined when dnn_feature_columns is specified"):
        tf.estimator.DNNLinearCombinedRegressor(dnn_feature_columns=[X_COLUMN])
