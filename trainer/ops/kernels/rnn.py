"""The LSTM's gate math on arrays, one time step each way: shared by the per-step op (LSTMBlockCell) and the
whole-sequence op (BlockLSTM) where host_lstm.py does not run it (on other arrays than numpy's). The gates are TF1's,
in TF1's order: input i, candidate ci, forget f, output o.

The kernels use the inputs' array module (numpy or CuPy) and write into buffers they are given, so a sequence
kernel can fill its [time, batch, ...] outputs in place. numpy runs a ufunc on a column block of a matrix row
by row, several times slower than on contiguous memory, so the activations of all four gates are computed in
one pass over the whole [batch, 4 * units] block, a per-column scale picking sigmoid or tanh. On CuPy arrays each
step is one fused launch each way (cuda_lstm.lstm_step, lstm_step_grad) instead of a dozen elementwise ones.
"""
from . import cuda_lstm
from .cuda_kernels import on_cupy
from ...framework.registry import get_array_module


def sigmoid_(a):
    """a = sigmoid(a), in place, as 0.5 * tanh(0.5 * a) + 0.5: tanh never overflows (exp(-a) does for a << 0,
    with a warning) and numpy vectorizes it (about 2x faster than exp, 100x faster than logaddexp)."""
    xp = get_array_module(a)
    a *= 0.5
    xp.tanh(a, out=a)
    a *= 0.5
    a += 0.5
    return a


def blocks(a, n, count):
    """The `count` column blocks of width n of a [..., count * n] array, as views."""
    return [a[..., k * n:(k + 1) * n] for k in range(count)]


def gate_scales(b, n, forget_bias):
    """(half, shift) per gate column: activation(x + b) = half * tanh(half * x + shift) + 1 - half, with half 1
    on the tanh gate (ci) and 0.5 on the sigmoid ones, where 0.5 * tanh(x / 2) + 0.5 is the sigmoid; shift
    holds the bias and the forget gate's forget_bias."""
    xp = get_array_module(b)
    half = xp.full(4 * n, 0.5, dtype=b.dtype)
    half[n:2 * n] = 1
    shift = b * half
    shift[2 * n:3 * n] += 0.5 * forget_bias
    return half, shift


def _activate(gates, half):
    xp = get_array_module(gates)
    xp.tanh(gates, out=gates)
    gates *= half
    gates += 1 - half


@on_cupy(cuda_lstm.lstm_step)
def lstm_step(gates, cs_prev, peepholes, cell_clip, half, shift, cs, co, h):
    """One step forward, in place: gates ([x, h_prev] @ w, without the bias) become the activations
    [i, ci, f, o]; cs (the cell state, clipped to +-cell_clip when that is not None), co = tanh(cs) and
    h = co * o are written. peepholes: None or (wci, wcf, wco). With shift None, the gates come already scaled
    and shifted (gate_scales), as a sequence does by scaling its weights once for all steps."""
    xp = get_array_module(gates)
    n = cs_prev.shape[-1]
    if shift is not None:
        gates *= half
        gates += shift
    i, ci, f, o = blocks(gates, n, 4)
    if peepholes is not None:  # i and f see cs_prev; o sees cs, so it is activated once cs is known
        wci, wcf, wco = peepholes
        i += xp.multiply(cs_prev, 0.5 * wci, out=co)
        f += xp.multiply(cs_prev, 0.5 * wcf, out=co)
        _activate(gates[:, :3 * n], half[:3 * n])
    else:
        _activate(gates, half)
    xp.multiply(ci, i, out=cs)
    cs += xp.multiply(f, cs_prev, out=co)  # the gradient recomputes this sum to find where it was clipped
    if cell_clip is not None:
        xp.clip(cs, -cell_clip, cell_clip, out=cs)
    if peepholes is not None:
        o += xp.multiply(cs, 0.5 * peepholes[2], out=co)
        _activate(o, half[3 * n:])
    xp.tanh(cs, out=co)
    xp.multiply(co, o, out=h)


@on_cupy(cuda_lstm.lstm_step_grad)
def lstm_step_grad(act, cs_prev, cs, co, h_grad, cs_grad, peepholes, cell_clip, dicfo, scratch):
    """One step backward: d(pre-activations) into dicfo ([batch, 4 * units], like `scratch`, which it uses).

    act: the step's activations [i, ci, f, o]; h_grad and cs_grad: the gradients reaching h and cs. Returns the
    gradient of cs_prev and, with peepholes, this step's gradients of (wci, wcf, wco), else None."""
    xp = get_array_module(act)
    n = cs.shape[-1]
    i, ci, f, o = blocks(act, n, 4)
    dcs = xp.multiply(co, co)
    xp.subtract(1, dcs, out=dcs)
    dcs *= o
    dcs *= h_grad
    dcs += cs_grad  # the cell state's gradient from both of its consumers: h and the next step
    if peepholes is not None:
        do = xp.subtract(1, o)
        do *= o
        do *= co
        do *= h_grad
        dcs += do * peepholes[2]
    if cell_clip is not None:
        unclipped = xp.multiply(ci, i)
        unclipped += f * cs_prev
        dcs *= xp.abs(unclipped, out=unclipped) <= cell_clip
    # activation' = s (1 - s) for a sigmoid, (1 - t) (1 + t) for tanh: (1 - a) (a + [ci's block is 1])
    xp.subtract(1, act, out=dicfo)
    scratch[...] = act  # a copy, not act + 0: activations are never -0.0 but where 1 is added
    scratch[:, n:2 * n] += 1
    dicfo *= scratch
    d_i, d_ci, d_f, d_o = blocks(scratch, n, 4)  # now the gradients reaching each activation
    xp.multiply(dcs, ci, out=d_i)
    xp.multiply(dcs, i, out=d_ci)
    xp.multiply(dcs, cs_prev, out=d_f)
    xp.multiply(h_grad, co, out=d_o)
    dicfo *= scratch
    cs_prev_grad = xp.multiply(dcs, f)
    if peepholes is None:
        return cs_prev_grad, None
    di, _, df, do = blocks(dicfo, n, 4)
    cs_prev_grad += di * peepholes[0]
    cs_prev_grad += df * peepholes[1]
    return cs_prev_grad, ((di * cs_prev).sum(axis=0), (df * cs_prev).sum(axis=0), (do * cs).sum(axis=0))
