"""Windowed maxima that remember where they came from: grayscale morphology (tf.nn.dilation2d, erosion2d) and
tf.nn.max_pool_with_argmax, on one tap loop. A window's taps are visited row-major and the first maximum wins
ties, as TF's kernels do; taps outside the image (SAME padding) do not take part. The gradients route each
output's gradient to its winning tap: to the input pixel, and for dilation also to the filter entry."""
import collections

import numpy as np

from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from ..framework.registry import apply_op, get_array_module, register
from ..platform.errors import UnimplementedError
from .core_ops import convert_to_tensor
from .kernels.conv import out_size
from .kernels.scatter_at import ufunc_at
from .reverse_ops import reverse
from .tensor_util import static_shape


def _geometry(shape, k, strides, rates, padding):
    """((Ho, Wo), (top, left)) for windows of k taps `rates` apart."""
    (ho, (top, _)), (wo, (left, _)) = (
        out_size(shape[1], (k[0] - 1) * rates[0] + 1, strides[0], padding),
        out_size(shape[2], (k[1] - 1) * rates[1] + 1, strides[1], padding))
    return (ho, wo), (top, left)


def _window_max(x, w, strides, rates, padding):
    """(max over each window of x + w, the winning input row and column): x [N, H, W, C], w [kh, kw, C]."""
    xp = get_array_module(x)
    n, h, wd, c = x.shape
    (ho, wo), (top, left) = _geometry(x.shape, w.shape[:2], strides, rates, padding)
    best = xp.full((n, ho, wo, c), -np.inf, x.dtype)
    rows = xp.zeros((n, ho, wo, c), np.int64)
    cols = xp.zeros((n, ho, wo, c), np.int64)
    ys = xp.arange(ho)[:, None] * strides[0] - top
    xs = xp.arange(wo)[None, :] * strides[1] - left
    for dy in range(w.shape[0]):
        for dx in range(w.shape[1]):
            y, x_ = ys + dy * rates[0], xs + dx * rates[1]
            inside = ((y >= 0) & (y < h) & (x_ >= 0) & (x_ < wd))[None, :, :, None]
            value = x[:, xp.clip(y, 0, h - 1), xp.clip(x_, 0, wd - 1), :] + w[dy, dx]
            better = inside & (value > best)
            best = xp.where(better, value, best)
            rows = xp.where(better, xp.broadcast_to(y[None, :, :, None], better.shape), rows)
            cols = xp.where(better, xp.broadcast_to(x_[None, :, :, None], better.shape), cols)
    return best, rows, cols


def _dilation(x, w, strides, rates, padding, unsupported=None):
    if unsupported:  # TF's kernel refuses these when it runs, not when the op is built
        raise UnimplementedError(f"Dilation2D: {unsupported}")
    return _window_max(x, w, strides, rates, padding)[0]


def _dilation_input_grad(x, w, g, strides, rates, padding):
    _, rows, cols = _window_max(x, w, strides, rates, padding)
    xp = get_array_module(x)
    n, h, wd, c = x.shape
    flat = ((xp.arange(n)[:, None, None, None] * h + rows) * wd + cols) * c + xp.arange(c)
    out = xp.zeros(x.size, x.dtype)
    ufunc_at("add", out, flat.reshape(-1), g.reshape(-1))
    return out.reshape(x.shape)


def _dilation_filter_grad(x, w, g, strides, rates, padding):
    _, rows, cols = _window_max(x, w, strides, rates, padding)
    (ho, wo), (top, left) = _geometry(x.shape, w.shape[:2], strides, rates, padding)
    xp = get_array_module(x)
    dy = (rows - (xp.arange(ho)[:, None] * strides[0] - top)[None, :, :, None]) // rates[0]
    dx = (cols - (xp.arange(wo)[None, :] * strides[1] - left)[None, :, :, None]) // rates[1]
    flat = (dy * w.shape[1] + dx) * w.shape[2] + xp.arange(w.shape[2])
    out = xp.zeros(w.size, w.dtype)
    ufunc_at("add", out, flat.reshape(-1), g.reshape(-1))
    return out.reshape(w.shape)


def _pooled(shape, k, strides, rates, padding):
    """The static output shape of windows of k taps over a static input shape (None where unknown)."""
    if shape is None or k is None:
        return None
    dims = [None, None]
    for i in range(2):
        if shape[1 + i] is not None and k[i] is not None:
            dims[i] = out_size(shape[1 + i], (k[i] - 1) * rates[i] + 1, strides[i], padding)[0]
    return (shape[0], dims[0], dims[1], shape[3])


def _dilation_infer(x, w, strides, rates, padding, unsupported=None):
    return [(_pooled(static_shape(x), static_shape(w), strides, rates, padding), x.dtype)]


def _dilation_grad(op, g):
    x, w = op.inputs
    attrs = {k: op.attrs[k] for k in ("strides", "rates", "padding")}
    return [apply_op("Dilation2DBackpropInput", [x, w, g], name="Dilation2DBackpropInput", **attrs),
            apply_op("Dilation2DBackpropFilter", [x, w, g], name="Dilation2DBackpropFilter", **attrs)]


register("Dilation2D", _dilation, infer=_dilation_infer, grad=_dilation_grad, fresh=True)
register("Dilation2DBackpropInput", _dilation_input_grad, infer=lambda x, w, g, **a: [(x.shape, x.dtype)],
         fresh=True)
register("Dilation2DBackpropFilter", _dilation_filter_grad, infer=lambda x, w, g, **a: [(w.shape, w.dtype)],
         fresh=True)


def _spatial(values, what, default=None):
    if values is None:
        values = default
    values = list(values)
    if len(values) != 4:
        raise ValueError(f"{what} must have 4 elements [1, h, w, 1], got {values!r}")
    return values[1:3]


def _batch_or_depth(strides, rates):
    """What TF's Dilation2D kernel refuses at run time: strides or rates across the batch or the depth."""
    for what, values in (("strides", strides), ("rates", rates)):
        if values is not None and (values[0] != 1 or values[3] != 1):
            return f"Only supports {what} across spatial dimensions, got {list(values)!r}"
    return None


def dilation2d(input, filter=None, strides=None, rates=None, padding=None, name=None, filters=None,  # noqa: A002
               dilations=None):
    """Grayscale dilation: the max over each window of input + filter ([kh, kw, C]), per channel."""
    x = convert_to_tensor(input)
    w = convert_to_tensor(filter if filter is not None else filters, dtype=x.dtype)
    if x.ndim not in (None, 4) or w.ndim not in (None, 3):
        raise ValueError(f"dilation2d takes a [batch, height, width, depth] input and a [height, width, depth] "
                         f"filter, got shapes {x.shape} and {w.shape}")
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"padding must be 'SAME' or 'VALID', got {padding!r}")
    rates = rates if rates is not None else dilations
    attrs = dict(strides=_spatial(strides, "strides"), rates=_spatial(rates, "rates", [1, 1, 1, 1]), padding=padding)
    unsupported = _batch_or_depth(strides, rates)
    return apply_op("Dilation2D", [x, w], name=name or "Dilation2D", **attrs,
                    **({"unsupported": unsupported} if unsupported else {}))


def erosion2d(value, kernel, strides, rates, padding, name=None):
    """Grayscale erosion: the min over each window of value - kernel (the kernel flipped), per channel."""
    with name_scope(name or "erosion2d"):
        kernel = convert_to_tensor(kernel)
        return -dilation2d(-convert_to_tensor(value), reverse(kernel, [0, 1]), strides, rates, padding)


# -- max_pool_with_argmax ------------------------------------------------------------------------------------------

def _argmax_pool(x, ksize, strides, padding, Targmax, include_batch_in_index):  # noqa: N803 - TF's attribute
    out, rows, cols = _window_max(x, get_array_module(x).zeros(tuple(ksize) + (x.shape[3],), x.dtype), strides,
                                  [1, 1], padding)
    n, h, w, c = x.shape
    xp = get_array_module(x)
    index = (rows * w + cols) * c + xp.arange(c)
    if include_batch_in_index:
        index = index + (xp.arange(n) * h * w * c)[:, None, None, None]
    return out, index.astype(Targmax)


def _argmax_pool_infer(x, ksize, strides, padding, Targmax, include_batch_in_index):  # noqa: N803
    shape = _pooled(static_shape(x), ksize, strides, [1, 1], padding)
    return [(shape, x.dtype), (shape, dtypes.as_dtype(Targmax))]


def _grad_with_argmax(x, g, argmax, include_batch_in_index):
    xp = get_array_module(x)
    out = xp.zeros(x.size, x.dtype)
    index = argmax.astype(np.int64)
    if not include_batch_in_index:
        per_image = int(np.prod(x.shape[1:]))
        index = index + (xp.arange(x.shape[0]) * per_image)[:, None, None, None]
    ufunc_at("add", out, index.reshape(-1), g.reshape(-1))
    return out.reshape(x.shape)


register("MaxPoolWithArgmax", _argmax_pool, infer=_argmax_pool_infer, fresh=True,
         grad=lambda op, g, _: [apply_op("MaxPoolGradWithArgmax", [op.inputs[0], g, op.outputs[1]],
                                         name="MaxPoolGradWithArgmax",
                                         include_batch_in_index=op.attrs["include_batch_in_index"])])
register("MaxPoolGradWithArgmax", _grad_with_argmax, infer=lambda x, g, a, **attrs: [(x.shape, x.dtype)],
         fresh=True)


# TF1's generated op wrapper returns its outputs as this namedtuple (sess.run keeps it, and its repr shows it)
MaxPoolWithArgmax = collections.namedtuple("MaxPoolWithArgmax", ["output", "argmax"])


def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC", Targmax=None, name=None,  # noqa: A002,N803
                         output_dtype=None, include_batch_in_index=False):
    """MaxPoolWithArgmax(output, argmax): each window's maximum and its flattened index ((y * width + x) * channels + c, with
    the batch counted in when include_batch_in_index)."""
    if data_format != "NHWC":
        raise ValueError(f"max_pool_with_argmax supports data_format 'NHWC' only, got {data_format!r}")
    x = convert_to_tensor(input)
    if x.ndim not in (None, 4):
        raise ValueError(f"max_pool_with_argmax takes a 4-D input, got shape {x.shape}")
    index_type = dtypes.as_dtype(Targmax or output_dtype or dtypes.int64)
    return MaxPoolWithArgmax(*apply_op("MaxPoolWithArgmax", [x], name=name or "MaxPoolWithArgmax",
                          ksize=_spatial(ksize, "ksize"), strides=_spatial(strides, "strides"), padding=padding,
                          Targmax=index_type, include_batch_in_index=bool(include_batch_in_index)))
