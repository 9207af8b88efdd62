"""The LSTM kernels (BlockLSTM, BlockLSTMGrad, LSTMBlockCell, LSTMBlockCellGrad) on host arrays against a plain
float64 numpy LSTM written step by step from TF1's formulas, in float32 and float64, with and without peepholes and
a cell clip, over a whole sequence and a shorter seq_len_max. tests/trainer/rnn/test_rnn_fused.py checks the same ops
through graphs against the unfused cells, finite differences and PyTorch."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer import strict_device
from trainer.framework.registry import op_def
from trainer.ops.kernels import gemm
from trainer.ops.block_lstm_ops import block_lstm as tg_block_lstm

TOLERANCE = {np.float64: dict(rtol=1e-11, atol=1e-12), np.float32: dict(rtol=2e-5, atol=2e-6)}
FORGET_BIAS = 0.7


def sigmoid(a):
    return 1 / (1 + np.exp(-a))


def reference(steps, x, cs_prev, h_prev, w, peepholes, b, clip, cs_grad, h_grad):
    """TF1's LSTM forward and backward in float64, one step at a time: the 7 outputs [time, batch, units] (zeros
    from `steps` on) and the gradients of cs_prev, h_prev, w, b, the pre-activations and the peephole weights."""
    x, cs_prev, h_prev, w, b, cs_grad, h_grad = (a.astype(np.float64) for a in (x, cs_prev, h_prev, w, b, cs_grad,
                                                                               h_grad))
    wci, wcf, wco = np.zeros((3, cs_prev.shape[1])) if peepholes is None else peepholes.astype(np.float64)
    (time, batch, depth), n = x.shape, cs_prev.shape[1]
    outs = np.zeros((7, time, batch, n))  # i, cs, f, o, ci, co, h
    unclipped, cs, h = np.zeros((time, batch, n)), cs_prev, h_prev
    for t in range(steps):
        i, ci, f, o = np.split(np.concatenate([x[t], h], 1) @ w + b, 4, axis=1)
        i, ci, f = sigmoid(i + cs * wci), np.tanh(ci), sigmoid(f + FORGET_BIAS + cs * wcf)
        unclipped[t] = ci * i + cs * f
        cs = unclipped[t] if clip is None else np.clip(unclipped[t], -clip, clip)
        o = sigmoid(o + cs * wco)
        h = np.tanh(cs) * o
        outs[:, t] = i, cs, f, o, ci, np.tanh(cs), h
    i, cs, f, o, ci, co, h = outs
    before = np.concatenate([cs_prev[None], cs[:-1]])
    dicfo, dcs, dh = np.zeros((time, batch, 4 * n)), np.zeros((batch, n)), np.zeros((batch, n))
    for t in reversed(range(steps)):
        dh = dh + h_grad[t]
        d_o = dh * co[t] * o[t] * (1 - o[t])
        dcs = dcs + cs_grad[t] + dh * o[t] * (1 - co[t] ** 2) + d_o * wco
        if clip is not None:
            dcs = dcs * (np.abs(unclipped[t]) <= clip)
        d_i, d_f = dcs * ci[t] * i[t] * (1 - i[t]), dcs * before[t] * f[t] * (1 - f[t])
        dicfo[t] = np.concatenate([d_i, dcs * i[t] * (1 - ci[t] ** 2), d_f, d_o], 1)
        dcs = dcs * f[t] + d_i * wci + d_f * wcf
        dh = dicfo[t] @ w[depth:].T
    inputs = np.concatenate([x, np.concatenate([h_prev[None], h[:-1]])], 2).reshape(time * batch, -1)
    d = np.split(dicfo, 4, axis=2)
    peephole_grads = [(d[0] * before).sum((0, 1)), (d[2] * before).sum((0, 1)), (d[3] * cs).sum((0, 1))]
    grads = [dcs, dh, inputs.T @ dicfo.reshape(time * batch, -1), dicfo.sum((0, 1)), dicfo]
    return list(outs), grads + (peephole_grads if peepholes is not None else [])


def case(dtype, time=6, batch=5, depth=3, n=8, peephole=False, seed=0):
    rng = np.random.default_rng(seed)
    arrays = [rng.standard_normal((time, batch, depth)), rng.standard_normal((batch, n)),
              rng.standard_normal((batch, n)), rng.standard_normal((depth + n, 4 * n)) * 0.6,
              rng.standard_normal((3, n)) if peephole else None, rng.standard_normal(4 * n),
              rng.standard_normal((time, batch, n)), rng.standard_normal((time, batch, n))]
    return [None if a is None else a.astype(dtype) for a in arrays]


def close(got, want, dtype, what, tolerance=None):
    assert len(got) == len(want), what
    for k, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == dtype and g.shape == w.shape, (what, k, g.dtype, g.shape, w.shape)
        np.testing.assert_allclose(g, w, err_msg=f"{what} {k}", **(tolerance or TOLERANCE[dtype]))


def block_lstm(steps, x, cs_prev, h_prev, w, peepholes, b, clip, cs_grad, h_grad, gates=lambda g: g,
               states=lambda s: s):
    """BlockLSTM's outputs and BlockLSTMGrad's; `gates` may replace the activations i, ci, f, o the gradient op
    gets, `states` cs, co and h (copies, as a graph could hand them over)."""
    weights, attrs = ([] if peepholes is None else list(peepholes)), dict(use_peephole=peepholes is not None,
                                                                           cell_clip=clip)
    outs = op_def("BlockLSTM").forward(np.int64(steps), x, cs_prev, h_prev, w, *weights, b, forget_bias=FORGET_BIAS,
                                       **attrs)
    i, cs, f, o, ci, co, h = outs
    i, ci, f, o = (gates(g) for g in (i, ci, f, o))
    cs, co, h = (states(s) for s in (cs, co, h))
    grads = op_def("BlockLSTMGrad").forward(np.int64(steps), x, cs_prev, h_prev, w, *weights, b, i, cs, f, o, ci, co,
                                            h, cs_grad, h_grad, **attrs)
    return list(outs), list(grads)


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=lambda d: d.__name__)
@pytest.mark.parametrize("peephole,clip,steps", [(False, None, 6), (True, None, 6), (True, 0.5, 6), (False, 0.5, 4),
                                                 (False, None, 0)])
def test_block_lstm_and_its_gradient_match_a_step_by_step_lstm(dtype, peephole, clip, steps):
    x, cs_prev, h_prev, w, peepholes, b, cs_grad, h_grad = case(dtype, peephole=peephole)
    outs, grads = block_lstm(steps, x, cs_prev, h_prev, w, peepholes, b, clip, cs_grad, h_grad)
    want_outs, want_grads = reference(steps, x, cs_prev, h_prev, w, peepholes, b, clip, cs_grad, h_grad)
    close(outs, want_outs, dtype, "outputs")
    close(grads, want_grads, dtype, "gradients")
    if clip is not None:  # the clip bites somewhere and not everywhere
        assert (np.abs(outs[1][:steps]) == np.asarray(clip, dtype)).any() and (np.abs(outs[1]) < clip).any()


@pytest.mark.parametrize("peephole,clip", [(False, None), (True, 0.5)])
def test_the_recurrent_gemms_on_openblas_unpacked_kernel_match_too(monkeypatch, peephole, clip):
    """At 128 units and batch 64 both recurrent GEMMs are in gemm.step_dot's box: on AVX-512 kernels with one BLAS
    thread (scripts/test.sh's) they run on sgemm_direct, in another summation order, still within float32 rounding."""
    from trainer.ops.kernels import host_lstm
    taken = []

    def step_dot(a, b, out):
        product = gemm.step_dot(a, b, out)
        taken.append(product is not None)
        return product
    monkeypatch.setattr(host_lstm, "step_dot", step_dot)
    x, cs_prev, h_prev, w, peepholes, b, cs_grad, h_grad = case(np.float32, time=3, batch=64, depth=5, n=128,
                                                                peephole=peephole)
    w *= 0.3  # 133 rows: keep the gates off saturation
    outs, grads = block_lstm(3, x, cs_prev, h_prev, w, peepholes, b, clip, cs_grad, h_grad)
    want_outs, want_grads = reference(3, x, cs_prev, h_prev, w, peepholes, b, clip, cs_grad, h_grad)
    close(outs, want_outs, np.float32, "outputs")
    close(grads, want_grads, np.float32, "gradients", dict(rtol=1e-4, atol=2e-5))  # w's: sums of 192 products
    one_thread_avx512 = gemm.openblas_core() in gemm.AVX512_CORES and gemm.openblas_threads() == 1
    assert taken == [one_thread_avx512] * 2


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=lambda d: d.__name__)
@pytest.mark.parametrize("depth,n", [(21, 8), (16, 16), (5, 40), (3, 1), (4, 0)])
def test_weights_of_any_shape_copied_transposed_gate_by_gate(dtype, depth, n):
    """The forward copies w transposed, gate by gate with its scale (BLAS's transposing copy): more or fewer inputs
    than units, one unit, none."""
    x, cs_prev, h_prev, w, peepholes, b, cs_grad, h_grad = case(dtype, depth=depth, n=n, peephole=True, seed=9)
    outs, grads = block_lstm(6, x, cs_prev, h_prev, w, peepholes, b, None, cs_grad, h_grad)
    want_outs, want_grads = reference(6, x, cs_prev, h_prev, w, peepholes, b, None, cs_grad, h_grad)
    close(outs, want_outs, dtype, "outputs")
    # at 40 units w's and b's float32 gradients reach 2.5x the default tolerance over seeds 0-19, in any order of the
    # gate math's products (sums of 30 products a step through gates near saturation)
    close(grads, want_grads, dtype, "gradients", dict(rtol=1e-4, atol=1e-5) if dtype == np.float32 else None)


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=lambda d: d.__name__)
@pytest.mark.parametrize("copied", ["gates", "states", "all"])
def test_the_gradient_op_gives_the_same_bits_for_outputs_it_did_not_make(dtype, copied):
    """The gradient reads the forward's buffers in place when it gets its outputs as BlockLSTM made them; outputs
    copied elsewhere (another op's outputs, a feed) give the very same results."""
    args = case(dtype, peephole=True, seed=3)
    _, grads = block_lstm(6, *args[:6], 0.5, *args[6:])
    copy = dict(gates=lambda g: np.array(g, order="F")) if copied != "states" else {}
    copy.update(states=lambda s: np.array(s, order="C")) if copied != "gates" else None
    _, from_copies = block_lstm(6, *args[:6], 0.5, *args[6:], **copy)
    for g, c in zip(grads, from_copies):
        np.testing.assert_array_equal(g, c)


@pytest.mark.parametrize("gate", range(4), ids=["i", "ci", "f", "o"])
def test_the_gradient_op_reads_each_gate_it_is_given(gate):
    """One gate from elsewhere, with other values, among the forward's own views: the gradient reads the gate it is
    given, as it does when every gate is a copy."""
    args = case(np.float64, peephole=True, seed=5)

    def given(copy_all):
        order = iter(range(4))  # the helper hands over i, ci, f, o in that order
        return lambda g: np.array(g) * 0.9 if next(order) == gate else np.array(g) if copy_all else g
    _, among_views = block_lstm(6, *args[:6], None, *args[6:], gates=given(False))
    _, among_copies = block_lstm(6, *args[:6], None, *args[6:], gates=given(True))
    for g, c in zip(among_views, among_copies):
        np.testing.assert_array_equal(g, c)


def test_the_gradient_op_reads_its_own_inputs():
    """Given a forward's outputs with another x, cs_prev or h_prev than that forward's, the gradient op uses the
    ones it is given, as it does with outputs from anywhere else."""
    x, cs_prev, h_prev, w, peepholes, b, cs_grad, h_grad = case(np.float64, seed=8)
    outs = op_def("BlockLSTM").forward(np.int64(6), x, cs_prev, h_prev, w, b, forget_bias=FORGET_BIAS,
                                       use_peephole=False, cell_clip=None)
    grad = op_def("BlockLSTMGrad").forward
    mine, other = (x, cs_prev, h_prev), (x[::-1] * 0.5, cs_prev - 1.0, h_prev + 1.0)
    for k in range(4):
        given = [o if k in (j, 3) else m for j, (m, o) in enumerate(zip(mine, other))]
        args = (np.int64(6), *given, w, b)
        got = grad(*args, *outs, cs_grad, h_grad, use_peephole=False, cell_clip=None)
        want = grad(*args, *[np.array(o, order="C") for o in outs], cs_grad, h_grad, use_peephole=False, cell_clip=None)
        for g, c in zip(got, want):
            np.testing.assert_array_equal(g, c)


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=lambda d: d.__name__)
@pytest.mark.parametrize("flowing", ["h at the last step", "cs only", "neither", "h batch-major, at one step"])
def test_gradients_reaching_only_some_steps_or_outputs(dtype, flowing):
    """Zeros where nothing flows, as lstm_state_grads passes them and dynamic_rnn's last output makes them (a
    batch-major gradient seen time-major, the transpose dynamic_rnn's outputs go through)."""
    x, cs_prev, h_prev, w, peepholes, b, cs_grad, h_grad = case(dtype, seed=4)
    h_grad[:-1] = 0
    if flowing == "h batch-major, at one step":
        h_grad = np.zeros((h_grad.shape[1], h_grad.shape[0], h_grad.shape[2]), dtype).transpose(1, 0, 2)
        h_grad[3] = 1.5
    elif flowing != "h at the last step":
        h_grad[:] = 0
    if flowing != "cs only":
        cs_grad[:] = 0
    _, grads = block_lstm(6, x, cs_prev, h_prev, w, peepholes, b, None, cs_grad, h_grad)
    close(grads, reference(6, x, cs_prev, h_prev, w, peepholes, b, None, cs_grad, h_grad)[1], dtype, flowing)


def test_outputs_feed_every_consumer_and_the_gradient_reaches_x():
    """Through a graph: each output, fetched, sliced, stacked, transposed and reshaped, holds the reference's values,
    and x's gradient (a graph matmul of the pre-activations' gradient) and w's are the reference's."""
    x, cs_prev, h_prev, w, peepholes, b, cs_grad, h_grad = case(np.float64, time=5, seed=6)
    with tg.Graph().as_default():
        tx, tw = tg.placeholder(tg.float64, x.shape), tg.constant(w)
        outs = tg_block_lstm(tg.constant(4, dtype=tg.int64), tx, tg.constant(cs_prev), tg.constant(h_prev), tw,
                             None, None, None, tg.constant(b), forget_bias=FORGET_BIAS, cell_clip=None)
        cs, h = outs[1], outs[6]
        consumers = [tg.transpose(h, [1, 0, 2]), h[-2], tg.stack([cs[0], h[3]]), tg.reshape(h, [-1, 8]),
                     tg.unstack(cs)[2] * 2.0]
        loss = tg.reduce_sum(cs * cs_grad) + tg.reduce_sum(h * h_grad)
        with tg.Session() as sess:
            got, views, grads = sess.run([list(outs), consumers, tg.gradients(loss, [tx, tw])], {tx: x})
    want, (_, _, w_grad, _, dicfo) = reference(4, x, cs_prev, h_prev, w, None, b, None, cs_grad, h_grad)
    close(got, want, np.float64, "outputs")
    h_want, cs_want = want[6], want[1]
    close(views, [h_want.transpose(1, 0, 2), h_want[-2], np.stack([cs_want[0], h_want[3]]), h_want.reshape(-1, 8),
                  cs_want[2] * 2.0], np.float64, "consumers")
    close(grads, [dicfo @ w[:3].T, w_grad], np.float64, "x and w gradients")


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=lambda d: d.__name__)
@pytest.mark.parametrize("peephole,clip", [(False, None), (True, 0.5)])
def test_lstm_block_cell_and_its_gradient_match_one_step(dtype, peephole, clip):
    x, cs_prev, h_prev, w, peepholes, b, cs_grad, h_grad = case(dtype, peephole=peephole, seed=5)
    weights, attrs = ([] if peepholes is None else list(peepholes)), dict(use_peephole=peephole, cell_clip=clip)
    outs = op_def("LSTMBlockCell").forward(x[0], cs_prev, h_prev, w, *weights, b, forget_bias=FORGET_BIAS, **attrs)
    grads = op_def("LSTMBlockCellGrad").forward(x[0], cs_prev, h_prev, w, *weights, b, *outs[:6], cs_grad[0],
                                                h_grad[0], **attrs)
    want_outs, want_grads = reference(1, x[:1], cs_prev, h_prev, w, peepholes, b, clip, cs_grad[:1], h_grad[:1])
    close(list(outs), [o[0] for o in want_outs], dtype, "outputs")
    close(list(grads), [want_grads[0], want_grads[4][0], *want_grads[5:]], dtype, "gradients")


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=lambda d: d.__name__)
@pytest.mark.parametrize("peephole,clip", [(False, None), (True, 0.5)])
def test_the_gates_gradient_nothing_reads_is_skipped_and_the_rest_keeps_its_bits(dtype, peephole, clip):
    """Where nothing needs x's gradient, the gradient op does not write the pre-activations' gradient (nor h_prev's
    where nothing needs that): the other gradients are the same bits as where x's gradient is fetched too, and a run
    that fetches a skipped output gets it whole (a plan is made per fetch set)."""
    x, cs_prev, h_prev, w, peepholes, b, cs_grad, h_grad = case(dtype, peephole=peephole, seed=9)
    with tg.Graph().as_default() as graph:
        tx = tg.placeholder(dtype, x.shape)
        sources = [tg.constant(a) for a in (cs_prev, h_prev, w, b, *(peepholes if peephole else ()))]
        tcs, th, tw, tb, *tpeep = sources
        outs = tg_block_lstm(tg.constant(5, dtype=tg.int64), tx, tcs, th, tw, *(tpeep or [None] * 3), tb,
                             forget_bias=FORGET_BIAS, cell_clip=clip, use_peephole=peephole)
        loss = tg.reduce_sum(outs[1] * cs_grad) + tg.reduce_sum(outs[6] * h_grad)
        grads = tg.gradients(loss, sources)
        x_grad, = tg.gradients(loss, [tx])
        dicfo = next(op for op in graph.get_operations() if op.type == "BlockLSTMGrad").outputs[4]
        with tg.Session() as sess:
            weights = sess.run([grads[2], grads[3]], {tx: x})
            skipped = sess.run(grads, {tx: x})
            both, x_got = sess.run([grads, x_grad], {tx: x})
            gates = sess.run(dicfo, {tx: x})
    want = reference(5, x, cs_prev, h_prev, w, peepholes, b, clip, cs_grad, h_grad)[1]
    for s, g in zip([*weights, *skipped], [*both[2:4], *both]):
        np.testing.assert_array_equal(s, g)
    close(skipped, [*want[:4], *want[5:]], dtype, "gradients")
    close([gates, x_got], [want[4], want[4] @ w[:x.shape[2]].T], dtype, "the gates' and x's gradients")


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=lambda d: d.__name__)
@pytest.mark.parametrize("value", [0.0, 0.25])
def test_state_gradients_may_be_scalars_the_same_at_every_step(dtype, value):
    """A scalar cs_grad or h_grad (the gradient rule's 0 for an output nothing differentiates) gives the same bits as
    that value at every step; on another array module too (the device stand-in), within its own sums' rounding."""
    args = case(dtype, peephole=True, seed=10)
    x, cs_prev, h_prev, w, peepholes, b, cs_grad, h_grad = args
    scalar = np.asarray(value, dtype)
    full = np.full_like(cs_grad, value)
    _, from_scalars = block_lstm(6, *args[:6], 0.5, scalar, h_grad)
    _, from_arrays = block_lstm(6, *args[:6], 0.5, full, h_grad)
    for s, a in zip(from_scalars, from_arrays):
        np.testing.assert_array_equal(s, a)
    _, from_scalars = block_lstm(6, *args[:6], 0.5, cs_grad, scalar)
    _, from_arrays = block_lstm(6, *args[:6], 0.5, cs_grad, np.full_like(h_grad, value))
    for s, a in zip(from_scalars, from_arrays):
        np.testing.assert_array_equal(s, a)
    device = [strict_device.to_device(a) for a in (x, cs_prev, h_prev, w, *peepholes, b)]
    outs = op_def("BlockLSTM").forward(strict_device.to_device(np.int64(6)), *device, forget_bias=FORGET_BIAS,
                                       use_peephole=True, cell_clip=0.5)
    on_device = op_def("BlockLSTMGrad").forward(strict_device.to_device(np.int64(6)), *device, *outs,
                                                strict_device.to_device(scalar), strict_device.to_device(h_grad),
                                                use_peephole=True, cell_clip=0.5)
    want = reference(6, x, cs_prev, h_prev, w, peepholes, b, 0.5, full, h_grad)[1]
    close([g.get() for g in on_device], want, dtype, "on the stand-in")
