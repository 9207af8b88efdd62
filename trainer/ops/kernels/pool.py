"""Max pooling whose windows tile the image (ksize == strides, e.g. 2x2 stride 2): a max over strided views.

Each window is a (kh, kw) tile, so the image is viewed as (N, Ho, kh, Wo, kw*C) without a copy: the max is
kh - 1 elementwise maxima of whole rows of tiles and kw - 1 of their columns, and the gradient walks the
kh*kw taps in TF1's order (row-major), routing each window's gradient to its first maximum, as TF1's
MaxPoolGrad does when values tie (a ReLU's zeros do). Overlapping or padded windows go through
conv_ops' general path. On CuPy arrays each direction is one launch, a thread per window (cuda_kernels.py).
"""
import numpy as np

from . import cuda_kernels
from .conv import out_size
from .cuda_kernels import on_cupy
from ...framework.registry import get_array_module


def tiles(shape, ksize, strides, padding):
    """(Ho, Wo) when the pooling windows tile the image without padding, else None."""
    if tuple(ksize) != tuple(strides):
        return None
    (ho, pads_h), (wo, pads_w) = (out_size(shape[1], ksize[0], strides[0], padding),
                                  out_size(shape[2], ksize[1], strides[1], padding))
    if pads_h != (0, 0) or pads_w != (0, 0) or ho <= 0 or wo <= 0:
        return None
    return ho, wo


def _tile_view(x, ksize, ho, wo):
    """(N, Ho, kh, Wo, kw*C): tile rows of a contiguous x (rows and columns past the last tile left out)."""
    kh, kw = ksize
    n, _, _, c = x.shape
    sn, sh, sw, sc = x.strides
    return get_array_module(x).lib.stride_tricks.as_strided(x, (n, ho, kh, wo, kw * c), (sn, kh * sh, sh, kw * sw, sc))


def _max_of(views):
    xp = get_array_module(views[0])
    if len(views) == 1:
        return views[0].copy()
    out = xp.maximum(views[0], views[1])
    for v in views[2:]:
        xp.maximum(out, v, out=out)
    return out


@on_cupy(cuda_kernels.max_pool)
def max_pool(x, ksize, ho, wo):
    xp = get_array_module(x)
    kh, kw = ksize
    c = x.shape[3]
    view = _tile_view(xp.ascontiguousarray(x), ksize, ho, wo)
    rows = _max_of([view[:, :, i] for i in range(kh)]).reshape(x.shape[0], ho, wo, kw, c)
    return _max_of([rows[:, :, :, j] for j in range(kw)])


@on_cupy(cuda_kernels.max_pool_grad)
def max_pool_grad(x, y, g, ksize, ho, wo):
    """g routed to each window's first maximum (row-major, as TF1), zeros elsewhere."""
    xp = get_array_module(g)
    kh, kw = ksize
    c = x.shape[3]
    view = _tile_view(xp.ascontiguousarray(x), ksize, ho, wo)
    covered = ho * kh == x.shape[1] and wo * kw == x.shape[2]
    dx = (xp.empty if covered else xp.zeros)(x.shape, dtype=g.dtype)
    dview = _tile_view(dx, ksize, ho, wo)
    route = _router(g)
    free = None  # windows whose maximum is not yet taken by an earlier tap
    for tap in range(kh * kw):
        i, j = divmod(tap, kw)
        last = tap == kh * kw - 1
        if last and free is not None:  # y is each window's maximum: where no earlier tap held it, this one does
            hit = free
        else:
            hit = view[:, :, i, :, j * c:(j + 1) * c] == y
            if free is not None:
                xp.logical_and(hit, free, out=hit)
        route(g, hit, dview[:, :, i, :, j * c:(j + 1) * c])
        if not last:
            free = ~hit if free is None else xp.logical_xor(free, hit, out=free)
    return dx


def _router(g):
    """A function writing g where a mask holds and 0 elsewhere into `out`.

    A multiply by the mask is some 20x faster than numpy's where, but inf * 0 is NaN where TF1 gives 0:
    it is used only on host arrays that are all finite."""
    xp = get_array_module(g)
    if xp is np and np.isfinite(g).all():
        return lambda g, mask, out: np.multiply(g, mask, out=out)

    def route(g, mask, out):
        out[...] = xp.where(mask, g, 0)
    return route
