"""The heads behind the canned estimators, through LinearRegressor / LinearClassifier: TF 1.15's loss reduction
(SUM by default, checked against numpy on the first step and on an untrained model), weights, evaluate's metric
keys, predict's keys and classes, label vocabularies, and the argument errors."""
import numpy as np
import pytest

import trainer as tf

from .synthetic import X_COLUMN, clusters, config, linear, once, repeated

SGD_RATE = 0.001
BINARY_METRICS = {"loss", "average_loss", "accuracy", "precision", "recall", "auc", "auc_precision_recall",
                  "prediction/mean", "label/mean", "accuracy_baseline", "global_step"}
CLASSIFIER_PREDICTIONS = {"logits", "probabilities", "class_ids", "classes", "all_class_ids", "all_classes"}


def sgd():
    return tf.train.GradientDescentOptimizer(SGD_RATE)


@pytest.mark.parametrize("reduction, scale", [(None, 1.0), (tf.losses.Reduction.SUM, 1.0),
                                              (tf.losses.Reduction.SUM_OVER_BATCH_SIZE, 1 / 100)])
def test_one_step_of_the_regressor_follows_the_reduced_loss(tmp_path, reduction, scale):
    x, y = linear()
    kwargs = {} if reduction is None else {"loss_reduction": reduction}
    est = tf.estimator.LinearRegressor([X_COLUMN], model_dir=str(tmp_path), optimizer=sgd, config=config(), **kwargs)
    untrained = est.evaluate(once(x, y, batch_size=100))
    assert untrained["loss"] == pytest.approx(scale * np.sum(y ** 2), rel=1e-5)  # TF1's default: the batch's sum
    assert untrained["average_loss"] == pytest.approx(np.mean(y ** 2), rel=1e-5)
    est.train(repeated(x, y), steps=1)
    # from zero weights the gradient of scale * sum((xw + b - y)^2) is -2 * scale * [x^T y, sum(y)]
    np.testing.assert_allclose(est.get_variable_value("linear/linear_model/x/weights").ravel(),
                               SGD_RATE * 2 * scale * x.T @ y, rtol=1e-4)
    np.testing.assert_allclose(est.get_variable_value("linear/linear_model/bias_weights"),
                               [SGD_RATE * 2 * scale * y.sum()], rtol=1e-4)


def test_weights_scale_each_example_loss(tmp_path):
    x, y = linear(rows=40)
    w = np.linspace(0.5, 2.0, 40).astype(np.float32)
    est = tf.estimator.LinearRegressor([X_COLUMN], model_dir=str(tmp_path), weight_column="w", config=config())
    result = est.evaluate(once({"x": x, "w": w}, y, batch_size=40))
    assert result["loss"] == pytest.approx(np.sum(w * y ** 2), rel=1e-5)
    assert result["average_loss"] == pytest.approx(np.sum(w * y ** 2) / np.sum(w), rel=1e-5)
    assert result["label/mean"] == pytest.approx(np.sum(w * y) / np.sum(w), rel=1e-5)
    assert set(result) == {"loss", "average_loss", "prediction/mean", "label/mean", "global_step"}
    with pytest.raises(KeyError, match="weight_column 'w' is not in the features"):
        est.evaluate(once(x, y))


def test_untrained_binary_classifier_loss_is_log_two_per_example(tmp_path):
    x, labels = clusters(rows=50, classes=2)
    est = tf.estimator.LinearClassifier([X_COLUMN], model_dir=str(tmp_path), config=config())
    result = est.evaluate(once(x, labels, batch_size=50))
    assert set(result) == BINARY_METRICS
    assert result["loss"] == pytest.approx(50 * np.log(2), rel=1e-5)
    assert result["average_loss"] == pytest.approx(np.log(2), rel=1e-5)
    assert result["label/mean"] == pytest.approx(labels.mean(), rel=1e-5)
    assert result["accuracy_baseline"] == pytest.approx(max(labels.mean(), 1 - labels.mean()), rel=1e-5)
    assert result["prediction/mean"] == pytest.approx(0.5)


def test_binary_metrics_and_predictions_after_training(tmp_path):
    x, labels = clusters(rows=80, classes=2)
    est = tf.estimator.LinearClassifier([X_COLUMN], model_dir=str(tmp_path), config=config())
    est.train(repeated(x, labels), steps=100)
    result = est.evaluate(once(x, labels))
    for key in ("accuracy", "precision", "recall", "auc", "auc_precision_recall"):
        assert result[key] == pytest.approx(1.0, abs=1e-5), key
    predictions = list(est.predict(once(x)))
    assert set(predictions[0]) == CLASSIFIER_PREDICTIONS | {"logistic"}
    logits = np.array([p["logits"] for p in predictions])
    np.testing.assert_allclose([p["logistic"] for p in predictions], 1 / (1 + np.exp(-logits)), rtol=1e-5)
    np.testing.assert_allclose([p["probabilities"][1] for p in predictions], 1 / (1 + np.exp(-logits[:, 0])),
                               rtol=1e-5)
    assert [p["class_ids"][0] for p in predictions] == labels.tolist()
    assert [p["classes"][0] for p in predictions] == [str(c).encode() for c in labels]
    assert predictions[0]["all_class_ids"].tolist() == [0, 1]
    assert predictions[0]["all_classes"].tolist() == [b"0", b"1"]


def test_multi_class_metrics_predictions_and_label_vocabulary(tmp_path):
    x, labels = clusters(rows=90)
    names = np.array(["red", "green", "blue"])
    est = tf.estimator.LinearClassifier([X_COLUMN], model_dir=str(tmp_path), n_classes=3,
                                        label_vocabulary=list(names), config=config())
    est.train(repeated(x, names[labels]), steps=100)
    result = est.evaluate(once(x, names[labels]))
    assert set(result) == {"loss", "average_loss", "accuracy", "global_step"}
    assert result["accuracy"] == 1.0
    predictions = list(est.predict(once(x)))
    assert set(predictions[0]) == CLASSIFIER_PREDICTIONS
    assert [p["classes"][0] for p in predictions] == [n.encode() for n in names[labels]]
    assert [p["class_ids"][0] for p in predictions] == labels.tolist()
    assert predictions[0]["all_classes"].tolist() == [b"red", b"green", b"blue"]
    np.testing.assert_allclose([p["probabilities"].sum() for p in predictions], 1.0, rtol=1e-5)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Labels must be in label_vocabulary"):
        est.evaluate(once(x, np.where(labels == 2, "purple", names[labels])))


def test_labels_out_of_range_fail_the_run(tmp_path):
    x, labels = clusters(rows=30)
    est = tf.estimator.LinearClassifier([X_COLUMN], model_dir=str(tmp_path), n_classes=3, config=config())
    with pytest.raises(tf.errors.InvalidArgumentError, match="Labels must <= n_classes - 1"):
        est.evaluate(once(x, labels + 1))


def test_arguments_tf1_refuses(tmp_path):
    with pytest.raises(ValueError, match="n_classes must be > 1"):
        tf.estimator.LinearClassifier([X_COLUMN], n_classes=1)
    with pytest.raises(ValueError, match="Invalid loss_reduction"):
        tf.estimator.LinearRegressor([X_COLUMN], loss_reduction=tf.losses.Reduction.NONE)
    with pytest.raises(ValueError, match="label_vocabulary has 2 classes, n_classes is 3"):
        tf.estimator.LinearClassifier([X_COLUMN], n_classes=3, label_vocabulary=["a", "b"])
    with pytest.raises(ValueError, match="Invalid label_dimension 0"):
        tf.estimator.DNNRegressor([4], [X_COLUMN], label_dimension=0)
    with pytest.raises(NotImplementedError, match="warm_start_from"):
        tf.estimator.DNNClassifier([4], [X_COLUMN], warm_start_from=str(tmp_path))
    x, y = linear(rows=10)
    bad = tf.estimator.LinearRegressor([X_COLUMN], model_dir=str(tmp_path), optimizer="Nesterov", config=config())
    with pytest.raises(ValueError, match=r"Unsupported optimizer name: Nesterov. Supported names are: \('Adagrad'"):
        bad.train(repeated(x, y), steps=1)


def test_heads_drive_the_generic_estimators(tmp_path):
    x, y = linear(rows=60)
    head = tf.estimator.regression_head(label_dimension=1)
    est = tf.estimator.LinearEstimator(head, [X_COLUMN], model_dir=str(tmp_path), config=config())
    est.train(repeated(x, y), steps=200)
    predictions = np.array([p["predictions"][0] for p in est.predict(once(x))])
    np.testing.assert_allclose(predictions, y, atol=1e-2)
    assert tf.estimator.multi_class_head(4).logits_dimension == 4
    assert tf.estimator.binary_classification_head().logits_dimension == 1
    with pytest.raises(ValueError, match="n_classes must be > 2"):
        tf.estimator.multi_class_head(2)
