"""BaselineRegressor, BaselineClassifier and BaselineEstimator against their closed forms: the label mean, the
class frequencies (binary and multi-class, weighted), whatever the features."""
import numpy as np
import pytest

import trainer as tf

from .synthetic import config, once, repeated

LABELS = np.array([0] * 5 + [1] * 3 + [2] * 12, np.int32)
NOISE = {"x": np.random.default_rng(0).normal(size=(len(LABELS), 3)).astype(np.float32)}  # the baseline ignores it


def test_regressor_predicts_the_label_mean(tmp_path):
    y = np.random.default_rng(1).normal(2.0, 3.0, size=(len(LABELS), 2)).astype(np.float32)
    est = tf.estimator.BaselineRegressor(model_dir=str(tmp_path), label_dimension=2, config=config())
    est.train(repeated(NOISE, y), steps=300)
    for prediction in est.predict(once(NOISE)):
        np.testing.assert_allclose(prediction["predictions"], y.mean(axis=0), atol=1e-4)
    assert est.get_variable_names() == ["baseline/bias", "baseline/bias/Ftrl", "baseline/bias/Ftrl_1", "global_step"]


def test_classifier_predicts_the_class_frequencies(tmp_path):
    est = tf.estimator.BaselineClassifier(model_dir=str(tmp_path), n_classes=3, config=config())
    est.train(repeated(NOISE, LABELS), steps=300)
    for prediction in est.predict(once(NOISE)):
        np.testing.assert_allclose(prediction["probabilities"], np.bincount(LABELS) / len(LABELS), atol=1e-4)
        assert prediction["class_ids"][0] == 2


@pytest.mark.parametrize("weighted", [False, True])
def test_binary_classifier_predicts_the_positive_frequency(tmp_path, weighted):
    labels = (LABELS == 1).astype(np.int32)
    weights = np.where(labels == 1, 2.0, 1.0).astype(np.float32) if weighted else np.ones(len(labels), np.float32)
    est = tf.estimator.BaselineClassifier(model_dir=str(tmp_path), weight_column="w" if weighted else None,
                                          config=config())
    features = dict(NOISE, w=weights)
    est.train(repeated(features, labels), steps=300)
    positive = np.sum(weights * labels) / np.sum(weights)
    for prediction in est.predict(once(features)):
        np.testing.assert_allclose(prediction["logistic"], [positive], atol=1e-4)
    result = est.evaluate(once(features, labels))
    assert result["prediction/mean"] == pytest.approx(positive, abs=1e-4)
    assert result["label/mean"] == pytest.approx(positive, rel=1e-5)


def test_estimator_with_a_head(tmp_path):
    y = LABELS.astype(np.float32)
    est = tf.estimator.BaselineEstimator(tf.estimator.regression_head(), model_dir=str(tmp_path), config=config())
    est.train(repeated(NOISE, y), steps=300)
    assert next(est.predict(once(NOISE)))["predictions"][0] == pytest.approx(y.mean(), abs=1e-3)
