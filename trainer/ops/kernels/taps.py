"""Convolutions and pools of any spatial rank as a loop over the filter's taps, channels last.

Each tap reads one strided view of the padded input (every output's pixel under that tap), so a convolution is
one GEMM per tap (Conv3D), a depthwise one is one broadcast multiply per tap, and a pool one max or sum per tap.
The gradients walk the same taps and add into the padded input's view. Conv2D keeps its im2col kernels (conv.py);
these serve the rarer shapes, whose filters have few taps (3x3x3 is 27), without a k-fold column buffer.
"""
import numpy as np

from .conv import out_size
from ...framework.registry import get_array_module


def geometry(shape, ksize, strides, padding):
    """(output sizes, (before, after) paddings), one per spatial dim of a channels-last `shape`, as TF pads."""
    dims = [out_size(d, k, s, padding) for d, k, s in zip(shape[1:-1], ksize, strides)]
    return tuple(o for o, _ in dims), tuple(p for _, p in dims)


def _padded(x, pads, fill=0.0):
    if all(p == (0, 0) for p in pads):
        return x
    return get_array_module(x).pad(x, ((0, 0),) + tuple(pads) + ((0, 0),), constant_values=fill)


def _taps(ksize, strides, outs):
    """(tap, the index of the padded input that tap reads for every output)."""
    if min(outs, default=1) <= 0:
        raise ValueError(f"a window of {tuple(ksize)} does not fit the padded input (outputs {outs})")
    for tap in np.ndindex(*ksize):
        yield tap, (slice(None),) + tuple(slice(t, t + s * (o - 1) + 1, s) for t, s, o in zip(tap, strides, outs))


def _zeros_padded(shape, pads, dtype, xp):
    return xp.zeros((shape[0],) + tuple(d + sum(p) for d, p in zip(shape[1:-1], pads)) + (shape[-1],), dtype)


def _unpadded(dx, shape, pads):
    index = (slice(None),) + tuple(slice(b, b + d) for d, (b, _) in zip(shape[1:-1], pads))
    return get_array_module(dx).ascontiguousarray(dx[index])


def conv(x, w, strides, padding):
    """Convolution of (N, *spatial, C) x with w of shape ksize + (C, O)."""
    xp = get_array_module(x)
    outs, pads = geometry(x.shape, w.shape[:-2], strides, padding)
    xpad = _padded(x, pads)
    out = xp.zeros((x.shape[0],) + outs + (w.shape[-1],), dtype=x.dtype)
    for tap, index in _taps(w.shape[:-2], strides, outs):
        out += xpad[index] @ w[tap]
    return out


def conv_input_grad(g, x_shape, w, strides, padding):
    xp = get_array_module(g)
    outs, pads = geometry(x_shape, w.shape[:-2], strides, padding)
    dx = _zeros_padded(x_shape, pads, g.dtype, xp)
    for tap, index in _taps(w.shape[:-2], strides, outs):
        dx[index] += g @ w[tap].T
    return _unpadded(dx, x_shape, pads)


def conv_filter_grad(x, g, w_shape, strides, padding):
    xp = get_array_module(g)
    outs, pads = geometry(x.shape, w_shape[:-2], strides, padding)
    xpad, c, o = _padded(x, pads), w_shape[-2], w_shape[-1]
    dw = xp.empty(w_shape, dtype=g.dtype)
    rows = g.reshape(-1, o)
    for tap, index in _taps(w_shape[:-2], strides, outs):
        dw[tap] = xpad[index].reshape(-1, c).T @ rows
    return dw


def depthwise(x, w, strides, padding):
    """Each of x's C channels convolved with its own M filters, w of shape ksize + (C, M): C*M channels out."""
    xp = get_array_module(x)
    outs, pads = geometry(x.shape, w.shape[:-2], strides, padding)
    xpad = _padded(x, pads)
    out = xp.zeros((x.shape[0],) + outs + w.shape[-2:], dtype=x.dtype)
    for tap, index in _taps(w.shape[:-2], strides, outs):
        out += xpad[index][..., None] * w[tap]
    return out.reshape(out.shape[:-2] + (-1,))


def depthwise_input_grad(g, x_shape, w, strides, padding):
    xp = get_array_module(g)
    outs, pads = geometry(x_shape, w.shape[:-2], strides, padding)
    g = g.reshape(g.shape[:-1] + w.shape[-2:])
    dx = _zeros_padded(x_shape, pads, g.dtype, xp)
    for tap, index in _taps(w.shape[:-2], strides, outs):
        dx[index] += xp.einsum("...cm,cm->...c", g, w[tap])
    return _unpadded(dx, x_shape, pads)


def depthwise_filter_grad(x, g, w_shape, strides, padding):
    xp = get_array_module(g)
    outs, pads = geometry(x.shape, w_shape[:-2], strides, padding)
    xpad, (c, m) = _padded(x, pads), w_shape[-2:]
    rows = g.reshape(-1, c, m).transpose(1, 0, 2)  # (C, pixels, M): one batched GEMM per tap
    dw = xp.empty(w_shape, dtype=g.dtype)
    for tap, index in _taps(w_shape[:-2], strides, outs):
        dw[tap] = (xpad[index].reshape(-1, c).T[:, None, :] @ rows)[:, 0, :]
    return dw


def max_pool(x, ksize, strides, padding):
    outs, pads = geometry(x.shape, ksize, strides, padding)
    xpad = _padded(x, pads, fill=-np.inf)
    out = None
    for _, index in _taps(ksize, strides, outs):
        out = xpad[index].copy() if out is None else get_array_module(x).maximum(out, xpad[index], out=out)
    return out


def max_pool_grad(x, y, g, ksize, strides, padding):
    """g to the first tap (in row-major order) holding each window's maximum, as TF routes ties."""
    xp = get_array_module(g)
    outs, pads = geometry(x.shape, ksize, strides, padding)
    xpad = _padded(x, pads, fill=-np.inf)
    dx = _zeros_padded(x.shape, pads, g.dtype, xp)
    open_ = xp.ones(g.shape, dtype=bool)
    for _, index in _taps(ksize, strides, outs):
        hit = open_ & (xpad[index] == y)
        dx[index] += xp.where(hit, g, 0)
        open_ &= ~hit
    return _unpadded(dx, x.shape, pads)


def pool_counts(shape, ksize, strides, padding, dtype):
    """How many real (unpadded) pixels each window holds: SAME averages over those only, as TF does."""
    counts = np.ones((1,) + tuple(shape[1:-1]) + (1,), dtype=dtype)
    return avg_pool_sum(counts, ksize, strides, padding)


def avg_pool_sum(x, ksize, strides, padding):
    outs, pads = geometry(x.shape, ksize, strides, padding)
    xpad = _padded(x, pads)
    out = get_array_module(x).zeros((x.shape[0],) + outs + (x.shape[-1],), dtype=x.dtype)
    for _, index in _taps(ksize, strides, outs):
        out += xpad[index]
    return out


def avg_pool(x, ksize, strides, padding):
    counts = get_array_module(x).asarray(pool_counts(x.shape, ksize, strides, padding, x.dtype))
    return avg_pool_sum(x, ksize, strides, padding) / counts


def avg_pool_grad(x_shape, g, ksize, strides, padding):
    xp = get_array_module(g)
    outs, pads = geometry(x_shape, ksize, strides, padding)
    share = g / xp.asarray(pool_counts(x_shape, ksize, strides, padding, g.dtype))
    dx = _zeros_padded(x_shape, pads, g.dtype, xp)
    for _, index in _taps(ksize, strides, outs):
        dx[index] += share
    return _unpadded(dx, x_shape, pads)
