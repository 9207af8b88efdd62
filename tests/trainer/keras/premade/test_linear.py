"""tf.keras.experimental.LinearModel: one zero-initialized kernel per input and a bias, fitted to least squares."""
import numpy as np
import pytest

from trainer import keras

RNG = np.random.RandomState(0)


def test_linear_model_of_two_inputs_fits_least_squares():
    a, b = RNG.uniform(-1, 1, (64, 2)).astype(np.float32), RNG.uniform(-1, 1, (64, 3)).astype(np.float32)
    y = a @ np.array([[1.0], [-2.0]], np.float32) + b @ np.array([[0.5], [0.0], [3.0]], np.float32) + 0.25
    model = keras.experimental.LinearModel()
    model.compile(keras.optimizers.SGD(0.3), "mse")
    np.testing.assert_array_equal(model.predict([a, b]), 0)  # TF's zero initialization
    model.fit([a, b], y, batch_size=64, epochs=600, verbose=0)
    kernel_a, kernel_b, bias = model.get_weights()
    assert kernel_a.shape == (2, 1) and kernel_b.shape == (3, 1) and bias.shape == (1,)
    solution = np.linalg.lstsq(np.hstack([a, b, np.ones((64, 1), np.float32)]), y, rcond=None)[0]
    np.testing.assert_allclose(np.concatenate([kernel_a, kernel_b, bias[:, None]]), solution, atol=1e-3)


def test_linear_model_with_an_activation_and_one_input():
    x = RNG.uniform(-1, 1, (8, 3)).astype(np.float32)
    model = keras.experimental.LinearModel(units=2, activation="sigmoid", use_bias=False,
                                           kernel_initializer="ones")
    np.testing.assert_allclose(model.predict(x), 1 / (1 + np.exp(-x.sum(1, keepdims=True).repeat(2, 1))), rtol=1e-5)
    assert len(model.weights) == 1
    with pytest.raises(ValueError, match="Expected 1 inputs, but got 2"):
        model([keras.backend.constant(x), keras.backend.constant(x)])
