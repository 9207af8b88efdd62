"""Bidirectional and TimeDistributed: shapes, names and values against the wrapped layers run by hand;
CuDNNLSTM/CuDNNGRU against LSTM/GRU with the biases folded."""
import numpy as np
import pytest

from trainer import keras

RNG = np.random.RandomState(5)
X = RNG.uniform(-1, 1, (2, 5, 4)).astype(np.float32)


def _model(layer, shape=(5, 4)):
    x = keras.Input(shape)
    return keras.Model(x, layer(x))


def _directions(weights, return_sequences=True):
    forward = _model(keras.layers.GRU(3, return_sequences=return_sequences, return_state=True))
    backward = _model(keras.layers.GRU(3, return_sequences=return_sequences, return_state=True, go_backwards=True))
    forward.set_weights(weights[:3])
    backward.set_weights(weights[3:])
    (y, h), (y_rev, h_rev) = forward.predict(X), backward.predict(X)
    return y, (y_rev[:, ::-1] if return_sequences else y_rev), h, h_rev


@pytest.mark.parametrize("merge_mode, merge", [
    ("concat", lambda a, b: np.concatenate([a, b], -1)), ("sum", np.add), ("mul", np.multiply),
    ("ave", lambda a, b: (a + b) / 2), (None, lambda a, b: [a, b])])
def test_bidirectional_merges_forward_and_reversed_backward(merge_mode, merge):
    layer = keras.layers.Bidirectional(keras.layers.GRU(3, return_sequences=True), merge_mode=merge_mode)
    model = _model(layer)
    assert [w.name for w in layer.weights][::3] == ["bidirectional/forward_gru/kernel:0",
                                                    "bidirectional/backward_gru/kernel:0"]
    y, y_rev, _, _ = _directions(model.get_weights())
    got = model.predict(X)
    for a, b in zip(got if merge_mode is None else [got], merge(y, y_rev) if merge_mode is None else [merge(y, y_rev)]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert layer.output_shape == ([(None, 5, 3)] * 2 if merge_mode is None else
                                  (None, 5, 6 if merge_mode == "concat" else 3))


def test_bidirectional_return_state_gives_both_directions_states():
    layer = keras.layers.Bidirectional(keras.layers.GRU(3, return_state=True))
    model = _model(layer)
    out, h, h_rev = model.predict(X)
    y, y_rev, h_want, h_rev_want = _directions(model.get_weights(), return_sequences=False)
    np.testing.assert_allclose(out, np.concatenate([y, y_rev], -1), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(h, h_want, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(h_rev, h_rev_want, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="Invalid merge mode"):
        keras.layers.Bidirectional(keras.layers.GRU(3), merge_mode="max")


def test_time_distributed_applies_the_layer_at_every_step():
    layer = keras.layers.TimeDistributed(keras.layers.Dense(2))
    model = _model(layer, (None, 4))
    kernel, bias = model.get_weights()
    assert [w.name for w in model.weights] == ["time_distributed/kernel:0", "time_distributed/bias:0"]
    np.testing.assert_allclose(model.predict(X), X @ kernel + bias, rtol=1e-5)
    assert layer.output_shape == (None, None, 2)


@pytest.mark.parametrize("cudnn, plain", [
    (lambda: keras.layers.CuDNNLSTM(3, return_sequences=True),
     lambda: keras.layers.LSTM(3, return_sequences=True, recurrent_activation="sigmoid")),
    (lambda: keras.layers.CuDNNGRU(3, return_sequences=True),
     lambda: keras.layers.GRU(3, return_sequences=True, recurrent_activation="sigmoid", reset_after=True)),
], ids=["CuDNNLSTM", "CuDNNGRU"])
def test_cudnn_layers_are_their_plain_layers_with_two_biases(cudnn, plain):
    a, b = _model(cudnn()), _model(plain())
    kernel, recurrent, bias = a.get_weights()
    gates = kernel.shape[1]
    assert bias.shape == (2 * gates,)
    bias = RNG.uniform(-1, 1, bias.shape).astype(np.float32)
    a.set_weights([kernel, recurrent, bias])
    folded = bias[:gates] + bias[gates:] if gates == 12 else bias.reshape(2, gates)
    b.set_weights([kernel, recurrent, folded])
    np.testing.assert_allclose(a.predict(X), b.predict(X), rtol=1e-5, atol=1e-6)


def test_cudnn_lstm_starts_its_recurrent_forget_bias_at_one():
    layer = keras.layers.CuDNNLSTM(2)
    _model(layer)
    assert layer.name == "cu_dnnlstm"
    np.testing.assert_array_equal(layer.get_weights()[2], np.r_[np.zeros(10), np.ones(2), np.zeros(4)])
