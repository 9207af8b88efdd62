"""Max pooling whose windows tile the image (ksize == strides, e.g. 2x2 stride 2): a max over strided views.

Each window is a (kh, kw) tile, so the image is viewed as (N, Ho, kh, Wo, kw*C) without a copy: the max is
kh - 1 elementwise maxima of whole rows of tiles and kw - 1 of their columns, and the gradient walks the
kh*kw taps in TF1's order (row-major), routing each window's gradient to its first maximum, as TF1's
MaxPoolGrad does when values tie (a ReLU's zeros do), a block of images at a time. Where the input is a buffer
nobody reads afterwards the gradient is written over it, and ReLU's gradient on the pooled values can ride along
(relu_max_pool_grad: client/fusion.py folds the pair). Overlapping or padded windows go through conv_ops' general
path. On CuPy arrays each direction is one launch, a thread per window (cuda_kernels.py).
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


# The gradient is routed a block of images of about this many input bytes at a time, so that a block stays in a
# core's L2 cache (1-2 MiB on today's x86 cores) through its taps' passes; over LeNet's 6 MiB activation each pass
# otherwise went out to memory. 512 KiB measured best of 128 KiB-4 MiB in LeNet's step (256 KiB-1 MiB within 5 %).
BLOCK_BYTES = 512 * 1024


@on_cupy(cuda_kernels.max_pool_grad)
def max_pool_grad(x, y, g, ksize, ho, wo):
    """g routed to each window's first maximum (row-major, as TF1), zeros elsewhere."""
    x = get_array_module(x).ascontiguousarray(x)
    return _routed(x, y, g, ksize, ho, wo, _gradient_buffer(x, g, ksize, ho, wo))


@on_cupy(cuda_kernels.max_pool_grad)
def max_pool_grad_inplace(x, y, g, ksize, ho, wo):
    """max_pool_grad written over x, where x is a buffer nobody reads afterwards (each tap is read before it is
    written, and the input's cache lines take the gradient without a second buffer's traffic)."""
    if not _ownable(x, g, ksize, ho, wo):
        return max_pool_grad(x, y, g, ksize, ho, wo)
    return _routed(x, y, g, ksize, ho, wo, x)


def relu_max_pool_grad(x, y, g, ksize, ho, wo, inplace=False):
    """max_pool_grad of ReLU's gradient on the pooled values, g * (y > 0), without that product: the windows whose
    maximum is not positive route nothing. Each tap gets g * (mask), as the two kernels give to the bit (a finite g
    times 0 is 0 with g's sign either way); NotImplemented where that does not hold (a non-finite g, whose product
    with 0 is NaN) or on a device."""
    xp = get_array_module(g)
    if xp is not np or type(x) is not np.ndarray or not np.isfinite(g).all():
        return NotImplemented
    x = np.ascontiguousarray(x)
    dx = x if inplace and _ownable(x, g, ksize, ho, wo) else _gradient_buffer(x, g, ksize, ho, wo)
    return _routed(x, y, g, ksize, ho, wo, dx, _multiply, positive_only=True)


def _covers(x, ksize, ho, wo):
    return ho * ksize[0] == x.shape[1] and wo * ksize[1] == x.shape[2]


def _ownable(x, g, ksize, ho, wo):
    """Whether dx can be written over x: the same layout and dtype, and no cell outside the tiles to zero."""
    return (_covers(x, ksize, ho, wo) and x.flags.c_contiguous and getattr(x.flags, "writeable", True)  # CuPy's: none
            and x.dtype == g.dtype)


def _gradient_buffer(x, g, ksize, ho, wo):
    """dx's buffer: rows and columns past the last tile get no gradient, so they start at zero."""
    return (get_array_module(g).empty if _covers(x, ksize, ho, wo) else get_array_module(g).zeros)(x.shape, g.dtype)


def _routed(x, y, g, ksize, ho, wo, dx, route=None, positive_only=False):
    """dx with g at each window's first maximum, a block of images at a time (only windows whose maximum is positive
    route where `positive_only`). dx may be x itself: each tap is compared before it is written."""
    xp = get_array_module(g)
    kh, kw = ksize
    c = x.shape[3]
    view, dview = _tile_view(x, ksize, ho, wo), _tile_view(dx, ksize, ho, wo)
    taps = [(view[:, :, i, :, j * c:(j + 1) * c], dview[:, :, i, :, j * c:(j + 1) * c])
            for i in range(kh) for j in range(kw)]  # row-major, TF1's order
    route = route or _router(g)
    step = max(1, BLOCK_BYTES // max(1, x[:1].nbytes))
    for s in range(0, x.shape[0], step):
        e = s + step
        gb, yb = g[s:e], y[s:e]
        free = xp.greater(yb, 0) if positive_only else None  # windows whose maximum no earlier tap has taken
        for tap, (xt, dt) in enumerate(taps):
            last = tap == len(taps) - 1
            if last and free is not None:  # y is each window's maximum: where no earlier tap held it, this one does
                hit = free
            else:
                hit = xt[s:e] == yb
                if free is not None:
                    xp.logical_and(hit, free, out=hit)
            route(gb, hit, dt[s:e])
            if not last:
                free = ~hit if free is None else xp.logical_xor(free, hit, out=free)
    return dx


def _router(g):
    """A function writing g where a mask holds and 0 elsewhere into `out`.

    A multiply by the mask is some 20x faster than numpy's where, but inf * 0 is NaN where TF1 gives 0:
    it is used only on host arrays that are all finite."""
    xp = get_array_module(g)
    if xp is np and np.isfinite(g).all():
        return _multiply

    def route(g, mask, out):
        out[...] = xp.where(mask, g, 0)
    return route


def _multiply(g, mask, out):
    return np.multiply(g, mask, out=out)
