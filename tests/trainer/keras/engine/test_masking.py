"""Keras masks: Masking and Embedding(mask_zero=True) make them, RNN layers hold their state over masked steps,
GlobalAveragePooling1D averages the unmasked steps, and losses and metrics weigh masked steps 0."""
import numpy as np
import pytest

from trainer import keras

RNG = np.random.RandomState(3)
LENGTHS = [5, 3, 1]
X = RNG.uniform(-1, 1, (3, 5, 4)).astype(np.float32)
for row, n in enumerate(LENGTHS):
    X[row, n:] = 0.0


@pytest.mark.parametrize("kind", ["SimpleRNN", "LSTM", "GRU"])
def test_padded_batch_equals_unpadded_rows(kind):
    x = keras.Input((None, 4))
    rnn = getattr(keras.layers, kind)(6, return_sequences=True, return_state=True)
    model = keras.Model(x, rnn(keras.layers.Masking()(x)))
    sequences, *states = model.predict(X)
    for row, n in enumerate(LENGTHS):
        alone = model.predict(X[row:row + 1, :n])
        for got, want in zip(states, alone[1:]):
            np.testing.assert_allclose(got[row], want[0], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(sequences[row, :n], alone[0][0], rtol=1e-5, atol=1e-6)
        # masked steps repeat the last valid output
        np.testing.assert_array_equal(sequences[row, n:], np.repeat(sequences[row, n - 1:n], 5 - n, 0))


def test_embedding_mask_zero_reaches_the_rnn_and_the_pooling():
    ids = np.array([[3, 1, 2, 0, 0], [4, 0, 0, 0, 0]])
    x = keras.Input((None,), dtype="int32")
    embedded = keras.layers.Embedding(5, 3, mask_zero=True)(x)
    pooled = keras.Model(x, keras.layers.GlobalAveragePooling1D()(embedded))
    table = pooled.get_weights()[0]
    np.testing.assert_allclose(pooled.predict(ids), [table[[3, 1, 2]].mean(0), table[4]], rtol=1e-6)
    last = keras.Model(x, keras.layers.LSTM(2)(embedded))
    short = last.predict(ids[:1, :3])
    np.testing.assert_allclose(last.predict(ids)[0], short[0], rtol=1e-5, atol=1e-6)


def test_masked_steps_weigh_nothing_in_loss_and_metrics():
    x = keras.Input((5, 4))
    out = keras.layers.Dense(1)(keras.layers.Masking()(x))
    model = keras.Model(x, out)
    model.compile("sgd", "mse", metrics=["mae"])
    y = RNG.uniform(-1, 1, (3, 5, 1)).astype(np.float32)
    pred = model.predict(X)
    valid = np.any(X != 0, -1)
    err = (pred - y)[..., 0]
    loss, mae = model.evaluate(X, y, verbose=0)
    np.testing.assert_allclose(loss, (err ** 2 * valid).sum() / valid.size, rtol=1e-5)  # TF 1.15's reduction
    np.testing.assert_allclose(mae, np.abs(err)[valid].mean(), rtol=1e-5)
    y2 = y.copy()
    y2[~valid] = 100.0  # targets under the mask do not matter
    np.testing.assert_allclose(model.evaluate(X, y2, verbose=0), [loss, mae], rtol=1e-5)


def test_bidirectional_over_a_padded_batch_equals_unpadded_rows():
    x = keras.Input((None, 4))
    masked = keras.layers.Masking()(x)
    both = keras.layers.Bidirectional(keras.layers.LSTM(3, return_sequences=True), merge_mode=None)(masked)
    model = keras.Model(x, both)
    forward, backward = model.predict(X)
    for row, n in enumerate(LENGTHS):
        alone_forward, alone_backward = model.predict(X[row:row + 1, :n])
        np.testing.assert_allclose(forward[row, :n], alone_forward[0], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(backward[row, :n], alone_backward[0], rtol=1e-5, atol=1e-6)


def test_time_distributed_passes_the_mask_on():
    x = keras.Input((None, 4))
    dense = keras.layers.TimeDistributed(keras.layers.Dense(2))(keras.layers.Masking()(x))
    model = keras.Model(x, keras.layers.SimpleRNN(2)(dense))
    for row, n in enumerate(LENGTHS):
        np.testing.assert_allclose(model.predict(X)[row], model.predict(X[row:row + 1, :n])[0], rtol=1e-5,
                                   atol=1e-6)


def test_a_model_called_as_a_layer_passes_its_mask_on():
    ids = np.array([[3, 1, 2, 0, 0], [4, 2, 0, 0, 0]])
    inner_in = keras.Input((None,), dtype="int32")
    inner = keras.Model(inner_in, keras.layers.Embedding(5, 3, mask_zero=True)(inner_in))
    x = keras.Input((None,), dtype="int32")
    model = keras.Model(x, keras.layers.GRU(2)(inner(x)))
    for row, n in enumerate([3, 2]):
        np.testing.assert_allclose(model.predict(ids)[row], model.predict(ids[row:row + 1, :n])[0], rtol=1e-5,
                                   atol=1e-6)
