"""The LSTM's whole-sequence kernels on host (numpy) arrays, feature-major: BlockLSTM and its gradient op.

Inside, a step's gates are [4 * units, batch] and its states [units, batch], the transpose of TF1's layout, so each
gate's block is contiguous (numpy walks a column block of [batch, 4 * units] row by row, 2-3x slower per pass) and
the recurrent GEMMs take their faster form (h's share of 64 x 128 units' gates, AVX-512 OpenBLAS: 38 us against
44; the backward's 41 against 57, or 42 after a transposing copy of the weights). Where gemm.step_dot's box holds
(AVX-512 kernels, batch 32 or 64, large enough weights) both run on OpenBLAS's sgemm_direct, which does not pack the
weights again every step: 128 units at batch 64, 48 -> 43.6 us forward and 41.3 -> 35.6 backward. Each step is one GEMM each way
and one more for its share of the weights' and bias' gradient, which BLAS adds up (gemm.StepProducts: no copy of
the steps into one GEMM's [4n, time * batch] operand), in w's own layout (xh[t] @ d[t]ᵀ: no transposed copy of the
sum, 20 us). The buffers are step-major, so that every GEMM operand and every step's write is contiguous (a strided
GEMM operand costs 5-20% more, a strided ufunc output 1.5-4x):

    xh  [time + 1, depth + n + 1, batch]   xh[t] is step t's GEMM operand [x_t; h_{t-1}; 1]: x, then h (h_prev in
                                           xh[0], h_t in xh[t + 1]), then a row of ones for the bias
    act [time, 4n, batch]                  the activations of each step as ci, i, f, o (SWAP): the sigmoids together
    cs  [time + 1, n, batch]               cs[0] = cs_prev: step t reads cs[t] and writes cs[t + 1]
    co  [time, n, batch]
    d   [time, 4n, batch]                  the pre-activations' gradient in TF1's order i, ci, f, o ([1, 4n, batch],
                                           step after step, where no one reads that output)

The graph sees TF1's [time, batch, units] as strided views onto these (outputs) and the gradient op finds its
forward's buffers behind them (`_owner`); arrays from elsewhere are copied into the same layout first. Like
cuda_lstm's, each kernel returns NotImplemented for arrays it does not take (anything but numpy), and the
array-module path runs.
"""
from itertools import repeat

import numpy as np

from .gemm import StepProducts, step_dot, transpose_into
from .rnn import gate_scales

GATES = 4
# TF1's gate k (of i, ci, f, o) is act's block SWAP[k] (a swap, so also the other way): the three sigmoids side by
# side are one pass each way in the forward, and the backward's dcs * [ci, i] is what reaches [i, ci] in TF1's order
SWAP = (1, 0, 2, 3)


def _host(*arrays):
    return all(type(a) is np.ndarray for a in arrays)


def _gate(act, k):
    """TF1's gate k (i, ci, f, o) of act [time, 4n, batch], as TF1's [time, batch, n] view."""
    n = act.shape[1] // GATES
    return act[:, SWAP[k] * n:(SWAP[k] + 1) * n].transpose(0, 2, 1)


def _views(xh, act, cs, co):
    """TF1's outputs (i, cs, f, o, ci, co, h), [time, batch, units] each, as views onto the buffers."""
    n = cs.shape[1]
    depth = xh.shape[1] - n - 1
    i, ci, f, o = (_gate(act, k) for k in range(GATES))
    return i, cs[1:].transpose(0, 2, 1), f, o, ci, co.transpose(0, 2, 1), xh[1:, depth:depth + n].transpose(0, 2, 1)


def _operands(x, h_prev, steps, n, time):
    """A new xh buffer with x, h_prev and the ones filled in."""
    depth, batch = x.shape[2], x.shape[1]
    xh = np.empty((time + 1, depth + n + 1, batch), x.dtype)
    xh[:steps, :depth] = x[:steps].transpose(0, 2, 1)
    if steps < time:
        xh[steps:, :depth] = 0
    xh[0, depth:depth + n], xh[:, depth + n] = h_prev.T, 1
    return xh


def _scaled_weights(w, b, forget_bias, n):
    """[4n, depth + n + 1]: w transposed, its gates in act's order and scaled for tanh (see gate_scales), the shifts
    (bias, forget_bias) in the last column: one GEMM on xh[t] gives step t's scaled pre-activations."""
    half, shift = gate_scales(b, n, forget_bias)
    w_all = np.empty((GATES * n, w.shape[0] + 1), w.dtype)
    # w's columns and act's rows of i and ci (swapped), then of f and o, in one place in both orders and with one
    # scale: three transposing copies
    first, second, rest = slice(0, n), slice(n, 2 * n), slice(2 * n, GATES * n)
    for cols, rows in ((first, second), (second, first), (rest, rest)) if n else ():  # half: one number per gate
        transpose_into(w[:, cols], w_all[rows, :-1], half[cols.start].item())
        w_all[rows, -1] = shift[cols]
    return w_all


def block_lstm(steps, x, cs_prev, h_prev, w, peepholes, b, forget_bias, cell_clip):
    """BlockLSTM's seven outputs for steps [0, steps) (zeros after), or NotImplemented off the host."""
    if not _host(x, cs_prev, h_prev, w, b, *(peepholes or ())):
        return NotImplemented
    (time, batch, depth), n, dtype = x.shape, cs_prev.shape[1], x.dtype
    xh = _operands(x, h_prev, steps, n, time)
    act, co, cs = np.empty((time, GATES * n, batch), dtype), np.empty((time, n, batch), dtype), \
        np.empty((time + 1, n, batch), dtype)
    cs[0] = cs_prev.T
    for out in (act[steps:], cs[steps + 1:], co[steps:], xh[steps + 1:, depth:depth + n]) if steps < time else ():
        out[...] = 0
    w_all = _scaled_weights(w, b, forget_bias, n)
    if peepholes is not None:  # i and f see cs_prev; o sees cs, so it is activated once cs is known
        peep_if, peep_o = 0.5 * np.stack(peepholes[:2])[:, :, None], 0.5 * peepholes[2][:, None]
    scratch, pair = np.empty((n, batch), dtype), np.empty((2, n, batch), dtype)
    half = np.full((), 0.5, dtype)  # a constant of the operands' dtype: a Python float costs a ufunc call ~0.1-1 us
    dot, multiply, tanh, clip = np.dot, np.multiply, np.tanh, np.clip  # looked up once: ten calls a step
    by_gate, h = act.reshape(time, GATES, n, batch), xh[1:, depth:depth + n]
    direct = step_dot(w_all, xh, act)  # OpenBLAS's GEMM without packing where that is faster, else numpy's dot
    for t, (a, (ci, i, f, o), sigmoids, operand, c_prev, c, tc, h_t) in enumerate(zip(
            act[:steps], by_gate, act[:, n:], xh, cs, cs[1:], co, h)):  # views by iteration, as the gradient's
        if direct is None:
            dot(w_all, operand, out=a)
        else:
            direct(t, t)
        if peepholes is not None:
            i_f = a[n:3 * n]
            i_f += multiply(c_prev, peep_if, pair).reshape(2 * n, batch)
            tanh(a[:3 * n], a[:3 * n])
            sigmoids = i_f
        else:
            tanh(a, a)
        sigmoids *= half  # 0.5 * tanh(x / 2) + 0.5
        sigmoids += half
        multiply(ci, i, c)
        c += multiply(f, c_prev, scratch)
        if cell_clip is not None:
            clip(c, -cell_clip, cell_clip, c)
        if peepholes is not None:
            o += multiply(c, peep_o, scratch)
            tanh(o, o)
            o *= half
            o += half
        tanh(c, tc)
        multiply(tc, o, h_t)
    return _views(xh, act, cs, co)


def _address(array):
    return array.__array_interface__["data"][0]


def _owner(views, view_shape, shape, offsets, strides):
    """The buffer of `shape` that each of `views` is a `view_shape` view of, its offset (bytes) in with these
    `strides` (exactly so: the forward's outputs), else None. The buffer's address is read once (0.8 us a read)."""
    base = views[0].base
    if type(base) is not np.ndarray or base.shape != shape:
        return None
    at = _address(base)
    if all(v.base is base and v.shape == view_shape and v.strides == strides and _address(v) - at == offset
           for v, offset in zip(views, offsets)):
        return base
    return None


def _buffers(x, cs_prev, h_prev, steps, i, cs, f, o, ci, co, h):
    """(xh, act, cs, co) in the forward's layout: its own buffers when these are its outputs, else copies. The
    forward's cs_prev, h_prev and x slots are in no output: they are written again, as cheap as comparing them, in
    case this op's inputs are not that forward's."""
    (time, batch, n), depth, dtype = cs.shape, x.shape[2], cs.dtype
    gates, block, rows = (i, ci, f, o), n * batch * dtype.itemsize, depth + n + 1
    transposed = (dtype.itemsize, batch * dtype.itemsize)  # the strides of a [batch, n] view of a [n, batch] block
    shape, strides = (time, GATES * n, batch), (GATES * block, *transposed)
    act = _owner(gates, cs.shape, shape, [SWAP[k] * block for k in range(GATES)], strides)
    if act is None:
        act = np.empty(shape, dtype)
        for k, g in enumerate(gates):
            act[:, SWAP[k] * n:(SWAP[k] + 1) * n] = g.transpose(0, 2, 1)
    cs_all = _owner((cs,), cs.shape, (time + 1, n, batch), (block,), (block, *transposed))
    if cs_all is None:
        cs_all = np.empty((time + 1, n, batch), dtype)
        cs_all[1:] = cs.transpose(0, 2, 1)
    cs_all[0] = cs_prev.T
    co_all = _owner((co,), cs.shape, (time, n, batch), (0,), (block, *transposed))
    if co_all is None:
        co_all = np.ascontiguousarray(co.transpose(0, 2, 1))
    xh = _owner((h,), cs.shape, (time + 1, rows, batch), ((rows + depth) * batch * dtype.itemsize,),
                (rows * batch * dtype.itemsize, *transposed))
    if xh is None:
        xh = _operands(x, h_prev, steps, n, time)
        xh[1:, depth:depth + n] = h.transpose(0, 2, 1)
    else:
        xh[:steps, :depth], xh[0, depth:depth + n] = x[:steps].transpose(0, 2, 1), h_prev.T
    return xh, act, cs_all, co_all


def _flowing(grads, steps):
    """Per step of grads [steps, batch, n], whether it holds any gradient. An output nothing differentiates may get
    zeros (a caller's), dynamic_rnn's last output a gradient at one step: one scan spares the others a pass of a
    transposed block. It reads the bits (the largest as unsigned ints, a third of any()'s time), so a -0.0 costs an add
    that changes nothing, and in memory order: a batch-major array seen time-major (dynamic_rnn's) is reduced over
    its batch first, 2.4x faster than through a copy in time-major order. A scalar is that gradient at every step."""
    if grads.ndim == 0:
        return [bool(grads)] * steps
    grads = grads[:steps]
    if grads.strides[-1] != grads.itemsize:
        grads = np.ascontiguousarray(grads)
    bits = grads.view(f"u{grads.itemsize}")
    if bits.strides[1] > bits.strides[0]:
        bits = bits.max(axis=1, initial=0)
    return bits.reshape(len(bits), int(np.prod(bits.shape[1:]))).max(axis=1, initial=0).tolist()


def block_lstm_grad(steps, x, cs_prev, h_prev, w, peepholes, outputs, cs_grad, h_grad, cell_clip, gates_grad=True,
                    h_prev_grad=True):
    """BlockLSTMGrad's (cs_prev's, h_prev's, w's, b's, the pre-activations' gradients, then the peephole
    weights' with peepholes) from BlockLSTM's seven `outputs`, or NotImplemented off the host. cs_grad and h_grad
    may be scalars (the same at every step); without `gates_grad` the pre-activations' gradient is None, without
    `h_prev_grad` h_prev's (its step's GEMM is not made)."""
    if not _host(x, cs_prev, h_prev, w, cs_grad, h_grad, *outputs, *(peepholes or ())):
        return NotImplemented
    (time, batch, depth), n, dtype = x.shape, cs_prev.shape[1], x.dtype
    xh, act, cs, co = _buffers(x, cs_prev, h_prev, steps, *outputs)
    d = np.empty((time if gates_grad else 1, GATES * n, batch), dtype)
    d[steps:] = 0
    flows = [_flowing(g, steps) for g in (h_grad, cs_grad)]
    h_grad, cs_grad = (g.transpose(0, 2, 1) if g.ndim else [g] * steps for g in (h_grad, cs_grad))
    w_h, products = w[depth:], StepProducts(xh, d)  # [depth + n + 1, 4n]: w's gradient, then b's as its last row
    dh, dcs = np.zeros((n, batch), dtype), np.zeros((n, batch), dtype)
    scratch = np.empty((n, batch), dtype)
    deriv = np.empty((GATES, n, batch), dtype)  # act's order: the squares, then in place the activations' derivatives
    one = np.ones((), dtype)  # as the forward's half
    direct = step_dot(w_h, d, dh[None])  # as the forward's
    peephole_grads = None if peepholes is None else [np.zeros(n, dtype) for _ in range(3)]
    multiply, subtract, dot, absolute, add = np.multiply, np.subtract, np.dot, np.abs, products.add  # as the forward's
    # a step's views come from iterating arrays of all steps (0.06 us each, a subscript's 0.1-0.15) and the fixed
    # buffers' views are made once: some 20 subscripts a step less
    tanh_deriv, sigmoid_derivs, f_deriv, o_deriv, swapped_derivs = deriv[0], deriv[1:], deriv[2], deriv[3], deriv[1::-1]
    back = act.reshape(time, GATES, n, batch)[:steps][::-1]
    if gates_grad:  # d in TF1's order i, ci, f, o, where act (and deriv) hold ci, i, f, o
        d_back = d.reshape(time, GATES, n, batch)[:steps][::-1]
        d_steps = zip(d_back[:, :2], d_back[:, :3], d_back[:, 2], d_back[:, 3])
    else:
        step = d[0].reshape(GATES, n, batch)
        d_steps = repeat((step[:2], step[:3], step[2], step[3]), steps)
    for t, a, a_sigmoids, a_two, a_f, a_o, c_prev, tc, (d_two, d_three, d_f, d_o) in zip(
            range(steps - 1, -1, -1), back, back[:, 1:], back[:, :2], back[:, 2], back[:, 3], cs[:steps][::-1],
            co[:steps][::-1], d_steps):
        if flows[0][t]:
            dh += h_grad[t]
        if flows[1][t]:
            dcs += cs_grad[t]
        multiply(a, a, deriv)  # activation' = s - s^2 for a sigmoid, 1 - t^2 for tanh
        subtract(a_sigmoids, sigmoid_derivs, sigmoid_derivs)
        subtract(one, tanh_deriv, tanh_deriv)
        multiply(dh, tc, d_o)
        multiply(d_o, tc, scratch)
        subtract(dh, scratch, scratch)
        scratch *= a_o
        dcs += scratch  # the cell state's gradient from both of its consumers: h (o * dh * tanh'(c)) and the next step
        d_o *= o_deriv
        if peepholes is not None:
            dcs += multiply(d_o, peepholes[2][:, None], scratch)
        if cell_clip is not None:  # the forward's unclipped sum, computed as it computed it
            multiply(a[0], a[1], scratch)
            scratch += multiply(a_f, c_prev, d_f)
            dcs *= absolute(scratch, scratch) <= cell_clip
        multiply(swapped_derivs, a_two, d_two)  # what reaches i is dcs * ci, what reaches ci dcs * i
        multiply(f_deriv, c_prev, d_f)
        d_three *= dcs
        dcs *= a_f
        if peepholes is not None:
            dcs += multiply(d_two[0], peepholes[0][:, None], scratch)
            dcs += multiply(d_f, peepholes[1][:, None], scratch)
            for total, g, s in zip(peephole_grads, (d_two[0], d_f, d_o), (c_prev, c_prev, cs[t + 1])):
                total += multiply(g, s, scratch).sum(axis=1)
        if t or h_prev_grad:
            if direct is not None:
                direct(t if gates_grad else 0, 0)
            else:
                dot(w_h, d[t if gates_grad else 0], out=dh)
        add(t)
    w_grad, b_grad = products.out[:-1], products.out[-1]
    return (np.ascontiguousarray(dcs.T), np.ascontiguousarray(dh.T) if h_prev_grad else None, w_grad, b_grad,
            d.transpose(0, 2, 1) if gates_grad else None, *(peephole_grads or ()))
