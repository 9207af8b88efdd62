"""2-D convolution and max pooling on NHWC images with HWIO filters, vectorized with im2col windows."""
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .core_ops import convert_to_tensor
from .math_ops import binary_operands, mark_fresh
from .registry import apply_op, register


def _out_size(size, k, stride, padding):
    """Output length and (before, after) padding of one spatial dim, as TF computes them."""
    if padding == "VALID":
        return (size - k) // stride + 1, (0, 0)
    out = -(-size // stride)
    total = max((out - 1) * stride + k - size, 0)
    return out, (total // 2, total - total // 2)


def _windows(x, kh, kw, strides, padding, fill=0.0):
    """Padded x viewed as (N, Ho, Wo, C, kh, kw) windows (no copy), and the paddings used."""
    (ho, ph), (wo, pw) = (_out_size(x.shape[1], kh, strides[0], padding),
                          _out_size(x.shape[2], kw, strides[1], padding))
    if ph != (0, 0) or pw != (0, 0):
        x = np.pad(x, ((0, 0), ph, pw, (0, 0)), constant_values=fill)
    win = sliding_window_view(x, (kh, kw), axis=(1, 2))[:, ::strides[0], ::strides[1]]
    return win[:, :ho, :wo], ph, pw


def _im2col(x, kh, kw, strides, padding):
    win, _, _ = _windows(x, kh, kw, strides, padding)
    n, ho, wo, c = win.shape[:4]
    return win.transpose(0, 1, 2, 4, 5, 3).reshape(n * ho * wo, kh * kw * c), (n, ho, wo)


def _conv2d(x, w, strides, padding):
    kh, kw, c, o = w.shape
    cols, (n, ho, wo) = _im2col(x, kh, kw, strides, padding)
    return np.dot(cols, w.reshape(kh * kw * c, o)).reshape(n, ho, wo, o)


def _scatter_windows(dcols, x_shape, kh, kw, strides, padding):
    """The adjoint of _windows: add each (N, Ho, Wo, kh, kw, C) window value back onto x's pixels."""
    n, h, w, c = x_shape
    (ho, ph), (wo, pw) = _out_size(h, kh, strides[0], padding), _out_size(w, kw, strides[1], padding)
    dx = np.zeros((n, h + sum(ph) + strides[0], w + sum(pw) + strides[1], c), dtype=dcols.dtype)
    for i in range(kh):  # a loop over the filter's taps, each one a strided slab of every pixel
        for j in range(kw):
            dx[:, i:i + strides[0] * ho:strides[0], j:j + strides[1] * wo:strides[1]] += dcols[:, :, :, i, j]
    return dx[:, ph[0]:ph[0] + h, pw[0]:pw[0] + w]


def _conv2d_input_grad(g, x, w, strides, padding):
    kh, kw, c, o = w.shape
    n, ho, wo, _ = g.shape
    dcols = np.dot(g.reshape(-1, o), w.reshape(-1, o).T).reshape(n, ho, wo, kh, kw, c)
    return np.ascontiguousarray(_scatter_windows(dcols, x.shape, kh, kw, strides, padding))


def _conv2d_filter_grad(x, g, w, strides, padding):
    kh, kw, c, o = w.shape
    cols, _ = _im2col(x, kh, kw, strides, padding)
    return np.dot(cols.T, g.reshape(-1, o)).reshape(kh, kw, c, o)


def _conv_infer(x, w, strides, padding):
    if x.shape is None or w.shape is None:
        return [(None, x.dtype)]
    dims = [None if d is None else _out_size(d, k, s, padding)[0]
            for d, k, s in zip(x.shape[1:3], w.shape[:2], strides)]
    return [((x.shape[0], *dims, w.shape[3]), x.dtype)]


def _conv_grad(op, g):
    x, w = op.inputs
    attrs = dict(strides=op.attrs["strides"], padding=op.attrs["padding"])
    return [apply_op("Conv2DBackpropInput", [g, x, w], **attrs),
            apply_op("Conv2DBackpropFilter", [x, g, w], **attrs)]


register("Conv2D", _conv2d, infer=_conv_infer, grad=_conv_grad)
register("Conv2DBackpropInput", _conv2d_input_grad, infer=lambda g, x, w, **a: [(x.shape, g.dtype)])
register("Conv2DBackpropFilter", _conv2d_filter_grad, infer=lambda x, g, w, **a: [(w.shape, g.dtype)])


def _spatial(values, what):
    values = [int(v) for v in (values if np.ndim(values) else [values])]
    if len(values) == 4:
        if values[0] != 1 or values[3] != 1:
            raise ValueError(f"{what} over the batch or channel dims is not supported, got {values}")
        return tuple(values[1:3])
    if len(values) == 1:
        return (values[0], values[0])
    if len(values) == 2:
        return tuple(values)
    raise ValueError(f"{what} must have 1, 2 or 4 entries (NHWC), got {values}")


def _padding(padding):
    padding = str(padding).upper()
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"padding must be 'SAME' or 'VALID', got {padding!r}")
    return padding


def conv2d(input, filters, strides, padding, name=None):  # noqa: A002 - TF1's name
    """2-D convolution of NHWC `input` with HWIO `filters`; strides [1, sh, sw, 1], padding SAME or VALID."""
    x, w = binary_operands("Conv2D", input, filters)
    if x.ndim != 4 or w.ndim != 4:
        raise ValueError(f"conv2d needs a 4-D NHWC input and 4-D HWIO filters, got {x.shape} and {w.shape}")
    return apply_op("Conv2D", [x, w], name=name or "Conv2D", strides=_spatial(strides, "strides"),
                    padding=_padding(padding))


def _max_pool(x, ksize, strides, padding):
    win, _, _ = _windows(x, *ksize, strides, padding, fill=-np.inf)
    return win.max(axis=(4, 5))


def _max_pool_grad(x, g, ksize, strides, padding):
    kh, kw = ksize
    win, _, _ = _windows(x, kh, kw, strides, padding, fill=-np.inf)
    n, ho, wo, c = win.shape[:4]
    first = win.reshape(n, ho, wo, c, kh * kw).argmax(axis=-1)  # ties go to the first maximum, as in TF
    dcols = np.zeros((n, ho, wo, kh, kw, c), dtype=g.dtype)
    for k in range(kh * kw):
        dcols[:, :, :, k // kw, k % kw] = np.where(first == k, g, 0)
    return np.ascontiguousarray(_scatter_windows(dcols, x.shape, kh, kw, strides, padding))


def _pool_infer(x, ksize, strides, padding):
    if x.shape is None:
        return [(None, x.dtype)]
    dims = [None if d is None else _out_size(d, k, s, padding)[0] for d, k, s in zip(x.shape[1:3], ksize, strides)]
    return [((x.shape[0], *dims, x.shape[3]), x.dtype)]


register("MaxPool", _max_pool, infer=_pool_infer,
         grad=lambda op, g: [apply_op("MaxPoolGrad", [op.inputs[0], g], **op.attrs)])
register("MaxPoolGrad", _max_pool_grad, infer=lambda x, g, **a: [(x.shape, x.dtype)])


def max_pool(value, ksize, strides, padding, name=None):
    """Max over ksize windows of NHWC `value`; ksize and strides as [1, kh, kw, 1]."""
    x = convert_to_tensor(value)
    if x.ndim != 4:
        raise ValueError(f"max_pool needs a 4-D NHWC input, got shape {x.shape} ({x.name!r})")
    return apply_op("MaxPool", [x], name=name or "MaxPool", ksize=_spatial(ksize, "ksize"),
                    strides=_spatial(strides, "strides"), padding=_padding(padding))

mark_fresh("Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter", "MaxPool", "MaxPoolGrad")
