"""The LSTM's whole-sequence kernels on host (numpy) arrays, feature-major: BlockLSTM and its gradient op.

Inside, a step's gates are [4 * units, batch] and its states [units, batch], the transpose of TF1's layout, so each
gate's block is contiguous (numpy walks a column block of [batch, 4 * units] row by row, 2-3x slower per pass) and
the recurrent GEMMs take their faster form (h's share of 64 x 128 units' gates, AVX-512 OpenBLAS: 38 us against
44; the backward's 41 against 57, or 42 after a transposing copy of the weights). Each step is one
GEMM each way, and the weights' and bias' gradients are one GEMM after the backward loop, through one buffer:

    xh  [depth + n + 1, time + 1, batch]   column t holds step t's GEMM operand [x_t; h_{t-1}; 1]: x, then h
                                           (h_prev in column 0, h_t in column t + 1), then a row of ones for the bias
    act [time, 4n, batch]                  the activations i, ci, f, o of each step, a contiguous block per step
    cs  [time + 1, n, batch]               cs[0] = cs_prev: step t reads cs[t] and writes cs[t + 1]
    co  [time, n, batch]
    d   [4n, time, batch]                  the pre-activations' gradient: as [4n, time * batch], a GEMM operand

The graph sees TF1's [time, batch, units] as strided views onto these (outputs) and the gradient op finds its
forward's buffers behind them (`_owner`); arrays from elsewhere are copied into the same layout first. Like
cuda_lstm's, each kernel returns NotImplemented for arrays it does not take (anything but numpy), and the
array-module path runs.
"""
import numpy as np

from .rnn import gate_scales

GATES = 4  # i, ci, f, o, TF1's order


def _host(*arrays):
    return all(type(a) is np.ndarray for a in arrays)


def _views(xh, act, cs, co):
    """TF1's outputs (i, cs, f, o, ci, co, h), [time, batch, units] each, as views onto the buffers."""
    n = cs.shape[1]
    depth = xh.shape[0] - n - 1
    i, ci, f, o = (act[:, k * n:(k + 1) * n].transpose(0, 2, 1) for k in range(GATES))
    h = xh[depth:depth + n, 1:].transpose(1, 2, 0)
    return i, cs[1:].transpose(0, 2, 1), f, o, ci, co.transpose(0, 2, 1), h


def _operands(x, h_prev, steps, n, time):
    """A new xh buffer with x, h_prev and the ones filled in."""
    depth, batch = x.shape[2], x.shape[1]
    xh = np.empty((depth + n + 1, time + 1, batch), x.dtype)
    xh[:depth, :steps], xh[:depth, steps:] = x[:steps].transpose(2, 0, 1), 0
    xh[depth:depth + n, 0], xh[depth + n] = h_prev.T, 1
    return xh


def block_lstm(steps, x, cs_prev, h_prev, w, peepholes, b, forget_bias, cell_clip):
    """BlockLSTM's seven outputs for steps [0, steps) (zeros after), or NotImplemented off the host."""
    if not _host(x, cs_prev, h_prev, w, b, *(peepholes or ())):
        return NotImplemented
    (time, batch, depth), n, dtype = x.shape, cs_prev.shape[1], x.dtype
    xh = _operands(x, h_prev, steps, n, time)
    act, co, cs = np.empty((time, GATES * n, batch), dtype), np.empty((time, n, batch), dtype), \
        np.empty((time + 1, n, batch), dtype)
    cs[0] = cs_prev.T
    for out in (act[steps:], cs[steps + 1:], co[steps:], xh[depth:depth + n, steps + 1:]):
        out[...] = 0
    half, shift = gate_scales(b, n, forget_bias)
    # the gates come out of the GEMM scaled for tanh (see gate_scales); a contiguous copy: 49 us a GEMM, 53 through .T
    w_all = np.empty((GATES * n, depth + n + 1), dtype)
    np.multiply(w.T, half[:, None], out=w_all[:, :-1])
    w_all[:, -1] = shift
    peep = None if peepholes is None else [0.5 * p[:, None] for p in peepholes]
    scratch = np.empty((n, batch), dtype)
    for t in range(steps):
        a, c_prev, c = act[t], cs[t], cs[t + 1]
        np.dot(w_all, xh[:, t], out=a)
        i, ci, f, o = a[:n], a[n:2 * n], a[2 * n:3 * n], a[3 * n:]
        if peep is not None:  # i and f see cs_prev; o sees cs, so it is activated once cs is known
            i += np.multiply(c_prev, peep[0], out=scratch)
            f += np.multiply(c_prev, peep[1], out=scratch)
            np.tanh(a[:3 * n], out=a[:3 * n])
            sigmoids = (i, f)
        else:
            np.tanh(a, out=a)
            sigmoids = (i, a[2 * n:])  # f and o are adjacent
        for s in sigmoids:  # 0.5 * tanh(x / 2) + 0.5
            s *= 0.5
            s += 0.5
        np.multiply(ci, i, out=c)
        c += np.multiply(f, c_prev, out=scratch)
        if cell_clip is not None:
            np.clip(c, -cell_clip, cell_clip, out=c)
        if peep is not None:
            o += np.multiply(c, peep[2], out=scratch)
            np.tanh(o, out=o)
            o *= 0.5
            o += 0.5
        np.tanh(c, out=co[t])
        np.multiply(co[t], o, out=xh[depth:depth + n, t + 1])
    return _views(xh, act, cs, co)


def _owner(array, shape, view):
    """The buffer of `shape` that `array` is `view(buffer)` of, exactly (same memory, shape and strides); else None."""
    base = array.base
    if type(base) is not np.ndarray or base.shape != shape:
        return None
    mine = view(base)
    same = mine.shape == array.shape and mine.strides == array.strides and \
        mine.__array_interface__["data"][0] == array.__array_interface__["data"][0]
    return base if same else None


def _buffers(x, cs_prev, h_prev, steps, i, cs, f, o, ci, co, h):
    """(xh, act, cs, co) in the forward's layout: its own buffers when these are its outputs, else copies."""
    (time, batch, n), depth, dtype = cs.shape, x.shape[2], cs.dtype
    gate = [lambda a, k=k: a[:, k * n:(k + 1) * n].transpose(0, 2, 1) for k in range(GATES)]
    act = _owner(i, (time, GATES * n, batch), gate[0])
    if act is None or any(_owner(g, act.shape, view) is not act for g, view in zip((ci, f, o), gate[1:])):
        act = np.empty((time, GATES * n, batch), dtype)
        for k, g in enumerate((i, ci, f, o)):
            act[:, k * n:(k + 1) * n] = g.transpose(0, 2, 1)
    cs_all = _owner(cs, (time + 1, n, batch), lambda a: a[1:].transpose(0, 2, 1))
    if cs_all is None or not np.array_equal(cs_all[0], cs_prev.T):
        cs_all = np.concatenate([cs_prev.T[None], cs.transpose(0, 2, 1)])
    co_all = _owner(co, (time, n, batch), lambda a: a.transpose(0, 2, 1))
    if co_all is None:
        co_all = np.ascontiguousarray(co.transpose(0, 2, 1))
    xh = _owner(h, (depth + n + 1, time + 1, batch), lambda a: a[depth:depth + n, 1:].transpose(1, 2, 0))
    if xh is None or not np.array_equal(xh[depth:depth + n, 0], h_prev.T):
        xh = _operands(x, h_prev, steps, n, time)
        xh[depth:depth + n, 1:] = h.transpose(2, 0, 1)
    else:  # the forward's x rows, written again in case this x is not that forward's (as cheap as comparing)
        xh[:depth, :steps] = x[:steps].transpose(2, 0, 1)
    return xh, act, cs_all, co_all


def block_lstm_grad(steps, x, cs_prev, h_prev, w, peepholes, outputs, cs_grad, h_grad, cell_clip):
    """BlockLSTMGrad's (cs_prev's, h_prev's, w's, b's, the pre-activations' gradients, then the peephole
    weights' with peepholes) from BlockLSTM's seven `outputs`, or NotImplemented off the host."""
    if not _host(x, cs_prev, h_prev, w, cs_grad, h_grad, *outputs, *(peepholes or ())):
        return NotImplemented
    (time, batch, depth), n, dtype = x.shape, cs_prev.shape[1], x.dtype
    xh, act, cs, co = _buffers(x, cs_prev, h_prev, steps, *outputs)
    d = np.empty((GATES * n, time, batch), dtype)
    d[:, steps:] = 0
    # an output nothing differentiates gets zeros (lstm_state_grads), dynamic_rnn's last output a gradient at one step:
    # one scan finds the steps that have any, sparing the others a pass of a transposed block; it reads the bits (the
    # largest as unsigned ints, a third of any()'s time), so a -0.0 costs an add that changes nothing
    flows = [g[:steps].view(f"u{g.itemsize}").reshape(steps, batch * n).max(axis=1, initial=0).tolist()
             for g in (h_grad, cs_grad)]
    w_h = w[depth:]
    dh, dcs, scratch = (np.zeros((n, batch), dtype) for _ in range(3))
    step, deriv, reach = (np.empty((GATES * n, batch), dtype) for _ in range(3))
    deriv_i, deriv_ci, deriv_fo = deriv[:n], deriv[n:2 * n], deriv[2 * n:]
    d_i_ci, d_f, d_o = reach[:2 * n].reshape(2, n, batch), reach[2 * n:3 * n], reach[3 * n:]
    ci_i = act[:, :2 * n].reshape(time, 2, n, batch)[:, ::-1]  # what reaches i is dcs * ci, what reaches ci dcs * i
    peephole_grads = None if peepholes is None else [np.zeros(n, dtype) for _ in range(3)]
    for t in reversed(range(steps)):
        a, c_prev, c, tc = act[t], cs[t], cs[t + 1], co[t]
        i, ci, f, o = a[:n], a[n:2 * n], a[2 * n:3 * n], a[3 * n:]
        if flows[0][t]:
            dh += h_grad[t].T
        if flows[1][t]:
            dcs += cs_grad[t].T
        # activation' = s - s^2 for a sigmoid, 1 - t^2 for tanh
        np.multiply(a, a, out=deriv)
        np.subtract(i, deriv_i, out=deriv_i)
        np.subtract(1, deriv_ci, out=deriv_ci)
        np.subtract(a[2 * n:], deriv_fo, out=deriv_fo)
        np.multiply(dh, tc, out=d_o)
        np.multiply(tc, tc, out=scratch)
        np.subtract(1, scratch, out=scratch)
        scratch *= o
        scratch *= dh
        dcs += scratch  # the cell state's gradient from both of its consumers: h and the next step
        if peepholes is not None:
            dcs += np.multiply(np.multiply(d_o, deriv[3 * n:], out=scratch), peepholes[2][:, None], out=scratch)
        if cell_clip is not None:
            np.multiply(ci, i, out=scratch)
            scratch += np.multiply(f, c_prev, out=d_f)
            dcs *= np.abs(scratch, out=scratch) <= cell_clip
        np.multiply(dcs, ci_i[t], out=d_i_ci)
        np.multiply(dcs, c_prev, out=d_f)
        np.multiply(deriv, reach, out=step)
        d[:, t] = step
        dcs *= f
        if peepholes is not None:
            dcs += np.multiply(step[:n], peepholes[0][:, None], out=scratch)
            dcs += np.multiply(step[2 * n:3 * n], peepholes[1][:, None], out=scratch)
            for total, g, s in zip(peephole_grads, (step[:n], step[2 * n:3 * n], step[3 * n:]), (c_prev, c_prev, c)):
                total += np.multiply(g, s, out=scratch).sum(axis=1)
        np.dot(w_h, step, out=dh)
    # [4n, depth + n + 1]: the weights' gradient, transposed, and the bias' in the last column
    grads = np.dot(d[:, :steps].reshape(GATES * n, steps * batch), xh[:, :steps].reshape(len(xh), steps * batch).T)
    w_grad, b_grad = np.ascontiguousarray(grads[:, :-1].T), grads[:, -1].copy()
    return (np.ascontiguousarray(dcs.T), np.ascontiguousarray(dh.T), w_grad, b_grad, d.transpose(1, 2, 0),
            *(peephole_grads or ()))
