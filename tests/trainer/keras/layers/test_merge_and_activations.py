"""Merge layers, advanced activations and Embedding against numpy."""
import numpy as np
import pytest

from trainer import keras

from .oracle import run_layer

RNG = np.random.RandomState(4)
A, B = (RNG.uniform(-1, 1, (3, 4)).astype(np.float32) for _ in range(2))


@pytest.mark.parametrize("layer, expected", [
    (keras.layers.Add, lambda a, b: a + b), (keras.layers.Subtract, lambda a, b: a - b),
    (keras.layers.Multiply, lambda a, b: a * b), (keras.layers.Average, lambda a, b: (a + b) / 2),
    (keras.layers.Maximum, np.maximum), (keras.layers.Minimum, np.minimum),
    (keras.layers.Concatenate, lambda a, b: np.concatenate([a, b], -1)),
    (lambda: keras.layers.Dot(axes=1), lambda a, b: (a * b).sum(1, keepdims=True)),
])
def test_merge_layers(layer, expected):
    out, (da, db), _, r = run_layer(layer(), A, B)
    np.testing.assert_allclose(out, expected(A, B), rtol=1e-6)
    assert da.shape == A.shape and db.shape == B.shape


def test_merge_needs_a_list():
    with pytest.raises(ValueError, match="list of at least 2 inputs"):
        run_layer(keras.layers.Add(), A)


@pytest.mark.parametrize("layer, expected", [
    (lambda: keras.layers.LeakyReLU(), lambda x: np.where(x > 0, x, 0.3 * x)),
    (lambda: keras.layers.ReLU(max_value=0.5), lambda x: np.clip(x, 0, 0.5)),
    (lambda: keras.layers.ELU(alpha=0.5), lambda x: np.where(x > 0, x, 0.5 * (np.exp(x) - 1))),
    (lambda: keras.layers.Softmax(), lambda x: np.exp(x) / np.exp(x).sum(-1, keepdims=True)),
    (lambda: keras.layers.ThresholdedReLU(0.2), lambda x: np.where(x > 0.2, x, 0)),
    (lambda: keras.layers.PReLU(alpha_initializer=keras.initializers.Constant(0.25)),
     lambda x: np.where(x > 0, x, 0.25 * x)),
], ids=["LeakyReLU", "ReLU", "ELU", "Softmax", "ThresholdedReLU", "PReLU"])
def test_advanced_activations(layer, expected):
    np.testing.assert_allclose(run_layer(layer(), A)[0], expected(A), rtol=1e-6, atol=1e-7)


def test_prelu_learns_one_slope_per_unit_and_its_gradient():
    layer = keras.layers.PReLU()
    _, _, (dalpha,), r = run_layer(layer, A)
    assert layer.get_weights()[0].shape == (4,)
    np.testing.assert_allclose(dalpha, (r * np.minimum(A, 0)).sum(0), rtol=1e-5)


def test_embedding_looks_rows_up_and_scatters_their_gradients():
    ids = np.array([[0, 2, 2], [1, 0, 3]])
    layer = keras.layers.Embedding(5, 2)
    out, _, (dtable,), r = run_layer(layer, ids)
    table = layer.get_weights()[0]
    assert table.shape == (5, 2) and np.abs(table).max() <= 0.05  # Keras' 'uniform': +-0.05
    np.testing.assert_array_equal(out, table[ids])
    expected = np.zeros((5, 2), np.float32)
    np.add.at(expected, ids, r)
    np.testing.assert_allclose(dtable, expected, rtol=1e-6)
