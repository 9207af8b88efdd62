"""Pooling layers against numpy windows."""
import numpy as np
import pytest

from trainer import keras

from .oracle import run_layer

RNG = np.random.RandomState(2)
X = RNG.uniform(-1, 1, (2, 4, 6, 3)).astype(np.float32)


def windows(x, k, s):
    rows = (x.shape[1] - k[0]) // s[0] + 1
    cols = (x.shape[2] - k[1]) // s[1] + 1
    return np.stack([np.stack([x[:, i * s[0]:i * s[0] + k[0], j * s[1]:j * s[1] + k[1]] for j in range(cols)], 1)
                     for i in range(rows)], 1)  # (batch, rows, cols, kh, kw, channels)


@pytest.mark.parametrize("cls, reduce", [(keras.layers.MaxPooling2D, np.max), (keras.layers.AveragePooling2D, np.mean)])
def test_pooling2d(cls, reduce):
    out, (dx,), _, r = run_layer(cls((2, 3), strides=(2, 2)), X)
    np.testing.assert_allclose(out, reduce(windows(X, (2, 3), (2, 2)), axis=(3, 4)), rtol=1e-6)
    assert dx.shape == X.shape
    if reduce is np.mean:
        assert dx.sum() == pytest.approx(r.sum(), rel=1e-5)


def test_pooling1d_and_default_strides():
    seq = RNG.uniform(-1, 1, (2, 7, 3)).astype(np.float32)
    out, _, _, _ = run_layer(keras.layers.MaxPooling1D(2), seq)
    np.testing.assert_allclose(out, seq[:, :6].reshape(2, 3, 2, 3).max(2))
    out, _, _, _ = run_layer(keras.layers.AveragePooling1D(3, strides=1), seq)
    np.testing.assert_allclose(out, np.stack([seq[:, i:i + 3].mean(1) for i in range(5)], 1), rtol=1e-6)


def test_global_pooling():
    np.testing.assert_allclose(run_layer(keras.layers.GlobalAveragePooling2D(), X)[0], X.mean((1, 2)), rtol=1e-6)
    np.testing.assert_allclose(run_layer(keras.layers.GlobalMaxPooling2D(), X)[0], X.max((1, 2)))
    seq = X[:, 0]
    np.testing.assert_allclose(run_layer(keras.layers.GlobalAveragePooling1D(), seq)[0], seq.mean(1), rtol=1e-6)
    np.testing.assert_allclose(run_layer(keras.layers.GlobalMaxPooling1D(), seq)[0], seq.max(1))
