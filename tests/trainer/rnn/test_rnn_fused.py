"""The fused recurrent-cell ops that BasicLSTMCell, LSTMCell and GRUCell build: TF1's LSTMBlockCell and
GRUBlockCell (one op per time step each way) and, where dynamic_rnn or static_rnn runs an LSTM cell over a whole
sequence, TF1's BlockLSTM (one op for all steps each way). Each against the values and gradients of the unfused
graph it replaces (the same cell with an activation that is tanh but not tg.tanh builds that graph), finite
differences, and PyTorch (nn.LSTM; for the GRU, TF1's formula in torch ops: nn.GRU applies its reset gate after
the matmul, a different function)."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op, torch
from trainer.ops import nest
from trainer.ops.block_lstm_ops import block_lstm
from trainer.ops.rnn_ops import gru_block_cell, lstm_block_cell

rnn_cell = tg.nn.rnn_cell
RNG = np.random.default_rng(11)
BIG = tg.random_normal_initializer(stddev=1.0, seed=3)  # gates saturate and the cell clip bites


def unfused_tanh(x):
    return tg.tanh(x)


CELLS = {  # name: (make(activation) -> cell, the fused op type dynamic_rnn builds, how many per sequence)
    "basic_lstm": (lambda act: rnn_cell.BasicLSTMCell(4, forget_bias=0.5, activation=act), "BlockLSTM", 1),
    "basic_lstm_concat_state": (lambda act: rnn_cell.BasicLSTMCell(3, state_is_tuple=False, activation=act),
                                "BlockLSTM", 1),
    "lstm_peep_clip": (lambda act: rnn_cell.LSTMCell(4, use_peepholes=True, cell_clip=0.4, initializer=BIG,
                                                     activation=act), "BlockLSTM", 1),
    "lstm_peep_clip_proj": (lambda act: rnn_cell.LSTMCell(4, use_peepholes=True, cell_clip=0.4, num_proj=3,
                                                          proj_clip=0.5, forget_bias=0.3, initializer=BIG,
                                                          activation=act), "LSTMBlockCell", 5),
    "lstm_stepwise": (lambda act: rnn_cell.DeviceWrapper(rnn_cell.LSTMCell(4, initializer=BIG, activation=act),
                                                         "/cpu:0"), "LSTMBlockCell", 5),
    "multi_lstm": (lambda act: rnn_cell.MultiRNNCell([
        rnn_cell.LSTMCell(4, use_peepholes=True, initializer=BIG, activation=act),
        rnn_cell.BasicLSTMCell(3, activation=act)]), "BlockLSTM", 2),
    "gru": (lambda act: rnn_cell.GRUCell(4, bias_initializer=tg.random_normal_initializer(seed=5), activation=act),
            "GRUBlockCell", 5),
}


def run_rnn(api, cell, inputs, initial, lengths):
    """dynamic_rnn, dynamic_rnn on time-major inputs, or static_rnn, with batch-major outputs."""
    if api == "static":
        outputs, state = tg.nn.static_rnn(cell, tg.unstack(inputs, axis=1), initial, sequence_length=lengths)
        return tg.stack(outputs, axis=1), state
    if api == "time_major":
        outputs, state = tg.nn.dynamic_rnn(cell, tg.transpose(inputs, [1, 0, 2]), lengths, initial, time_major=True)
        return tg.transpose(outputs, [1, 0, 2]), state
    return tg.nn.dynamic_rnn(cell, inputs, sequence_length=lengths, initial_state=initial)


def run_sequence(kind, activation, x, start, lengths, variables=None, api="dynamic"):
    """An RNN from the state `start` (numpy leaves): outputs, final state and the gradients of a loss on both
    wrt the inputs, the initial state and every variable; the variables' values; the graph's op types."""
    with tg.Graph().as_default() as graph:
        inputs = tg.placeholder(tg.float64, x.shape)
        cell = CELLS[kind][0](activation)
        leaves, layout = nest.flatten(cell.state_size)
        initial = [tg.constant(a) for a in start]
        outputs, state = run_rnn(api, cell, inputs, nest.pack(layout, initial), lengths)
        weights = tg.constant(np.linspace(-1, 1, np.prod(outputs.shape.as_list())).reshape(outputs.shape.as_list()))
        loss = tg.reduce_sum(outputs * weights) + tg.add_n([tg.reduce_sum(tg.sin(s)) for s in nest.flatten(state)[0]])
        grads = tg.gradients(loss, [inputs] + initial + tg.trainable_variables())
        sess = tg.Session()
        sess.run(tg.global_variables_initializer())
        for v in tg.trainable_variables():
            if variables is not None:
                v.load(variables[v.op.name], sess)
        values = {v.op.name: sess.run(v) for v in tg.trainable_variables()}
        fetched = sess.run([outputs, nest.flatten(state)[0], grads], {inputs: x})
        return fetched, values, [op.type for op in graph.get_operations()]


@pytest.mark.parametrize("kind", sorted(CELLS))
@pytest.mark.parametrize("api,lengths", [("dynamic", [5, 0, 3]), ("dynamic", None), ("time_major", [2, 5, 1]),
                                         ("static", [4, 5, 0])])
def test_fused_cells_match_the_graph_they_replace(kind, api, lengths):
    make, op_type, count = CELLS[kind]
    x = RNG.standard_normal((3, 5, 2))
    sizes = nest.flatten(make(None).state_size)[0]
    start = [RNG.standard_normal((3, size)) for size in sizes]
    fused, values, fused_types = run_sequence(kind, None, x, start, lengths, api=api)
    plain, _, plain_types = run_sequence(kind, unfused_tanh, x, start, lengths, values, api=api)
    assert fused_types.count(op_type) == count and fused_types.count(op_type + "Grad") == count
    assert op_type not in plain_types
    for name, got, want in zip(["outputs", "state", "gradients"], fused, plain):
        for k, (g, w) in enumerate(zip(nest.flatten(got)[0], nest.flatten(want)[0])):
            np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12, err_msg=f"{kind}: {name} {k}")


def test_the_cell_clip_bites_and_stops_the_gradient():
    """The clip test above is meaningful: some cell states are clipped, some are not."""
    x, lengths = RNG.standard_normal((3, 5, 2)), [5, 5, 5]
    for kind, m_size in (("lstm_peep_clip_proj", 3), ("lstm_peep_clip", 4)):
        start = [RNG.standard_normal((3, 4)) * 2, RNG.standard_normal((3, m_size))]
        (outputs, (c, m), grads), _, _ = run_sequence(kind, None, x, start, lengths)
        assert np.any(np.abs(c) == 0.4) and np.any(np.abs(c) < 0.4)


def np_sigmoid(x):
    return 1 / (1 + np.exp(-x))


def torch_lstm_step(x, cs_prev, h_prev, w, wci, wcf, wco, b, forget_bias, cell_clip):
    i, ci, f, o = torch.chunk(torch.cat([x, h_prev], 1) @ w + b, 4, dim=1)
    i, f = torch.sigmoid(i + cs_prev * wci), torch.sigmoid(f + forget_bias + cs_prev * wcf)
    cs = torch.tanh(ci) * i + cs_prev * f
    cs = cs if cell_clip is None else torch.clamp(cs, -cell_clip, cell_clip)
    return torch.cat([cs, torch.tanh(cs) * torch.sigmoid(o + cs * wco)], 1)


@pytest.mark.parametrize("peephole,clip", [(False, None), (True, None), (True, 0.8), (False, 0.8)])
def test_lstm_block_cell_op(peephole, clip):
    n, depth, batch = 3, 2, 4
    arrays = [RNG.standard_normal((batch, depth)), RNG.standard_normal((batch, n)) * 1.5,
              RNG.standard_normal((batch, n)), RNG.standard_normal((depth + n, 4 * n)),
              *[RNG.standard_normal(n) * peephole for _ in range(3)], RNG.standard_normal(4 * n)]

    def build(x, cs_prev, h_prev, w, wci, wcf, wco, b):
        weights = (wci, wcf, wco) if peephole else (None, None, None)
        out = lstm_block_cell(x, cs_prev, h_prev, w, *weights, b, forget_bias=0.7, cell_clip=clip,
                              use_peephole=peephole)
        return tg.concat([out[1], out[6]], 1)  # cs, h

    wrt = [0, 1, 2, 3, 7] + ([4, 5, 6] if peephole else [])
    check_op(build, arrays, torch_fn=lambda *a: torch_lstm_step(*a, 0.7, clip), wrt=wrt)


@pytest.mark.parametrize("peephole,clip,seq_len_max", [(False, None, 4), (True, 0.8, 4), (False, None, 2)])
def test_block_lstm_op(peephole, clip, seq_len_max):
    n, depth, batch, time = 3, 2, 2, 4
    arrays = [RNG.standard_normal((time, batch, depth)), RNG.standard_normal((batch, n)) * 1.5,
              RNG.standard_normal((batch, n)), RNG.standard_normal((depth + n, 4 * n)),
              *[RNG.standard_normal(n) * peephole for _ in range(3)], RNG.standard_normal(4 * n)]

    def build(x, cs_prev, h_prev, w, wci, wcf, wco, b):
        weights = (wci, wcf, wco) if peephole else (None, None, None)
        out = block_lstm(tg.constant(seq_len_max, dtype=tg.int64), x, cs_prev, h_prev, w, *weights, b,
                         forget_bias=0.7, cell_clip=clip, use_peephole=peephole)
        return tg.concat([out[1], out[6]], 2)  # cs, h

    def torch_fn(x, cs, h, *weights):
        outs = []
        for t in range(time):
            if t < seq_len_max:
                cs, h = torch.chunk(torch_lstm_step(x[t], cs, h, *weights, 0.7, clip), 2, dim=1)
                outs.append(torch.cat([cs, h], 1))
            else:  # TF1: zeros from seq_len_max on
                outs.append(torch.zeros_like(outs[-1]))
        return torch.stack(outs)

    wrt = [0, 1, 2, 3, 7] + ([4, 5, 6] if peephole else [])
    check_op(build, arrays, torch_fn=torch_fn, wrt=wrt)


def torch_gru_step(x, h_prev, w_ru, w_c, b_ru, b_c):
    r, u = torch.chunk(torch.sigmoid(torch.cat([x, h_prev], 1) @ w_ru + b_ru), 2, dim=1)
    c = torch.tanh(torch.cat([x, r * h_prev], 1) @ w_c + b_c)
    return u * h_prev + (1 - u) * c


def test_gru_block_cell_op():
    n, depth, batch = 3, 2, 4
    arrays = [RNG.standard_normal((batch, depth)), RNG.standard_normal((batch, n)),
              RNG.standard_normal((depth + n, 2 * n)), RNG.standard_normal((depth + n, n)),
              RNG.standard_normal(2 * n), RNG.standard_normal(n)]
    check_op(lambda *t: gru_block_cell(*t)[3], arrays, torch_fn=torch_gru_step)


@pytest.mark.skipif(torch is None, reason="PyTorch is not installed")
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_lstm_sequence_and_gradients_against_torch_nn_lstm(dtype):
    batch, steps, depth, n = 3, 6, 2, 4
    x = RNG.standard_normal((batch, steps, depth)).astype(dtype)
    weights = RNG.standard_normal((batch, steps, n)).astype(dtype)
    with tg.Graph().as_default():
        inputs = tg.placeholder(dtype, x.shape)
        out, (c, h) = tg.nn.dynamic_rnn(rnn_cell.BasicLSTMCell(n), inputs, dtype=dtype)
        kernel, bias = tg.trainable_variables()
        loss = tg.reduce_sum(out * weights) + tg.reduce_sum(c)
        sess = tg.Session()
        sess.run(tg.global_variables_initializer())
        got = sess.run([out, c, h] + tg.gradients(loss, [inputs, kernel, bias]), {inputs: x})
        kernel_value, bias_value = sess.run([kernel, bias])
    order = np.concatenate([np.arange(0, n), np.arange(2 * n, 3 * n), np.arange(n, 2 * n), np.arange(3 * n, 4 * n)])
    forget = np.zeros(4 * n, dtype)
    forget[n:2 * n] = 1.0  # TF1 adds forget_bias=1.0 inside the cell; torch's gates are i, f, g, o
    lstm = torch.nn.LSTM(depth, n, batch_first=True).to(getattr(torch, np.dtype(dtype).name))
    with torch.no_grad():
        lstm.weight_ih_l0.copy_(torch.tensor(kernel_value[:depth, order].T))
        lstm.weight_hh_l0.copy_(torch.tensor(kernel_value[depth:, order].T))
        lstm.bias_ih_l0.copy_(torch.tensor(bias_value[order] + forget))
        lstm.bias_hh_l0.zero_()
    tx = torch.tensor(x, requires_grad=True)
    want_out, (h_n, c_n) = lstm(tx)
    (want_out * torch.tensor(weights)).sum().add(c_n.sum()).backward()
    inverse = np.argsort(order)
    want_kernel = np.concatenate([lstm.weight_ih_l0.grad.numpy().T, lstm.weight_hh_l0.grad.numpy().T])[:, inverse]
    want = [want_out.detach().numpy(), c_n[0].detach().numpy(), h_n[0].detach().numpy(), tx.grad.numpy(),
            want_kernel, lstm.bias_ih_l0.grad.numpy()[inverse]]
    tol = dict(rtol=1e-10, atol=1e-12) if dtype == np.float64 else dict(rtol=2e-4, atol=2e-5)
    for name, g, w in zip(["outputs", "c", "h", "d inputs", "d kernel", "d bias"], got, want):
        np.testing.assert_allclose(g, w, err_msg=name, **tol)


def test_strict_device_standin_runs_every_fused_cell():
    from tests.trainer.client.test_device_standin import strict_sessions
    x, lengths = RNG.standard_normal((3, 4, 2)), [4, 1, 3]

    for kind in sorted(CELLS):
        start = [np.full((3, size), 0.3) for size in nest.flatten(CELLS[kind][0](None).state_size)[0]]
        host, values, _ = run_sequence(kind, None, x, start, lengths)
        with strict_sessions():
            device, _, _ = run_sequence(kind, None, x, start, lengths, values)
        for h, d in zip(nest.flatten(host)[0], nest.flatten(device)[0]):
            # host arrays take the feature-major kernels, the stand-in the per-step ones: the same sums in another
            # order, so a value near zero (a gradient of 1e-5 from cancelling terms) may differ in its last bits
            np.testing.assert_allclose(d, h, rtol=1e-12, atol=1e-15, err_msg=kind)


def test_gradients_only_flow_from_the_state_and_output():
    with tg.Graph().as_default():
        x, state = tg.zeros([2, 3]), tg.zeros([2, 4])
        w, b = tg.zeros([7, 16]), tg.zeros([16])
        i = lstm_block_cell(x, state, state, w, None, None, None, b)[0]
        with pytest.raises(NotImplementedError, match=r"LSTMBlockCell 'LSTMBlockCell'.*not from \['i'\]"):
            tg.gradients(tg.reduce_sum(i), [w])
        r = gru_block_cell(x, state, tg.zeros([7, 8]), tg.zeros([7, 4]), tg.zeros([8]), tg.zeros([4]))[0]
        with pytest.raises(NotImplementedError, match="GRUBlockCell 'GRUBlockCell'.*not from r, u or c"):
            tg.gradients(tg.reduce_sum(r), [x])
        with pytest.raises(ValueError, match="needs wci, wcf and wco"):
            lstm_block_cell(x, state, state, w, None, None, None, b, use_peephole=True)
        co = block_lstm(tg.constant(1, dtype=tg.int64), tg.zeros([1, 2, 3]), state, state, w, None, None, None, b)[5]
        with pytest.raises(NotImplementedError, match=r"BlockLSTM 'BlockLSTM'.*not from \['co'\]"):
            tg.gradients(tg.reduce_sum(co), [w])
        gru = rnn_cell.GRUCell(4)
        assert not gru.runs_sequences and rnn_cell.BasicLSTMCell(4).runs_sequences
        with pytest.raises(NotImplementedError, match="GRUCell runs one step at a time"):
            gru.call_sequence(tg.zeros([1, 2, 3]), state)
