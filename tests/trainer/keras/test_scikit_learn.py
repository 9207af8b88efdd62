"""tf.keras.wrappers.scikit_learn: KerasClassifier and KerasRegressor fit, predict and score as Keras' wrappers do,
their parameters routed to build_fn, fit and predict by name."""
import numpy as np
import pytest

import trainer as tg
from trainer import keras
from trainer.keras.wrappers.scikit_learn import KerasClassifier, KerasRegressor

RNG = np.random.RandomState(0)
X = RNG.uniform(-1, 1, (120, 2)).astype(np.float32)


def classifier(hidden=8):
    model = keras.Sequential([keras.layers.Dense(hidden, activation="relu", input_shape=(2,)),
                              keras.layers.Dense(3, activation="softmax")])
    model.compile(keras.optimizers.Adam(0.05), "categorical_crossentropy", metrics=["accuracy"])
    return model


def test_classifier_takes_any_labels_and_gives_them_back():
    tg.set_random_seed(0)
    np.random.seed(0)
    labels = np.array(["low", "mid", "top"])[(X[:, 0] > -0.3).astype(int) + (X[:, 0] > 0.3)]
    clf = KerasClassifier(classifier, hidden=16, epochs=60, batch_size=32, verbose=0)
    clf.fit(X, labels)
    assert list(clf.classes_) == ["low", "mid", "top"] and clf.n_classes_ == 3
    predicted = clf.predict(X)
    assert set(predicted) <= {"low", "mid", "top"} and (predicted == labels).mean() > 0.8
    proba = clf.predict_proba(X[:5])
    assert proba.shape == (5, 3) and np.allclose(proba.sum(1), 1, atol=1e-5)
    assert clf.score(X, labels) == pytest.approx((predicted == labels).mean(), abs=1e-6)
    assert clf.get_params()["hidden"] == 16 and clf.set_params(epochs=1).get_params()["epochs"] == 1
    with pytest.raises(ValueError, match="not a legal parameter"):
        KerasClassifier(classifier, hiddne=3)


def test_one_sigmoid_unit_gives_two_probability_columns():
    def binary():
        model = keras.Sequential([keras.layers.Dense(1, activation="sigmoid", input_shape=(2,))])
        model.compile("sgd", "binary_crossentropy")
        return model
    clf = KerasClassifier(binary, epochs=1, verbose=0)
    clf.fit(X, (X[:, 1] > 0).astype(int))
    proba = clf.predict_proba(X[:4])
    assert proba.shape == (4, 2) and np.allclose(proba.sum(1), 1)
    with pytest.raises(ValueError, match="accuracy"):
        clf.score(X, (X[:, 1] > 0).astype(int))


def test_regressor_scores_minus_the_loss():
    def regressor():
        model = keras.Sequential([keras.layers.Dense(1, input_shape=(2,))])
        model.compile(keras.optimizers.SGD(0.1), "mse")
        return model
    y = X @ np.array([2.0, -1.0], np.float32)
    reg = KerasRegressor(regressor, epochs=30, batch_size=16, verbose=0)
    reg.fit(X, y)
    assert reg.predict(X).shape == (120,)
    assert -0.01 < reg.score(X, y) <= 0
