"""tg.nn.rnn_cell, static_rnn, dynamic_rnn and bidirectional_dynamic_rnn: TF1's variable names and shapes, values
against numpy references built from the cells' own variables (and PyTorch's nn.LSTM where installed), gradients
against finite differences, and TF1's sequence_length semantics."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import numerical_gradient, torch

rnn_cell = tg.nn.rnn_cell
RNG = np.random.default_rng(7)


def sig(x):
    return 1 / (1 + np.exp(-x))


def _names(variables=None):
    return {v.op.name: tuple(v.shape.as_list()) for v in (variables or tg.global_variables())}


def _initialized(graph):
    sess = tg.Session(graph=graph)
    sess.run(tg.global_variables_initializer())
    return sess


# --- numpy references: one step of each cell, from its own variable values ---------------------------
def np_basic_rnn(v, x, h):
    out = np.tanh(np.concatenate([x, h], 1) @ v["kernel"] + v["bias"])
    return out, out


def np_lstm(v, x, state, forget_bias=1.0, peep=False, clip=None, proj=False):
    c, h = state
    i, j, f, o = np.split(np.concatenate([x, h], 1) @ v["kernel"] + v["bias"], 4, axis=1)
    f = f + forget_bias + (v["w_f_diag"] * c if peep else 0)
    i = i + (v["w_i_diag"] * c if peep else 0)
    c = sig(f) * c + sig(i) * np.tanh(j)
    c = np.clip(c, -clip, clip) if clip is not None else c
    m = sig(o + (v["w_o_diag"] * c if peep else 0)) * np.tanh(c)
    m = m @ v["projection/kernel"] if proj else m
    return m, (c, m)


def np_gru(v, x, h):
    r, u = np.split(sig(np.concatenate([x, h], 1) @ v["gates/kernel"] + v["gates/bias"]), 2, axis=1)
    cand = np.tanh(np.concatenate([x, r * h], 1) @ v["candidate/kernel"] + v["candidate/bias"])
    new = u * h + (1 - u) * cand
    return new, new


def _values(sess, scope):
    """{'kernel': array, 'gates/bias': array, ...} for the variables under `scope`/."""
    variables = [v for v in tg.global_variables() if v.op.name.startswith(scope + "/")]
    return {v.op.name[len(scope) + 1:]: value for v, value in zip(variables, sess.run(variables))}


CELLS = {  # name: (make the cell, its variable scope, numpy step, state is a (c, h) pair)
    "basic_rnn": (lambda: rnn_cell.BasicRNNCell(4), "basic_rnn_cell", np_basic_rnn, False),
    "basic_lstm": (lambda: rnn_cell.BasicLSTMCell(4, forget_bias=0.5), "basic_lstm_cell",
                   lambda v, x, s: np_lstm(v, x, s, forget_bias=0.5), True),
    "lstm_peep_proj": (lambda: rnn_cell.LSTMCell(4, use_peepholes=True, cell_clip=0.3, num_proj=3,
                                                 initializer=tg.random_normal_initializer(stddev=1.0, seed=3)),
                       "lstm_cell", lambda v, x, s: np_lstm(v, x, s, peep=True, clip=0.3, proj=True), True),
    "gru": (lambda: rnn_cell.GRUCell(4, bias_initializer=tg.random_normal_initializer(seed=5)), "gru_cell",
            np_gru, False),
}


@pytest.mark.parametrize("kind", sorted(CELLS))
def test_one_step_against_numpy(kind):
    make, scope, step, is_pair = CELLS[kind]
    x = RNG.standard_normal((3, 5))
    with tg.Graph().as_default() as graph:
        cell = make()
        inputs = tg.placeholder(tg.float64, [None, 5])
        state = cell.zero_state(3, tg.float64)  # fed below with a random start state
        start = [RNG.standard_normal(s.shape.as_list()) for s in (state if is_pair else [state])]
        feed_state = type(state)(*start) if is_pair else start[0]
        output, new_state = cell(inputs, state, scope=scope)
        assert output.shape.as_list()[-1] == cell.output_size
        sess = _initialized(graph)
        feed = {inputs: x, **({s: v for s, v in zip(state, start)} if is_pair else {state: start[0]})}
        got_out, got_state = sess.run([output, new_state], feed)
        values = _values(sess, scope)
    want_out, want_state = step(values, x, feed_state)
    np.testing.assert_allclose(got_out, want_out, rtol=1e-12, atol=1e-12)
    for got, want in zip(got_state if is_pair else [got_state], want_state if is_pair else [want_state]):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_variable_names_and_shapes_as_tf1():
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [None, 6, 3])
        tg.nn.dynamic_rnn(rnn_cell.BasicLSTMCell(5), x, dtype=tg.float32)
        tg.nn.dynamic_rnn(rnn_cell.GRUCell(2), x, dtype=tg.float32, scope="enc")
        stacked = rnn_cell.MultiRNNCell([rnn_cell.BasicRNNCell(4), rnn_cell.LSTMCell(3, use_peepholes=True,
                                                                                      num_proj=2)])
        with tg.variable_scope("deep"):
            tg.nn.static_rnn(stacked, tg.unstack(x, axis=1), dtype=tg.float32)
        tg.nn.bidirectional_dynamic_rnn(rnn_cell.BasicRNNCell(2), rnn_cell.BasicRNNCell(3), x, dtype=tg.float32)
        assert _names() == {
            "rnn/basic_lstm_cell/kernel": (8, 20), "rnn/basic_lstm_cell/bias": (20,),
            "enc/gru_cell/gates/kernel": (5, 4), "enc/gru_cell/gates/bias": (2 * 2,),
            "enc/gru_cell/candidate/kernel": (5, 2), "enc/gru_cell/candidate/bias": (2,),
            "deep/rnn/multi_rnn_cell/cell_0/basic_rnn_cell/kernel": (7, 4),
            "deep/rnn/multi_rnn_cell/cell_0/basic_rnn_cell/bias": (4,),
            "deep/rnn/multi_rnn_cell/cell_1/lstm_cell/kernel": (6, 12),
            "deep/rnn/multi_rnn_cell/cell_1/lstm_cell/bias": (12,),
            "deep/rnn/multi_rnn_cell/cell_1/lstm_cell/w_f_diag": (3,),
            "deep/rnn/multi_rnn_cell/cell_1/lstm_cell/w_i_diag": (3,),
            "deep/rnn/multi_rnn_cell/cell_1/lstm_cell/w_o_diag": (3,),
            "deep/rnn/multi_rnn_cell/cell_1/lstm_cell/projection/kernel": (3, 2),
            "bidirectional_rnn/fw/basic_rnn_cell/kernel": (5, 2), "bidirectional_rnn/fw/basic_rnn_cell/bias": (2,),
            "bidirectional_rnn/bw/basic_rnn_cell/kernel": (6, 3), "bidirectional_rnn/bw/basic_rnn_cell/bias": (3,)}
        assert len(tg.trainable_variables()) == len(tg.global_variables())


def test_initializers_as_tf1():
    with tg.Graph().as_default() as graph:
        x = tg.placeholder(tg.float32, [2, 1, 3])
        tg.nn.dynamic_rnn(rnn_cell.GRUCell(4), x, dtype=tg.float32)
        values = _values(_initialized(graph), "rnn/gru_cell")
    np.testing.assert_array_equal(values["gates/bias"], 1.0)  # TF1: gates start open
    np.testing.assert_array_equal(values["candidate/bias"], 0.0)
    limit = np.sqrt(6 / (7 + 8))  # glorot_uniform, get_variable's default
    assert np.abs(values["gates/kernel"]).max() <= limit


def _run_sequence(make_cell, x, lengths=None, time_major=False, dtype=tg.float64):
    with tg.Graph().as_default() as graph:
        inputs = tg.placeholder(dtype, x.shape)
        seq = None if lengths is None else tg.placeholder(tg.int32, [None])
        outputs, state = tg.nn.dynamic_rnn(make_cell(), inputs, sequence_length=seq, dtype=dtype,
                                           time_major=time_major)
        sess = _initialized(graph)
        feed = {inputs: x, **({} if lengths is None else {seq: lengths})}
        scope = "/".join(tg.global_variables()[0].op.name.split("/")[:2])  # rnn/<cell>
        return sess.run([outputs, state], feed), _values(sess, scope)


def test_gru_sequence_against_numpy_and_time_major():
    x = RNG.standard_normal((2, 5, 3))
    (out, state), v = _run_sequence(lambda: rnn_cell.GRUCell(4), x)
    h = np.zeros((2, 4))
    for t in range(5):
        o, h = np_gru(v, x[:, t], h)
        np.testing.assert_allclose(out[:, t], o, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(state, h, rtol=1e-12, atol=1e-12)
    (out_tm, state_tm), v_tm = _run_sequence(lambda: rnn_cell.GRUCell(4), x.transpose(1, 0, 2), time_major=True)
    h = np.zeros((2, 4))
    for t in range(5):
        o, h = np_gru(v_tm, x[:, t], h)
        np.testing.assert_allclose(out_tm[t], o, rtol=1e-12, atol=1e-12)


@pytest.mark.skipif(torch is None, reason="PyTorch is not installed")
def test_lstm_sequence_against_torch():
    x = RNG.standard_normal((3, 6, 2))
    (out, (c, h)), v = _run_sequence(lambda: rnn_cell.BasicLSTMCell(4), x)
    lstm = torch.nn.LSTM(2, 4, batch_first=True).double()
    kernel, bias = v["kernel"], v["bias"]
    i, j, f, o = np.split(np.arange(16), 4)
    order = np.concatenate([i, f, j, o])  # TF1's gates i, j, f, o; torch's i, f, g, o
    forget = np.zeros(16)
    forget[4:8] = 1.0  # TF1 adds forget_bias=1.0 inside the cell
    with torch.no_grad():
        lstm.weight_ih_l0.copy_(torch.tensor(kernel[:2, order].T))
        lstm.weight_hh_l0.copy_(torch.tensor(kernel[2:, order].T))
        lstm.bias_ih_l0.copy_(torch.tensor(bias[order] + forget))
        lstm.bias_hh_l0.zero_()
        want, (h_n, c_n) = lstm(torch.tensor(x))
    np.testing.assert_allclose(out, want.numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(h, h_n[0].numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(c, c_n[0].numpy(), rtol=1e-10, atol=1e-12)


def test_sequence_length_masks_outputs_and_holds_the_state():
    x = RNG.standard_normal((3, 5, 2))
    lengths = np.array([5, 2, 0])
    make = lambda: rnn_cell.BasicLSTMCell(3)  # noqa: E731
    (out, (c, h)), v = _run_sequence(make, x, lengths)
    for b, n in enumerate(lengths):
        state = (np.zeros((1, 3)), np.zeros((1, 3)))
        for t in range(n):
            o, state = np_lstm(v, x[b:b + 1, t], state)
            np.testing.assert_allclose(out[b, t], o[0], rtol=1e-12, atol=1e-12)
        np.testing.assert_array_equal(out[b, n:], 0.0)  # past its length: zeros
        np.testing.assert_allclose(c[b], state[0][0], rtol=1e-12, atol=1e-12)  # the state at its last step
        np.testing.assert_allclose(h[b], state[1][0], rtol=1e-12, atol=1e-12)


def test_gradients_through_dynamic_rnn_match_finite_differences():
    x = RNG.standard_normal((2, 3, 2))
    weights = RNG.standard_normal((2, 3, 3))
    with tg.Graph().as_default() as graph:
        inputs = tg.placeholder(tg.float64, x.shape)
        cell = rnn_cell.MultiRNNCell([rnn_cell.LSTMCell(3, use_peepholes=True), rnn_cell.GRUCell(3)])
        outputs, state = tg.nn.dynamic_rnn(cell, inputs, sequence_length=[3, 2], dtype=tg.float64)
        loss = tg.reduce_sum(outputs * weights) + tg.reduce_sum(tg.square(state[0].c))
        variables = tg.trainable_variables()
        grads = tg.gradients(loss, [inputs] + variables)
        sess = _initialized(graph)
        got = sess.run(grads, {inputs: x})
        starts = sess.run(variables)

        def objective(values):
            for var, value in zip(variables, values[1:]):
                var.load(value, sess)
            return sess.run(loss, {inputs: values[0]})
        want = numerical_gradient(objective, [x] + starts)
    assert all(g is not None for g in grads)
    for var, g, w in zip([inputs] + variables, got, want):
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-8, err_msg=var.name)


def test_static_rnn_matches_dynamic_rnn_and_reuses_variables():
    x = RNG.standard_normal((2, 4, 3))
    with tg.Graph().as_default() as graph:
        inputs = tg.placeholder(tg.float64, x.shape)
        cell = rnn_cell.BasicLSTMCell(3)
        outs, state = tg.nn.static_rnn(cell, tg.unstack(inputs, axis=1), dtype=tg.float64, sequence_length=[4, 1])
        assert len(outs) == 4 and sorted(_names()) == ["rnn/basic_lstm_cell/bias", "rnn/basic_lstm_cell/kernel"]
        with tg.variable_scope("rnn", reuse=True):  # the very same variables, by name
            d_outs, d_state = tg.nn.dynamic_rnn(rnn_cell.BasicLSTMCell(3, reuse=True), inputs, sequence_length=[4, 1],
                                                dtype=tg.float64, scope=tg.get_variable_scope())
        assert len(tg.global_variables()) == 2
        s_val, d_val = _initialized(graph).run([[tg.stack(outs, axis=1), state], [d_outs, d_state]], {inputs: x})
    np.testing.assert_allclose(s_val[0], d_val[0], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(s_val[1], d_val[1], rtol=1e-12, atol=1e-15)


def test_multi_rnn_cell_composes_its_cells():
    x = RNG.standard_normal((2, 3))
    with tg.Graph().as_default() as graph:
        inputs = tg.placeholder(tg.float64, [None, 3])
        cell = rnn_cell.MultiRNNCell([rnn_cell.GRUCell(4), rnn_cell.BasicLSTMCell(2)])
        assert cell.state_size == (4, rnn_cell.LSTMStateTuple(2, 2)) and cell.output_size == 2
        batch = tg.shape(inputs)[0]  # a dynamic batch size for zero_state
        zero = cell.zero_state(batch, tg.float64)
        assert zero[0].shape.as_list() == [None, 4] and isinstance(zero[1], rnn_cell.LSTMStateTuple)
        out, state = cell(inputs, zero)
        sess = _initialized(graph)
        got_out, got_state = sess.run([out, state], {inputs: x})
        gru, lstm = _values(sess, "multi_rnn_cell/cell_0/gru_cell"), _values(sess, "multi_rnn_cell/cell_1/"
                                                                                  "basic_lstm_cell")
    mid, h0 = np_gru(gru, x, np.zeros((2, 4)))
    want, (c1, h1) = np_lstm(lstm, mid, (np.zeros((2, 2)), np.zeros((2, 2))))
    np.testing.assert_allclose(got_out, want, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(got_state[0], h0, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(got_state[1].c, c1, rtol=1e-12, atol=1e-15)


def test_dropout_wrapper():
    x = RNG.standard_normal((4, 5, 3))
    with tg.Graph().as_default() as graph:
        inputs = tg.placeholder(tg.float64, x.shape)
        keep = tg.placeholder(tg.float64, [])
        plain = rnn_cell.BasicLSTMCell(6)
        out, state = tg.nn.dynamic_rnn(plain, inputs, dtype=tg.float64, scope="net")
        # the wrappers add no scope: the same variables, by name
        same = rnn_cell.DropoutWrapper(rnn_cell.BasicLSTMCell(6, reuse=True), input_keep_prob=1.0,
                                       output_keep_prob=1.0, state_keep_prob=1.0)
        out1, state1 = tg.nn.dynamic_rnn(same, inputs, dtype=tg.float64, scope="net")
        fed = rnn_cell.DropoutWrapper(rnn_cell.BasicLSTMCell(6, reuse=True), input_keep_prob=keep,
                                      output_keep_prob=keep, state_keep_prob=keep, seed=1)
        out2, state2 = tg.nn.dynamic_rnn(fed, inputs, dtype=tg.float64, scope="net")
        assert len(tg.global_variables()) == 2 and same.state_size == plain.state_size
        assert fed.output_size == 6
        sess = _initialized(graph)
        want = sess.run([out, state], {inputs: x})
        for o, s, k in ((out1, state1, 0.5), (out2, state2, 1.0)):
            got = sess.run([o, s], {inputs: x, keep: k})
            np.testing.assert_allclose(got[0], want[0], rtol=1e-12, atol=1e-15)
            np.testing.assert_allclose(got[1], want[1], rtol=1e-12, atol=1e-15)
        dropped = sess.run(out2, {inputs: x, keep: 0.5})
    assert (dropped == 0).mean() > 0.3 and not np.allclose(dropped, want[0])
    kept = dropped != 0
    assert np.any(np.abs(dropped[kept]) > np.abs(want[0][kept]) * 1.5)  # scaled by 1 / keep_prob


def test_dropout_wrapper_keeps_the_lstm_cell_state_and_variational_masks():
    x = RNG.standard_normal((3, 2))
    with tg.Graph().as_default() as graph:
        inputs = tg.placeholder(tg.float64, [3, 2])
        cell = rnn_cell.BasicLSTMCell(8)
        zero = cell.zero_state(3, tg.float64)
        _, plain = cell(inputs, zero)
        wrapped = rnn_cell.DropoutWrapper(cell, state_keep_prob=0.5)
        _, dropped = wrapped(inputs, zero)
        variational = rnn_cell.DropoutWrapper(cell, output_keep_prob=0.5, variational_recurrent=True,
                                              dtype=tg.float64)
        seq, _ = tg.nn.static_rnn(variational, [inputs, inputs], initial_state=zero)
        sess = _initialized(graph)
        p, d, (o1, o2) = sess.run([plain, dropped, seq], {inputs: x})
    np.testing.assert_allclose(d.c, p.c, rtol=1e-12, atol=1e-15)  # TF1 never drops an LSTM's c
    assert np.any(d.h == 0) and np.any(d.h != 0)
    mask = o1 != 0
    assert np.all((o2 != 0) == mask) and np.all(mask == mask[:1])  # one mask per step and per batch
    with pytest.raises(ValueError, match="dtype must be provided"):
        rnn_cell.DropoutWrapper(cell, variational_recurrent=True)
    with pytest.raises(ValueError, match="input_size must be provided"):
        rnn_cell.DropoutWrapper(cell, input_keep_prob=0.5, variational_recurrent=True, dtype=tg.float32)
    with pytest.raises(ValueError, match="output_keep_prob must be between 0 and 1: 1.5"):
        rnn_cell.DropoutWrapper(cell, output_keep_prob=1.5)


def _reverse_np(x, lengths):
    out = x.copy()
    for b, n in enumerate(lengths):
        out[b, :n] = x[b, :n][::-1]
    return out


def test_bidirectional_dynamic_rnn_reverses_each_sequence():
    x = RNG.standard_normal((3, 4, 2))
    lengths = np.array([4, 2, 3])
    with tg.Graph().as_default() as graph:
        inputs = tg.placeholder(tg.float64, [None, 4, 2])
        seq = tg.placeholder(tg.int32, [None])
        (fw, bw), (s_fw, s_bw) = tg.nn.bidirectional_dynamic_rnn(
            rnn_cell.GRUCell(3), rnn_cell.GRUCell(3), inputs, sequence_length=seq, dtype=tg.float64)
        reversed_in = tg.placeholder(tg.float64, [None, 4, 2])
        with tg.variable_scope("bidirectional_rnn/bw", reuse=True):
            ref_out, ref_state = tg.nn.dynamic_rnn(rnn_cell.GRUCell(3, reuse=True), reversed_in, sequence_length=seq,
                                                   dtype=tg.float64, scope=tg.get_variable_scope())
        grad = tg.gradients(tg.reduce_sum(bw * bw) + tg.reduce_sum(fw), inputs)[0]
        sess = _initialized(graph)
        got_bw, got_state, g = sess.run([bw, s_bw, grad], {inputs: x, seq: lengths})
        ref_out, ref_state = sess.run([ref_out, ref_state], {reversed_in: _reverse_np(x, lengths), seq: lengths})

        def objective(values):
            return sess.run(tg.reduce_sum(bw * bw) + tg.reduce_sum(fw), {inputs: values[0], seq: lengths})
        want_g = numerical_gradient(objective, [x])[0]
    np.testing.assert_allclose(got_bw, _reverse_np(ref_out, lengths), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(got_state, ref_state, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(g, want_g, rtol=1e-6, atol=1e-8)


def test_static_bidirectional_rnn_concatenates_both_directions():
    x = RNG.standard_normal((2, 3, 2))
    with tg.Graph().as_default() as graph:
        inputs = tg.placeholder(tg.float64, x.shape)
        outs, _, _ = tg.nn.static_bidirectional_rnn(rnn_cell.BasicRNNCell(2), rnn_cell.BasicRNNCell(3),
                                                    tg.unstack(inputs, axis=1), dtype=tg.float64)
        (fw, bw), _ = tg.nn.bidirectional_dynamic_rnn(rnn_cell.BasicRNNCell(2, reuse=True),
                                                      rnn_cell.BasicRNNCell(3, reuse=True), inputs,
                                                      dtype=tg.float64)
        assert [o.shape.as_list() for o in outs] == [[2, 5]] * 3 and len(tg.global_variables()) == 4
        got, f, b = _initialized(graph).run([tg.stack(outs, axis=1), fw, bw], {inputs: x})
    np.testing.assert_allclose(got, np.concatenate([f, b], axis=2), rtol=1e-12, atol=1e-15)


def test_errors_name_the_culprit():
    with tg.Graph().as_default():
        flat = tg.placeholder(tg.float32, [None], name="frames")
        with pytest.raises(ValueError, match=r"rank at least 2.*'frames:0'"):
            tg.nn.dynamic_rnn(rnn_cell.GRUCell(2), flat, dtype=tg.float32)
        x = tg.placeholder(tg.float32, [None, 4, 3])
        with pytest.raises(ValueError, match="you must give a dtype"):
            tg.nn.dynamic_rnn(rnn_cell.GRUCell(2), x)
        with pytest.raises(ValueError, match="sequence_length must be a vector"):
            tg.nn.dynamic_rnn(rnn_cell.GRUCell(2), x, sequence_length=[[1]], dtype=tg.float32)
        with pytest.raises(NotImplementedError, match="num_unit_shards=2"):
            rnn_cell.LSTMCell(3, num_unit_shards=2)
        with pytest.raises(TypeError, match="'cell'.*not an RNNCell"):
            tg.nn.dynamic_rnn(lambda x, s: (x, s), x, dtype=tg.float32)
        with pytest.raises(ValueError, match="inputs.shape\\[-1\\] to be known"):
            rnn_cell.BasicRNNCell(2)(tg.placeholder(tg.float32, [2, None]), tg.zeros([2, 2]))
        with pytest.raises(ValueError, match="state_is_tuple"):
            rnn_cell.MultiRNNCell([rnn_cell.BasicLSTMCell(2)], state_is_tuple=False)


def test_state_is_tuple_false_and_compat_namespace():
    x = RNG.standard_normal((2, 3, 2))
    with tg.Graph().as_default() as graph:
        inputs = tg.placeholder(tg.float64, x.shape)
        cell = tg.compat.v1.nn.rnn_cell.BasicLSTMCell(3, state_is_tuple=False)
        assert cell.state_size == 6
        out, state = tg.nn.dynamic_rnn(cell, inputs, dtype=tg.float64)
        sess = _initialized(graph)
        got_out, got_state = sess.run([out, state], {inputs: x})
        v = _values(sess, "rnn/basic_lstm_cell")
    pair = (np.zeros((2, 3)), np.zeros((2, 3)))
    for t in range(3):
        o, pair = np_lstm(v, x[:, t], pair)
    np.testing.assert_allclose(got_out[:, -1], o, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(got_state, np.concatenate(pair, 1), rtol=1e-12, atol=1e-15)


def test_residual_device_wrappers_and_get_initial_state():
    x = RNG.standard_normal((2, 3))
    with tg.Graph().as_default() as graph:
        inputs = tg.placeholder(tg.float64, [None, 3])
        inner = rnn_cell.BasicRNNCell(3)
        cell = rnn_cell.DeviceWrapper(rnn_cell.ResidualWrapper(inner), "/cpu:0")
        zero = cell.get_initial_state(inputs=inputs)
        assert zero.dtype == tg.float64 and zero.shape.as_list() == [None, 3]
        out, state = cell(inputs, zero)
        sess = _initialized(graph)
        got_out, got_state = sess.run([out, state], {inputs: x})
        v = _values(sess, "basic_rnn_cell")
    want, _ = np_basic_rnn(v, x, np.zeros((2, 3)))
    np.testing.assert_allclose(got_state, want, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(got_out, x + want, rtol=1e-12, atol=1e-15)


def test_runs_on_the_strict_device_standin():
    from tests.trainer.client.test_device_standin import strict_sessions
    x = RNG.standard_normal((3, 4, 2))

    def run():
        with tg.Graph().as_default() as graph:
            tg.set_random_seed(1)
            inputs = tg.placeholder(tg.float64, [None, 4, 2])
            keep = tg.placeholder_with_default(tg.constant(1.0, tg.float64), [])
            fw = rnn_cell.DropoutWrapper(rnn_cell.LSTMCell(3, use_peepholes=True), output_keep_prob=keep)
            (o_fw, o_bw), _ = tg.nn.bidirectional_dynamic_rnn(fw, rnn_cell.GRUCell(2), inputs, [4, 1, 3],
                                                              dtype=tg.float64)
            loss = tg.reduce_sum(o_fw * o_fw) + tg.reduce_sum(o_bw)
            grads = tg.gradients(loss, [inputs] + tg.trainable_variables())
            sess = _initialized(graph)
            return [np.asarray(a) for a in sess.run([loss] + grads, {inputs: x})]

    host = run()
    with strict_sessions():
        device = run()
    for h, d in zip(host, device):
        np.testing.assert_allclose(d, h, rtol=1e-12, atol=1e-15)
