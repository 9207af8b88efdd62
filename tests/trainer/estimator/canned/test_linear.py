"""LinearRegressor and LinearClassifier: FTRL's default reaching the least-squares solution, categorical (identity,
vocabulary list) and bucketized columns separating classes to accuracy 1.0, TF 1.15's variable names, TF1's default
learning rate."""
import numpy as np
import pytest

import trainer as tf

from .synthetic import COEF, X_COLUMN, config, least_squares, linear, once, repeated

fc = tf.feature_column


def test_regressor_reaches_the_least_squares_solution(tmp_path):
    x, y = linear(noise=0.1)
    est = tf.estimator.LinearRegressor([X_COLUMN], model_dir=str(tmp_path), config=config())
    est.train(repeated(x, y), steps=400)
    w, b = least_squares(x, y)
    np.testing.assert_allclose(est.get_variable_value("linear/linear_model/x/weights").ravel(), w, atol=1e-3)
    np.testing.assert_allclose(est.get_variable_value("linear/linear_model/bias_weights"), [b], atol=1e-3)
    assert sorted(n for n in est.get_variable_names() if "Ftrl" not in n) == [
        "global_step", "linear/linear_model/bias_weights", "linear/linear_model/x/weights"]


def test_two_dimensional_labels(tmp_path):
    x, y = linear()
    labels = np.stack([y, -2 * y], axis=1)
    est = tf.estimator.LinearRegressor([X_COLUMN], model_dir=str(tmp_path), label_dimension=2, config=config())
    est.train(repeated(x, labels), steps=1000)
    np.testing.assert_allclose(est.get_variable_value("linear/linear_model/x/weights"),
                               np.stack([COEF, -2 * COEF], axis=1), atol=1e-3)
    predictions = np.array([p["predictions"] for p in est.predict(once(x))])
    np.testing.assert_allclose(predictions, labels, atol=1e-2)


def test_classifier_on_categorical_and_bucketized_columns(tmp_path):
    rng = np.random.default_rng(0)
    colour = rng.integers(4, size=120)
    size = rng.uniform(-2, 2, size=120).astype(np.float32)
    labels = ((colour >= 2) ^ (size > 0)).astype(np.int32)  # xor: each column alone is useless, together one id each
    features = {"colour": colour, "size": size, "pair": 2 * colour + (size > 0)}
    columns = [fc.categorical_column_with_identity("pair", 8)]
    est = tf.estimator.LinearClassifier(columns, model_dir=str(tmp_path), config=config())
    est.train(repeated(features, labels), steps=100)
    assert est.evaluate(once(features, labels))["accuracy"] == 1.0
    wide = [fc.categorical_column_with_identity("colour", 4), fc.bucketized_column(fc.numeric_column("size"), [0.0])]
    est = tf.estimator.LinearClassifier(wide, model_dir=str(tmp_path / "wide"), sparse_combiner="mean",
                                        config=config())
    est.train(repeated(features, (colour >= 2).astype(np.int32)), steps=50)
    assert est.evaluate(once(features, (colour >= 2).astype(np.int32)))["accuracy"] == 1.0
    assert est.get_variable_value("linear/linear_model/colour/weights").shape == (4, 1)
    assert est.get_variable_value("linear/linear_model/size_bucketized/weights").shape == (2, 1)


@pytest.mark.parametrize("columns, rate", [(1, 0.2), (16, 0.2), (64, 0.125)])
def test_default_ftrl_rate_is_tf1s(tmp_path, columns, rate):
    """TF1's min(0.2, 1/sqrt(n)): one FTRL step from zero moves the bias by the rate's share of the gradient."""
    features = {f"f{i:03d}": np.zeros(4, np.float32) for i in range(columns)}
    labels = np.ones(4, np.float32)
    cols = [fc.numeric_column(k) for k in features]
    est = tf.estimator.LinearRegressor(cols, model_dir=str(tmp_path), config=config())
    est.train(repeated(features, labels), steps=1)
    # FTRL (power -0.5, accumulator 0.1) from zero: w = -g * rate / sqrt(0.1 + g^2), g = -2 * 4
    g = -8.0
    expected = rate * -g / np.sqrt(0.1 + g * g)
    np.testing.assert_allclose(est.get_variable_value("linear/linear_model/bias_weights"), [expected], rtol=1e-4)


def test_classifier_on_a_vocabulary_list_of_strings(tmp_path):
    words = np.array(["cat", "dog", "fish", "cow"])[np.random.default_rng(2).integers(4, size=60)]
    labels = np.isin(words, ["dog", "cow"]).astype(np.int32)
    column = fc.categorical_column_with_vocabulary_list("animal", ["cat", "dog", "fish", "cow"])
    est = tf.estimator.LinearClassifier([column], model_dir=str(tmp_path), config=config())
    est.train(repeated({"animal": words}, labels), steps=50)
    assert est.evaluate(once({"animal": words}, labels))["accuracy"] == 1.0
    weights = est.get_variable_value("linear/linear_model/animal/weights").ravel()
    assert weights[1] > 0 and weights[3] > 0 and weights[0] < 0 and weights[2] < 0
