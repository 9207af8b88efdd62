"""SimpleRNN, LSTM and GRU against numpy replays of Keras' equations and against PyTorch's nn.LSTM/nn.GRU with
the weights mapped; masks, unknown time axes, go_backwards, unroll and stacked cells."""
import numpy as np
import pytest

import trainer as tg
from trainer import keras
from trainer.keras import backend as K

from .oracle import run_layer

RNG = np.random.RandomState(7)
X = RNG.uniform(-1, 1, (3, 5, 4)).astype(np.float32)
UNITS = 6


def hard_sigmoid(x):
    return np.clip(0.2 * x + 0.5, 0, 1)


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def replay(kind, x, weights, gate, reset_after=False):
    """Keras' step equations in numpy: every step's output."""
    kernel, recurrent, bias = weights
    u = recurrent.shape[0]
    h, c, outs = np.zeros((x.shape[0], u)), np.zeros((x.shape[0], u)), []
    for t in range(x.shape[1]):
        xt = x[:, t] @ kernel + (bias[0] if reset_after else bias)
        if kind == "SimpleRNN":
            h = np.tanh(xt + h @ recurrent)
        elif kind == "LSTM":
            z = xt + h @ recurrent
            i, f, o = gate(z[:, :u]), gate(z[:, u:2 * u]), gate(z[:, 3 * u:])
            c = f * c + i * np.tanh(z[:, 2 * u:3 * u])
            h = o * np.tanh(c)
        else:
            rh = h @ recurrent + (bias[1] if reset_after else 0)
            z, r = gate(xt[:, :u] + rh[:, :u]), gate(xt[:, u:2 * u] + rh[:, u:2 * u])
            cand = np.tanh(xt[:, 2 * u:] + (r * rh[:, 2 * u:] if reset_after else (r * h) @ recurrent[:, 2 * u:]))
            h = z * h + (1 - z) * cand
        outs.append(h)
    return np.stack(outs, 1)


@pytest.mark.parametrize("kind, kwargs, gate", [
    ("SimpleRNN", {}, None), ("LSTM", {}, hard_sigmoid), ("GRU", {}, hard_sigmoid),
    ("LSTM", {"implementation": 2, "recurrent_activation": "sigmoid"}, sigmoid),
    ("GRU", {"reset_after": True}, hard_sigmoid),
])
def test_outputs_replay_keras_equations(kind, kwargs, gate):
    layer = getattr(keras.layers, kind)(UNITS, return_sequences=True, bias_initializer="uniform", **kwargs)
    out, _, _, _ = run_layer(layer, X)
    expected = replay(kind, X, layer.get_weights(), gate, kwargs.get("reset_after", False))
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)


def test_weight_layouts_names_and_initial_values():
    lstm, gru, gru2, simple = (keras.layers.LSTM(UNITS), keras.layers.GRU(UNITS),
                               keras.layers.GRU(UNITS, reset_after=True), keras.layers.SimpleRNN(UNITS))
    x = keras.Input((5, 4))
    for layer in (lstm, gru, gru2, simple):
        layer(x)
    assert [w.name for w in lstm.weights] == ["lstm/kernel:0", "lstm/recurrent_kernel:0", "lstm/bias:0"]
    kernel, recurrent, bias = lstm.get_weights()
    assert kernel.shape == (4, 4 * UNITS) and recurrent.shape == (UNITS, 4 * UNITS)
    np.testing.assert_array_equal(bias, np.r_[np.zeros(UNITS), np.ones(UNITS), np.zeros(2 * UNITS)])
    for block in np.split(recurrent, 4, axis=1):  # orthogonal per Keras' initializer on the whole matrix
        assert np.abs(block).max() <= 1.0 + 1e-6
    np.testing.assert_allclose(recurrent @ recurrent.T, np.eye(UNITS), atol=1e-5)
    assert [w.shape for w in gru.get_weights()] == [(4, 3 * UNITS), (UNITS, 3 * UNITS), (3 * UNITS,)]
    assert gru2.get_weights()[2].shape == (2, 3 * UNITS)
    assert [w.shape for w in simple.get_weights()] == [(4, UNITS), (UNITS, UNITS), (UNITS,)]
    assert lstm.get_config()["recurrent_activation"] == "hard_sigmoid" and gru.get_config()["reset_after"] is False


def _torch_grads(torch, module, x, r, params):
    xt = torch.tensor(x, requires_grad=True)
    out, _ = module(xt)
    (out * torch.tensor(r)).sum().backward()
    return out.detach().numpy(), xt.grad.numpy(), [p.grad.numpy() for p in params]


@pytest.mark.parametrize("unroll", [False, True], ids=["fused", "steps"])
def test_lstm_matches_torch_outputs_and_gradients(unroll):
    torch = pytest.importorskip("torch")
    layer = keras.layers.LSTM(UNITS, return_sequences=True, recurrent_activation="sigmoid",
                              bias_initializer="uniform", unroll=unroll)
    out, (dx,), (dk, drk, db), r = run_layer(layer, X)
    kernel, recurrent, bias = layer.get_weights()
    net = torch.nn.LSTM(4, UNITS, batch_first=True)
    with torch.no_grad():  # torch's gate order i, f, g, o is Keras' i, f, c, o; its two biases add up
        net.weight_ih_l0.copy_(torch.tensor(kernel.T))
        net.weight_hh_l0.copy_(torch.tensor(recurrent.T))
        net.bias_ih_l0.copy_(torch.tensor(bias))
        net.bias_hh_l0.zero_()
    params = [net.weight_ih_l0, net.weight_hh_l0, net.bias_ih_l0]
    t_out, t_dx, (t_dk, t_drk, t_db) = _torch_grads(torch, net, X, r, params)
    np.testing.assert_allclose(out, t_out, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(dx, t_dx, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(dk, t_dk.T, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(drk, t_drk.T, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(db, t_db, rtol=1e-4, atol=1e-5)


def test_gru_reset_after_matches_torch_outputs_and_gradients():
    torch = pytest.importorskip("torch")
    layer = keras.layers.GRU(UNITS, return_sequences=True, recurrent_activation="sigmoid", reset_after=True,
                             bias_initializer="uniform")
    out, (dx,), (dk, drk, db), r = run_layer(layer, X)
    kernel, recurrent, bias = layer.get_weights()
    order = np.r_[UNITS:2 * UNITS, 0:UNITS, 2 * UNITS:3 * UNITS]  # Keras z, r, h -> torch r, z, n
    net = torch.nn.GRU(4, UNITS, batch_first=True)
    with torch.no_grad():
        net.weight_ih_l0.copy_(torch.tensor(kernel[:, order].T))
        net.weight_hh_l0.copy_(torch.tensor(recurrent[:, order].T))
        net.bias_ih_l0.copy_(torch.tensor(bias[0, order]))
        net.bias_hh_l0.copy_(torch.tensor(bias[1, order]))
    params = [net.weight_ih_l0, net.weight_hh_l0, net.bias_ih_l0, net.bias_hh_l0]
    t_out, t_dx, (t_dk, t_drk, t_dbi, t_dbh) = _torch_grads(torch, net, X, r, params)
    back = np.argsort(order)
    np.testing.assert_allclose(out, t_out, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(dx, t_dx, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(dk, t_dk.T[:, back], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(drk, t_drk.T[:, back], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(db, np.stack([t_dbi[back], t_dbh[back]]), rtol=1e-4, atol=1e-5)


def _model(layer, shape=(None, 4)):
    x = keras.Input(shape)
    return keras.Model(x, layer(x))


@pytest.mark.parametrize("kind, kwargs", [("SimpleRNN", {}), ("LSTM", {}), ("GRU", {}),
                                          ("LSTM", {"recurrent_activation": "sigmoid"})])
def test_unknown_time_unroll_and_go_backwards_agree(kind, kwargs):
    def make(*args, **more):
        return getattr(keras.layers, kind)(*args, **kwargs, **more)
    looped = _model(make(UNITS, return_sequences=True, return_state=True))
    weights = looped.get_weights()
    unrolled = _model(make(UNITS, return_sequences=True, return_state=True, unroll=True), (5, 4))
    unrolled.set_weights(weights)
    backwards = _model(make(UNITS, return_sequences=True, go_backwards=True))
    backwards.set_weights(weights)
    a, b = looped.predict(X), unrolled.predict(X)
    for x, y in zip(a, b):
        np.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(a[1], a[0][:, -1], rtol=1e-6)  # the state h is the last output
    np.testing.assert_allclose(backwards.predict(X), looped.predict(X[:, ::-1])[0], rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="Cannot unroll a RNN if the time dimension is undefined"):
        _model(make(UNITS, unroll=True))


def test_stacked_cells_run_one_after_the_other():
    cells = [keras.layers.LSTMCell(5), keras.layers.GRUCell(UNITS)]
    stacked = _model(keras.layers.RNN(cells, return_sequences=True))
    first, second = _model(keras.layers.LSTM(5, return_sequences=True)), \
        _model(keras.layers.GRU(UNITS, return_sequences=True), (None, 5))
    weights = stacked.get_weights()
    first.set_weights(weights[:3])
    second.set_weights(weights[3:])
    np.testing.assert_allclose(stacked.predict(X), second.predict(first.predict(X)), rtol=1e-5, atol=1e-6)


def test_dropout_is_only_active_in_training():
    layer = keras.layers.LSTM(UNITS, dropout=0.5, recurrent_dropout=0.5, return_sequences=True)
    out_test, _, _, _ = run_layer(layer, X, training=False)
    plain = keras.layers.LSTM(UNITS, return_sequences=True)
    run_layer(plain, X)
    plain.set_weights(layer.get_weights())
    np.testing.assert_allclose(out_test, run_layer(plain, X)[0], rtol=1e-6)
    out_train, _, _, _ = run_layer(layer, X, training=True)
    assert np.abs(out_train - out_test).max() > 1e-3


@pytest.mark.parametrize("go_backwards", [False, True])
def test_fused_lstm_agrees_with_the_step_loop(go_backwards):
    """LSTM with sigmoid gates and no mask runs as one BlockLSTM op; unroll=True builds the steps one by one."""
    kwargs = dict(return_sequences=True, return_state=True, recurrent_activation="sigmoid", go_backwards=go_backwards,
                  bias_initializer="uniform")
    fused, stepped = keras.layers.LSTM(UNITS, **kwargs), keras.layers.LSTM(UNITS, unroll=True, **kwargs)
    a = _all_outputs(fused)
    b = _all_outputs(stepped, fused.get_weights())
    for x, y in zip(a, b):
        np.testing.assert_allclose(x, y, rtol=1e-4, atol=1e-5)


def _all_outputs(layer, weights=None):
    """The sequence, h and c for X, and the gradients of a weighted sum of all three for X and the weights."""
    x = K.placeholder(shape=X.shape)
    outputs = layer(x)
    if weights is not None:
        layer.set_weights(weights)
    loss = sum(K.sum(o * np.random.RandomState(i).uniform(-1, 1, K.int_shape(o)).astype(np.float32))
               for i, o in enumerate(outputs))
    grads = tg.gradients(loss, [x] + layer.trainable_weights)
    return K.get_session().run(list(outputs) + grads, {x: X})


class MinimalRNNCell(keras.layers.Layer):
    """Keras' documented example of a cell of one's own: output = x @ kernel + h_prev @ recurrent_kernel."""

    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = self.state_size = units

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units), initializer="uniform", name="kernel")
        self.recurrent_kernel = self.add_weight(shape=(self.units, self.units), initializer="uniform",
                                                name="recurrent_kernel")
        self.built = True

    def call(self, inputs, states):
        output = K.dot(inputs, self.kernel) + K.dot(states[0], self.recurrent_kernel)
        return output, [output]


def test_rnn_runs_a_cell_of_ones_own():
    layer = keras.layers.RNN(MinimalRNNCell(3), return_sequences=True)
    out, _, (dk, drk), _ = run_layer(layer, X)
    kernel, recurrent = layer.get_weights()
    h, expected = np.zeros((3, 3)), []
    for t in range(5):
        h = X[:, t] @ kernel + h @ recurrent
        expected.append(h)
    np.testing.assert_allclose(out, np.stack(expected, 1), rtol=1e-5, atol=1e-6)
    assert dk.shape == kernel.shape and drk.shape == recurrent.shape
    assert [w.name for w in layer.weights] == ["rnn/kernel:0", "rnn/recurrent_kernel:0"]


def test_config_round_trip_and_regularization_losses():
    x = keras.Input((None, 4))
    y = keras.layers.Bidirectional(keras.layers.LSTM(3, return_sequences=True, kernel_regularizer="l2"))(x)
    y = keras.layers.TimeDistributed(keras.layers.Dense(2))(y)
    y = keras.layers.RNN([keras.layers.GRUCell(3), keras.layers.SimpleRNNCell(2)])(y)
    model = keras.Model(x, y)
    assert len(model.losses) == 2  # the l2 penalty of each direction's kernel
    again = keras.Model.from_config(model.get_config())
    again.set_weights(model.get_weights())
    np.testing.assert_allclose(again.predict(X), model.predict(X), rtol=1e-6)
    copy = keras.layers.LSTM.from_config(keras.layers.LSTM(3, dropout=0.2, go_backwards=True).get_config())
    assert (copy.units, copy.cell.dropout, copy.go_backwards) == (3, 0.2, True)


def test_initial_state_from_an_encoder_reaches_the_decoder():
    """The seq2seq pattern: an encoder's final states start a decoder; the model replays it on new inputs."""
    encoder_in, decoder_in = keras.Input((None, 4)), keras.Input((None, 4))
    _, h, c = keras.layers.LSTM(UNITS, return_state=True)(encoder_in)
    decoder = keras.layers.LSTM(UNITS, return_sequences=True)
    model = keras.Model([encoder_in, decoder_in], decoder(decoder_in, initial_state=[h, c]))
    got = model.predict([X, X[:, ::-1]])
    _, h, c = _lstm_steps(model.get_weights()[:3], X, np.zeros((3, UNITS)), np.zeros((3, UNITS)))
    np.testing.assert_allclose(got, _lstm_steps(model.get_weights()[3:], X[:, ::-1], h, c)[0], rtol=1e-5, atol=1e-6)
    again = model([keras.Input((None, 4)), keras.Input((None, 4))])
    assert K.int_shape(again) == (None, None, UNITS)


def _lstm_steps(weights, x, h, c):
    """Keras' LSTM equations (hard_sigmoid gates) from states h, c: (outputs, last h, last c)."""
    kernel, recurrent, bias = weights
    u, outs = UNITS, []
    for t in range(x.shape[1]):
        z = x[:, t] @ kernel + bias + h @ recurrent
        c = hard_sigmoid(z[:, u:2 * u]) * c + hard_sigmoid(z[:, :u]) * np.tanh(z[:, 2 * u:3 * u])
        h = hard_sigmoid(z[:, 3 * u:]) * np.tanh(c)
        outs.append(h)
    return np.stack(outs, 1), h, c


class RunningSum(keras.layers.AbstractRNNCell):
    """h_t = h_{t-1} + x_t W: a cell of one's own on Keras' base."""

    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    @property
    def state_size(self):
        return self.units

    @property
    def output_size(self):
        return self.units

    def build(self, input_shape):
        self.kernel = self.add_weight("kernel", (input_shape[-1], self.units), initializer="ones")
        self.built = True

    def call(self, inputs, states):
        output = states[0] + keras.backend.dot(inputs, self.kernel)
        return output, [output]


def test_a_cell_on_abstract_rnn_cell_runs_in_rnn():
    x = np.random.RandomState(0).uniform(-1, 1, (2, 4, 3)).astype(np.float32)
    cell = RunningSum(2)
    out = keras.Model(*(lambda i: (i, keras.layers.RNN(cell, return_sequences=True)(i)))(keras.Input((4, 3))))
    np.testing.assert_allclose(out.predict(x), np.cumsum(x.sum(-1, keepdims=True), axis=1).repeat(2, -1), rtol=1e-5)
    zeros = keras.backend.get_session().run(cell.get_initial_state(keras.backend.constant(x[:, 0])))
    np.testing.assert_array_equal(zeros, np.zeros((2, 2)))
    with pytest.raises(NotImplementedError, match="state_size"):
        keras.layers.AbstractRNNCell().state_size


def test_peephole_lstm_cell_steps_as_gers_and_schmidhuber():
    x = np.random.RandomState(1).uniform(-1, 1, (2, 3, 4)).astype(np.float32)
    cell = keras.experimental.PeepholeLSTMCell(3, recurrent_activation="sigmoid")
    out = keras.Model(*(lambda i: (i, keras.layers.RNN(cell, return_sequences=True)(i)))(keras.Input((3, 4))))
    rng = np.random.RandomState(2)
    weights = [rng.uniform(-1, 1, w.shape).astype(np.float32) for w in out.get_weights()]
    out.set_weights(weights)
    kernel, recurrent, bias, w_i, w_f, w_o = weights
    assert [w.shape for w in weights] == [(4, 12), (3, 12), (12,), (3,), (3,), (3,)]
    assert [w.name for w in cell.weights][3:] == ["rnn/input_gate_peephole_weights:0",
                                                  "rnn/forget_gate_peephole_weights:0",
                                                  "rnn/output_gate_peephole_weights:0"]

    def sigmoid(v):
        return 1 / (1 + np.exp(-v))
    h, c, want = np.zeros((2, 3)), np.zeros((2, 3)), []
    for t in range(3):
        z = x[:, t] @ kernel + h @ recurrent + bias
        i = sigmoid(z[:, :3] + w_i * c)
        f = sigmoid(z[:, 3:6] + w_f * c)
        c = f * c + i * np.tanh(z[:, 6:9])
        h = sigmoid(z[:, 9:] + w_o * c) * np.tanh(c)
        want.append(h)
    np.testing.assert_allclose(out.predict(x), np.stack(want, 1), rtol=1e-5, atol=1e-6)
