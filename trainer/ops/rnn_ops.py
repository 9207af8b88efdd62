"""TF1's fused recurrent-cell ops (core/ops/rnn_ops.cc): LSTMBlockCell and GRUBlockCell with their gradient ops.

One time step of a cell is one kernel forward and one backward, instead of a dozen elementwise ops on the
gates each way. The signatures are TF1's (TF1's `gen_rnn_ops.lstm_block_cell` and `gru_block_cell`): the
forward kernel does the cell's matmul of [x, h_prev] and its gate math (the LSTM's in kernels/rnn.py); the
gradient op gives the gradients of the pre-activations, and the gradient rule finishes with graph matmuls, as
TF1's `_LSTMBlockCellGrad` and `_GRUBlockCellGrad` do, so the weight gradients of every step sum up like any
other.

Where TF1 differs from the Python cells it replaces, the cells win: LSTMBlockCellGrad takes `cell_clip` and
stops the gradient where the cell state was clipped (TF1's kernel passes it through, unlike tf.clip_by_value
in LSTMCell), and without peepholes LSTMBlockCell takes no peephole weights at all (TF1 feeds zeros).
"""
from .array_ops import concat
from .math_ops import matmul, zeros_like
from .reduction_ops import reduce_sum
from ..framework.registry import apply_op, get_array_module, register
from .kernels.rnn import blocks, gate_scales, lstm_step, lstm_step_grad, sigmoid_
from .stack_ops import split
from .tensor_util import static_shape

LSTM_OUTPUTS = ("i", "cs", "f", "o", "ci", "co", "h")


def positive_clip(cell_clip):
    """TF1's reading of cell_clip: clip to +-cell_clip where it is > 0, else (None, 0, -1) do not clip."""
    return cell_clip if cell_clip is not None and cell_clip > 0 else None


def _lstm_block_cell(x, cs_prev, h_prev, w, *rest, forget_bias, cell_clip, use_peephole):
    xp = get_array_module(x)
    peepholes, b = (rest[:3], rest[3]) if use_peephole else (None, rest[0])
    n = cs_prev.shape[1]
    gates = xp.dot(xp.concatenate([x, h_prev], 1), w)
    cs, co, h = (xp.empty_like(gates[:, :n]) for _ in range(3))
    lstm_step(gates, cs_prev, peepholes, positive_clip(cell_clip), *gate_scales(b, n, forget_bias), cs, co, h)
    i, ci, f, o = blocks(gates, n, 4)
    return i, cs, f, o, ci, co, h


def _lstm_block_cell_grad(x, cs_prev, h_prev, w, *rest, use_peephole, cell_clip):
    xp = get_array_module(x)
    peepholes = rest[:3] if use_peephole else None
    i, cs, f, o, ci, co, cs_grad, h_grad = rest[-8:]
    act = xp.concatenate([i, ci, f, o], 1)
    dicfo = xp.empty_like(act)
    cs_prev_grad, peephole_grads = lstm_step_grad(act, cs_prev, cs, co, h_grad, cs_grad, peepholes,
                                                  positive_clip(cell_clip), dicfo, xp.empty_like(act))
    return (cs_prev_grad, dicfo, *peephole_grads) if use_peephole else (cs_prev_grad, dicfo)


def _lstm_infer(x, cs_prev, h_prev, w, *rest, **attrs):
    batch = (static_shape(x) or [None])[0]
    units = (static_shape(cs_prev) or [None, None])[1]
    return [((batch, units), x.dtype)] * len(LSTM_OUTPUTS)


def _lstm_grad_infer(x, cs_prev, h_prev, w, *rest, use_peephole, cell_clip):
    batch, units = _lstm_infer(x, cs_prev, h_prev, w)[0][0]
    peepholes = [((units,), x.dtype)] * 3 if use_peephole else []
    return [((batch, units), x.dtype), ((batch, None if units is None else 4 * units), x.dtype), *peepholes]


def lstm_state_grads(op, grads, zero=zeros_like):
    """The gradients reaching an LSTM op's outputs cs and h (zero(output) for None); TF1 differentiates only those."""
    unused = [name for name, g in zip(LSTM_OUTPUTS, grads) if g is not None and name not in ("cs", "h")]
    if unused:
        raise NotImplementedError(f"{op.type} {op.name!r}: gradients flow only from its outputs cs and h, not "
                                  f"from {unused}; use the cell states and outputs")
    return [g if g is not None else zero(t) for g, t in ((grads[1], op.outputs[1]), (grads[6], op.outputs[6]))]


def _lstm_gradient(op, *grads):
    """TF1's _LSTMBlockCellGrad: the kernel gives d(pre-activations); the matmuls give x's, h's and w's."""
    out = apply_op("LSTMBlockCellGrad", [*op.inputs, *op.outputs[:6], *lstm_state_grads(op, grads)],
                   name="LSTMBlockCellGrad", use_peephole=op.attrs["use_peephole"], cell_clip=op.attrs["cell_clip"])
    cs_prev_grad, dicfo, *peephole_grads = out
    x, cs_prev, h_prev, w = op.inputs[:4]
    w_x, w_h = split(w, [static_shape(x)[1], -1], axis=0)  # two matmuls: x's runs only where it is needed
    x_grad, h_prev_grad = matmul(dicfo, w_x, transpose_b=True), matmul(dicfo, w_h, transpose_b=True)
    w_grad = matmul(concat([x, h_prev], 1), dicfo, transpose_a=True)
    return [x_grad, cs_prev_grad, h_prev_grad, w_grad, *peephole_grads, reduce_sum(dicfo, axis=0)]


register("LSTMBlockCell", _lstm_block_cell, infer=_lstm_infer, grad=_lstm_gradient)
register("LSTMBlockCellGrad", _lstm_block_cell_grad, infer=_lstm_grad_infer)


def lstm_block_cell(x, cs_prev, h_prev, w, wci, wcf, wco, b, forget_bias=1.0, cell_clip=3.0, use_peephole=False,
                    name=None):
    """One LSTM step (TF1's lstm_block_cell, gates i, ci, f, o): returns (i, cs, f, o, ci, co, h).

    xh = [x, h_prev]; [i, ci, f, o] = xh @ w + b; i = sigmoid(i + cs_prev * wci); f = sigmoid(f + forget_bias
    + cs_prev * wcf); ci = tanh(ci); cs = ci * i + cs_prev * f, clipped to [-cell_clip, cell_clip] when
    cell_clip > 0; o = sigmoid(o + cs * wco); co = tanh(cs); h = co * o. The peephole weights are used only
    with use_peephole (pass None for them otherwise).
    """
    weights = [wci, wcf, wco] if use_peephole else []
    if use_peephole and any(v is None for v in weights):
        raise ValueError(f"lstm_block_cell(use_peephole=True) needs wci, wcf and wco, got {weights!r}")
    return apply_op("LSTMBlockCell", [x, cs_prev, h_prev, w, *weights, b], name=name or "LSTMBlockCell",
                    forget_bias=float(forget_bias), cell_clip=None if cell_clip is None else float(cell_clip),
                    use_peephole=bool(use_peephole))


def _gru_block_cell(x, h_prev, w_ru, w_c, b_ru, b_c):
    xp = get_array_module(x)
    xh = xp.concatenate([x, h_prev], 1)
    ru = xp.dot(xh, w_ru)
    ru += b_ru
    sigmoid_(ru)
    r, u = blocks(ru, h_prev.shape[1], 2)
    xh[:, x.shape[1]:] *= r  # now [x, h_prev * r], the candidate's input
    c = xp.dot(xh, w_c)
    c += b_c
    xp.tanh(c, out=c)
    h = xp.subtract(h_prev, c)
    h *= u
    h += c  # u * h_prev + (1 - u) * c
    return r, u, c, h


def _gru_block_cell_grad(x, h_prev, w_ru, w_c, b_ru, b_c, r, u, c, d_h):
    xp = get_array_module(x)
    depth, n = x.shape[1], h_prev.shape[1]
    d_c_bar = xp.multiply(c, c)
    xp.subtract(1, d_c_bar, out=d_c_bar)
    scratch = xp.subtract(1, u)
    d_c_bar *= scratch
    d_c_bar *= d_h  # d_h * (1 - u) * (1 - c^2)
    d_r_bar_u_bar = xp.empty((x.shape[0], 2 * n), dtype=x.dtype)
    d_r_bar, d_u_bar = blocks(d_r_bar_u_bar, n, 2)
    scratch *= u
    xp.subtract(h_prev, c, out=d_u_bar)
    d_u_bar *= scratch
    d_u_bar *= d_h  # d_h * (h_prev - c) * u * (1 - u)
    d_x_h_prevr = xp.dot(d_c_bar, w_c.T)
    d_h_prevr = d_x_h_prevr[:, depth:]
    xp.subtract(1, r, out=d_r_bar)
    d_r_bar *= r
    d_r_bar *= h_prev
    d_r_bar *= d_h_prevr  # d(h_prev * r) * h_prev * r * (1 - r)
    d_x_h_prev = xp.dot(d_r_bar_u_bar, w_ru.T)
    d_x = xp.add(d_x_h_prev[:, :depth], d_x_h_prevr[:, :depth])
    d_h_prev = xp.multiply(d_h, u)
    d_h_prev += xp.multiply(d_h_prevr, r, out=scratch)
    d_h_prev += d_x_h_prev[:, depth:]
    return d_x, d_h_prev, d_c_bar, d_r_bar_u_bar


def _gru_infer(x, h_prev, w_ru, w_c, b_ru, b_c):
    shape = ((static_shape(x) or [None])[0], (static_shape(h_prev) or [None, None])[1])
    return [(shape, x.dtype)] * 4


def _gru_grad_infer(x, h_prev, w_ru, w_c, b_ru, b_c, r, u, c, d_h):
    (batch, units), dtype = _gru_infer(x, h_prev, w_ru, w_c, b_ru, b_c)[0]
    return [((batch, (static_shape(x) or [None, None])[1]), dtype), ((batch, units), dtype),
            ((batch, units), dtype), ((batch, None if units is None else 2 * units), dtype)]


def _gru_gradient(op, d_r, d_u, d_c, d_h):
    """TF1's _GRUBlockCellGrad: the kernel gives d_x, d_h_prev and the pre-activations'; matmuls give w's."""
    if d_r is not None or d_u is not None or d_c is not None:
        raise NotImplementedError(f"GRUBlockCell {op.name!r}: gradients flow only from its output h, not from "
                                  "r, u or c; use the cell's output")
    x, h_prev, w_ru, w_c, b_ru, b_c = op.inputs
    r, u, c, h = op.outputs
    d_x, d_h_prev, d_c_bar, d_r_bar_u_bar = apply_op(
        "GRUBlockCellGrad", [*op.inputs, r, u, c, zeros_like(h) if d_h is None else d_h], name="GRUBlockCellGrad")
    d_w_ru = matmul(concat([x, h_prev], 1), d_r_bar_u_bar, transpose_a=True)
    d_w_c = matmul(concat([x, h_prev * r], 1), d_c_bar, transpose_a=True)
    return [d_x, d_h_prev, d_w_ru, d_w_c, reduce_sum(d_r_bar_u_bar, axis=0), reduce_sum(d_c_bar, axis=0)]


register("GRUBlockCell", _gru_block_cell, infer=_gru_infer, grad=_gru_gradient)
register("GRUBlockCellGrad", _gru_block_cell_grad, infer=_gru_grad_infer)


def gru_block_cell(x, h_prev, w_ru, w_c, b_ru, b_c, name=None):
    """One GRU step (TF1's gru_block_cell): returns (r, u, c, h).

    [r, u] = sigmoid([x, h_prev] @ w_ru + b_ru); c = tanh([x, h_prev * r] @ w_c + b_c); h = u * h_prev +
    (1 - u) * c.
    """
    return apply_op("GRUBlockCell", [x, h_prev, w_ru, w_c, b_ru, b_c], name=name or "GRUBlockCell")
