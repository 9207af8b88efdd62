"""TF1's BlockLSTM op (what LSTMBlockFusedCell builds): every time step of an LSTM in one kernel each way.

Over time-major inputs [time, batch, depth], the per-step gate math is LSTMBlockCell's (kernels/rnn.py), but
the matmuls are grouped as a sequence allows: the inputs' share of the gates is one matmul for all steps
before the loop, only h_prev's is done step by step, and the weight gradient is one matmul over all steps
after the backward loop, instead of one per step summed. Steps from seq_len_max on are zeros (TF1). On numpy
arrays both ops run feature-major (kernels/host_lstm.py); on CuPy arrays each direction's walk over the steps is one
launch (cuda_lstm.lstm_sequence, lstm_sequence_grad); other array modules take the per-step kernels here.

The gradient op differs from TF1's BlockLSTMGrad in two ways: it returns the pre-activations' gradient
instead of x's, which the gradient rule computes with a graph matmul only where x needs one, and it takes
`cell_clip` to stop the gradient where the cell state was clipped (as tf.clip_by_value in LSTMCell does). Its
cs_grad and h_grad may also be scalars, that gradient at every step: the gradient rule passes a scalar 0 for an output
nothing differentiates, which costs no zeros and no scan of them. It skips its unread outputs (register's
skips_unread): where nothing needs x's gradient, the pre-activations' gradient is kept one step at a time, and
where nothing needs h_prev's, its GEMM is not made.
"""
from .array_ops import reshape, shape
from .core_ops import constant
from .math_ops import matmul
from ..framework.registry import apply_op, get_array_module, register
from .kernels import cuda_lstm, host_lstm
from .kernels.rnn import blocks, gate_scales, lstm_step, lstm_step_grad
from .rnn_ops import LSTM_OUTPUTS, lstm_state_grads, positive_clip
from .stack_ops import split
from .tensor_util import static_shape


H_PREV_GRAD, GATES_GRAD = 1, 4  # BlockLSTMGrad's outputs: h_prev's gradient, the pre-activations' gradient


def _steps(seq_len_max, x):
    return max(0, min(x.shape[0], int(seq_len_max)))


def _block_lstm(seq_len_max, x, cs_prev, h_prev, w, *rest, forget_bias, cell_clip, use_peephole):
    xp = get_array_module(x)
    peepholes, b = (rest[:3], rest[3]) if use_peephole else (None, rest[0])
    (time, batch, depth), n, steps = x.shape, cs_prev.shape[1], _steps(seq_len_max, x)
    clip = positive_clip(cell_clip)
    outs = host_lstm.block_lstm(steps, x, cs_prev, h_prev, w, peepholes, b, forget_bias, clip)
    if outs is not NotImplemented:
        return outs
    act = xp.empty((time, batch, 4 * n), dtype=x.dtype)
    cs, co, h = (xp.empty((time, batch, n), dtype=x.dtype) for _ in range(3))
    for out in (act, cs, co, h):
        out[steps:] = 0
    half, shift = gate_scales(b, n, forget_bias)
    w_half = w * half  # the gates come out of the matmuls scaled: lstm_step then skips a pass over them per step
    xp.dot(x[:steps].reshape(steps * batch, depth), w_half[:depth], out=act[:steps].reshape(steps * batch, 4 * n))
    act[:steps] += shift
    w_h = w_half[depth:]
    if cuda_lstm.lstm_sequence(act, w_h, h_prev, cs_prev, peepholes, clip, steps, cs, co, h) is NotImplemented:
        recurrent = xp.empty((batch, 4 * n), dtype=x.dtype)
        for t in range(steps):
            act[t] += xp.dot(h[t - 1] if t else h_prev, w_h, out=recurrent)
            lstm_step(act[t], cs[t - 1] if t else cs_prev, peepholes, clip, half, None, cs[t], co[t], h[t])
    i, ci, f, o = blocks(act, n, 4)
    return i, cs, f, o, ci, co, h


def _walk_back(steps, gates, cs_prev, cs, co, h_grad, cs_grad, w_h_t, peepholes, clip, dicfo):
    """The backward loop over the steps, one lstm_step_grad each: (gradient of cs_prev, of h_prev, the peephole
    weights' gradients or None), dicfo filled."""
    xp = get_array_module(cs)
    n = cs_prev.shape[1]
    scratch = xp.empty((cs_prev.shape[0], 4 * n), dtype=cs.dtype)
    peephole_grads = [xp.zeros(n, dtype=cs.dtype) for _ in range(3)] if peepholes is not None else None
    dcs, dh = xp.zeros_like(cs_prev), xp.zeros_like(cs_prev)
    for t in reversed(range(steps)):
        dh += h_grad[t]
        dcs += cs_grad[t]
        act = xp.concatenate([g[t] for g in gates], 1)
        dcs, step_grads = lstm_step_grad(act, cs[t - 1] if t else cs_prev, cs[t], co[t], dh, dcs, peepholes, clip,
                                         dicfo[t], scratch)
        dh = xp.dot(dicfo[t], w_h_t)
        for total, g in zip(peephole_grads or (), step_grads or ()):
            total += g
    return dcs, dh, peephole_grads


def _block_lstm_grad(seq_len_max, x, cs_prev, h_prev, w, *rest, use_peephole, cell_clip, read=None):
    xp = get_array_module(x)
    peepholes = rest[:3] if use_peephole else None
    i, cs, f, o, ci, co, h, cs_grad, h_grad = rest[-9:]
    (time, batch, depth), n, steps = x.shape, cs_prev.shape[1], _steps(seq_len_max, x)
    grads = host_lstm.block_lstm_grad(steps, x, cs_prev, h_prev, w, peepholes, (i, cs, f, o, ci, co, h), cs_grad,
                                      h_grad, positive_clip(cell_clip), gates_grad=read is None or GATES_GRAD in read,
                                      h_prev_grad=read is None or H_PREV_GRAD in read)
    if grads is not NotImplemented:
        return grads
    cs_grad, h_grad = (g if g.ndim else xp.ascontiguousarray(xp.broadcast_to(g, cs.shape)) for g in (cs_grad, h_grad))
    dicfo = xp.empty((time, batch, 4 * n), dtype=x.dtype)
    dicfo[steps:] = 0
    w_h_t, clip = xp.ascontiguousarray(w[depth:].T), positive_clip(cell_clip)  # AVX-512 BLAS: 25% faster than .T
    walked = cuda_lstm.lstm_sequence_grad((i, ci, f, o), cs_prev, cs, co, h_grad, cs_grad, w_h_t, peepholes, clip,
                                          steps, dicfo)
    if walked is NotImplemented:
        walked = _walk_back(steps, (i, ci, f, o), cs_prev, cs, co, h_grad, cs_grad, w_h_t, peepholes, clip, dicfo)
    dcs, dh, peephole_grads = walked
    w_grad = xp.zeros_like(w)
    if steps:
        flat = dicfo[:steps].reshape(steps * batch, 4 * n)
        xp.dot(x[:steps].reshape(steps * batch, depth).T, flat, out=w_grad[:depth])
        xp.dot(h_prev.T, dicfo[0], out=w_grad[depth:])
        if steps > 1:
            w_grad[depth:] += xp.dot(h[:steps - 1].reshape((steps - 1) * batch, n).T, flat[batch:])
    return (dcs, dh, w_grad, dicfo.sum(axis=(0, 1)), dicfo, *(peephole_grads or ()))


def _infer(seq_len_max, x, cs_prev, h_prev, w, *rest, **attrs):
    time, batch = (static_shape(x) or [None, None])[:2]
    units = (static_shape(cs_prev) or [None, None])[1]
    return [((time, batch, units), x.dtype)] * len(LSTM_OUTPUTS)


def _grad_infer(seq_len_max, x, cs_prev, h_prev, w, *rest, use_peephole, cell_clip):
    (time, batch, units), dtype = _infer(seq_len_max, x, cs_prev, h_prev, w)[0]
    gates = None if units is None else 4 * units
    state = [((batch, units), dtype)] * 2
    peepholes = [((units,), dtype)] * 3 if use_peephole else []
    return [*state, (static_shape(w), dtype), ((gates,), dtype), ((time, batch, gates), dtype), *peepholes]


def _scalar_zero(output):
    return constant(0, dtype=output.dtype)


def _gradient(op, *grads):
    state_grads = lstm_state_grads(op, grads, zero=_scalar_zero)
    out = apply_op("BlockLSTMGrad", [*op.inputs, *op.outputs, *state_grads], name="BlockLSTMGrad",
                   use_peephole=op.attrs["use_peephole"], cell_clip=op.attrs["cell_clip"])
    cs_prev_grad, h_prev_grad, w_grad, b_grad, dicfo, *peephole_grads = out
    x, w = op.inputs[1], op.inputs[4]
    w_x = split(w, [static_shape(x)[2], -1], axis=0)[0]
    x_grad = reshape(matmul(reshape(dicfo, [-1, static_shape(w)[1]]), w_x, transpose_b=True), shape(x))
    return [None, x_grad, cs_prev_grad, h_prev_grad, w_grad, *peephole_grads, b_grad]


register("BlockLSTM", _block_lstm, infer=_infer, grad=_gradient)
register("BlockLSTMGrad", _block_lstm_grad, infer=_grad_infer, skips_unread=True)


def block_lstm(seq_len_max, x, cs_prev, h_prev, w, wci, wcf, wco, b, forget_bias=1.0, cell_clip=3.0,
               use_peephole=False, name=None):
    """Every step of an LSTM (TF1's block_lstm) over time-major x [time, batch, depth]: returns
    (i, cs, f, o, ci, co, h), each [time, batch, units], step t computed as lstm_block_cell from step t - 1's
    cs and h (cs_prev and h_prev at t = 0); steps from seq_len_max (a scalar) on are zeros.
    """
    weights = [wci, wcf, wco] if use_peephole else []
    if use_peephole and any(v is None for v in weights):
        raise ValueError(f"block_lstm(use_peephole=True) needs wci, wcf and wco, got {weights!r}")
    return apply_op("BlockLSTM", [seq_len_max, x, cs_prev, h_prev, w, *weights, b], name=name or "BlockLSTM",
                    forget_bias=float(forget_bias), cell_clip=None if cell_clip is None else float(cell_clip),
                    use_peephole=bool(use_peephole))
