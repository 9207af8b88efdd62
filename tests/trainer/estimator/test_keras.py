"""tf.keras.estimator.model_to_estimator: a compiled Keras model trained, evaluated and used for prediction as a
tf.estimator.Estimator, starting from the model's weights, with the numbers the Keras model gives."""
import numpy as np
import pytest

import trainer as tg
from trainer import keras

X = np.random.RandomState(0).uniform(-1, 1, (64, 3)).astype("float32")
W = np.array([[1.0], [-2.0], [0.5]], dtype="float32")
Y = X @ W + 0.3


@pytest.fixture(autouse=True)
def fresh_keras():
    keras.backend.clear_session()
    yield
    keras.backend.clear_session()


def linear(lr=0.1):
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(3,), name="out")])
    model.compile(keras.optimizers.SGD(lr=lr), "mse", metrics=["mae"])
    return model


def input_fn(batch_size=64, epochs=None, shuffle=False, labels=True):
    return tg.estimator.inputs.numpy_input_fn({"out_input": X}, Y if labels else None, batch_size=batch_size,
                                              num_epochs=epochs, shuffle=shuffle)


def test_the_estimator_starts_from_the_models_weights_and_learns(tmp_path):
    model = linear()
    start = model.predict(X)
    before = model.evaluate(X, Y, verbose=0)
    est = keras.estimator.model_to_estimator(keras_model=model, model_dir=str(tmp_path))
    predicted = [p["out"] for p in est.predict(input_fn(epochs=1, labels=False))]
    np.testing.assert_allclose(np.concatenate(predicted).ravel(), start.ravel(), rtol=1e-5)
    first = est.evaluate(input_fn(epochs=1))  # the metrics under the names fit logs them
    assert first["loss"] == pytest.approx(before[0], rel=1e-5)
    assert first["mean_absolute_error"] == pytest.approx(before[1], rel=1e-5)
    est.train(input_fn(), steps=200)
    after = est.evaluate(input_fn(epochs=1))
    assert after["global_step"] == 200 and after["loss"] < 1e-3 < first["loss"]


def test_stateful_keras_metrics_evaluate_as_the_keras_model(tmp_path):
    model = keras.Sequential([keras.layers.Dense(1, activation="sigmoid", input_shape=(3,), name="out")])
    model.compile(keras.optimizers.SGD(lr=0.1), "binary_crossentropy",
                  metrics=[keras.metrics.AUC(num_thresholds=20), keras.metrics.Precision(), "acc"])
    labels = (Y > 0).astype("float32")
    before = dict(zip(model.metrics_names, model.evaluate(X, labels, batch_size=16, verbose=0)))
    est = keras.estimator.model_to_estimator(keras_model=model, model_dir=str(tmp_path))
    got = est.evaluate(tg.estimator.inputs.numpy_input_fn({"out_input": X}, labels, batch_size=16, num_epochs=1,
                                                          shuffle=False))
    for name in ("auc", "precision", "acc"):
        assert got[name] == pytest.approx(before[name], rel=1e-5), name


def test_one_step_is_the_keras_optimizers_step(tmp_path):
    model = linear(lr=0.05)
    est = keras.estimator.model_to_estimator(keras_model=model, model_dir=str(tmp_path))
    est.train(input_fn(), steps=1)
    model.train_on_batch(X, Y)  # the same batch, the same SGD step
    kernel = est.get_variable_value("out/kernel")
    np.testing.assert_allclose(kernel, model.get_weights()[0], rtol=1e-5)


def test_uncompiled_or_ambiguous_arguments_are_refused():
    with pytest.raises(ValueError, match="not been compiled"):
        keras.estimator.model_to_estimator(keras.Sequential([keras.layers.Dense(1, input_shape=(2,))]))
    with pytest.raises(ValueError, match="Either `keras_model` or `keras_model_path`"):
        keras.estimator.model_to_estimator()
