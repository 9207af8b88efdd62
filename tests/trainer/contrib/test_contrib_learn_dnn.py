"""tf.contrib.learn's canned DNN and linear classifiers and regressors and ValidationMonitor, and
contrib.layers.real_valued_column, against TF 1.15's documented contract (TF 2.15, the recorder, has no
tf.contrib): fit(x=, y=) on a bare array read as the feature '', contrib's variable names, predict giving classes
(scores) unless outputs are asked for, contrib's metric names, and early stopping from the monitor."""
import numpy as np
import pytest

import trainer as tg

learn = tg.contrib.learn
X = np.array([[-2.0, 0.0], [-1.0, 0.5], [1.0, -0.5], [2.0, 0.0]] * 4, np.float32)
LABELS = (X[:, 0] > 0).astype(np.int64)  # the sign of the first value


@pytest.fixture(autouse=True)
def fresh_graph():
    tg.reset_default_graph()


def columns():
    return [tg.contrib.layers.real_valued_column("", dimension=2)]


SEEDED = learn.RunConfig(tf_random_seed=1)  # the same initial weights every run: a test that trains one outcome


def test_classifier_fits_a_bare_array_and_predicts_classes(tmp_path):
    classifier = learn.DNNClassifier([4], columns(), model_dir=str(tmp_path), optimizer=tg.train.AdamOptimizer(0.1),
                                     config=SEEDED)
    classifier.fit(x=X, y=LABELS, steps=40)
    names = classifier.get_variable_names()
    assert {"dnn/hiddenlayer_0/weights", "dnn/hiddenlayer_0/biases", "dnn/logits/weights",
            "dnn/logits/biases"} <= set(names)
    assert classifier.get_variable_value("dnn/logits/weights").shape == (4, 1)  # two classes: one logit
    results = classifier.evaluate(x=X, y=LABELS)
    assert results["accuracy"] == 1.0 and results["global_step"] == 40
    assert {"auc", "labels/actual_label_mean", "accuracy/baseline_label_mean",
            "precision/positive_threshold_0.500000_mean"} <= set(results)
    assert results["labels/actual_label_mean"] == pytest.approx(0.5)
    assert [int(c) for c in classifier.predict(X[:4])] == [0, 0, 1, 1]
    np.testing.assert_array_equal(classifier.predict_classes(X[:4], as_iterable=False), [0, 0, 1, 1])
    probabilities = classifier.predict_proba(X[:4], as_iterable=False)
    assert probabilities.shape == (4, 2) and np.allclose(probabilities.sum(1), 1.0)
    rows = list(classifier.predict(X[:2], outputs=["logistic", "classes"]))
    assert sorted(rows[0]) == ["classes", "logistic"]


def test_regressor_predicts_scores(tmp_path):
    regressor = learn.DNNRegressor([8], columns(), model_dir=str(tmp_path), activation_fn="tanh",
                                   optimizer=tg.train.AdamOptimizer(0.05), config=SEEDED)
    y = X[:, 0] * 0.5
    before = regressor.fit(x=X, y=y, steps=1).evaluate(x=X, y=y)["loss"]
    after = regressor.fit(x=X, y=y, steps=60).evaluate(x=X, y=y)["loss"]
    assert after < before / 4 and "accuracy" not in regressor.evaluate(x=X, y=y)
    scores = regressor.predict(X, as_iterable=False)
    assert scores.shape == (len(X),)
    np.testing.assert_allclose(scores, list(regressor.predict_scores(X)), rtol=1e-6)


def test_validation_monitor_stops_when_the_metric_stops_improving(tmp_path):
    # the evaluated global step only grows, so at its minimum first: training stops 3 steps after that evaluation
    monitor = learn.monitors.ValidationMonitor(X, LABELS, every_n_steps=1, early_stopping_rounds=3,
                                               early_stopping_metric="global_step",
                                               check_interval_secs=None)
    classifier = learn.DNNClassifier([4], columns(), model_dir=str(tmp_path),
                                     config=learn.RunConfig(save_checkpoints_steps=1))
    classifier.fit(x=X, y=LABELS, steps=50, monitors=[monitor])
    assert monitor.early_stopped and monitor.best_step <= 2  # the first step a checkpoint exists after
    assert classifier.evaluate(x=X, y=LABELS)["global_step"] == monitor.best_step + 3
    assert set(monitor.best_metrics) >= {"loss", "accuracy", "global_step"}
    with pytest.raises(ValueError, match="Missing call to set_estimator"):
        with tg.Graph().as_default():
            tg.train.get_or_create_global_step()
            learn.monitors.ValidationMonitor(X, LABELS).begin()


def test_real_valued_column_is_numeric_column_and_refusals(tmp_path):
    column = tg.contrib.layers.real_valued_column("age", dimension=3, default_value=0.0)
    assert column == tg.feature_column.numeric_column("age", shape=(3,), default_value=(0.0, 0.0, 0.0))
    with pytest.raises(NotImplementedError, match="dimension=None"):
        tg.contrib.layers.real_valued_column("age", dimension=None)
    assert learn.infer_real_valued_columns_from_input(np.zeros((5, 2, 3), np.float32)) == [
        tg.contrib.layers.real_valued_column("", dimension=6)]
    with pytest.raises(NotImplementedError, match="enable_centered_bias"):
        learn.DNNClassifier([4], columns(), enable_centered_bias=True)
    with pytest.raises(ValueError, match="Activation name"):
        learn.DNNRegressor([4], columns(), activation_fn="swish")


def test_linear_models_keep_core_variables_and_contrib_predictions(tmp_path):
    classifier = learn.LinearClassifier(columns(), model_dir=str(tmp_path / "c"), n_classes=3,
                                        optimizer=tg.train.GradientDescentOptimizer(1.0), gradient_clip_norm=5.0)
    three = LABELS + (X[:, 1] > 0.25)  # 0, 0+1, 1, 1: every class present
    classifier.fit(x=X, y=three, steps=30)
    # the feature '' makes an empty column name, as in TF1
    assert {"linear/linear_model//weights", "linear/linear_model/bias_weights"} <= set(classifier.get_variable_names())
    assert set(classifier.evaluate(x=X, y=three)) == {"loss", "accuracy", "global_step"}
    assert classifier.predict_proba(X[:2], as_iterable=False).shape == (2, 3)
    regressor = learn.LinearRegressor(columns(), model_dir=str(tmp_path / "r"))  # FTRL at min(0.2, 1/sqrt(1))
    y = 2 * X[:, 0] - X[:, 1]
    regressor.fit(x=X, y=y, steps=200)
    np.testing.assert_allclose(regressor.predict(X[:4], as_iterable=False), y[:4], atol=0.1)


def test_contribs_sparse_columns_are_tf_feature_columns_and_feed_a_dnn(tmp_path):
    layers, fc = tg.contrib.layers, tg.feature_column
    color = layers.sparse_column_with_keys("color", ["red", "blue"])
    assert color == fc.categorical_column_with_vocabulary_list("color", ["red", "blue"])
    assert layers.sparse_column_with_hash_bucket("word", 10) == fc.categorical_column_with_hash_bucket("word", 10)
    assert layers.one_hot_column(color) == fc.indicator_column(color)
    assert layers.weighted_sparse_column(color, "w") == fc.weighted_categorical_column(color, "w")
    with pytest.raises(NotImplementedError, match="combiner='sqrtn'"):
        layers.sparse_column_with_keys("color", ["red"], combiner="sqrtn")
    features = {"color": np.array([["red"], ["blue"]] * 4), "x": X[:8, :1]}
    classifier = learn.DNNClassifier([3], [layers.embedding_column(color, 2), layers.real_valued_column("x")],
                                     model_dir=str(tmp_path))
    classifier.fit(input_fn=lambda: ({k: tg.constant(v) for k, v in features.items()}, tg.constant(LABELS[:8])),
                   steps=2)
    assert any("embedding_weights" in name for name in classifier.get_variable_names())
