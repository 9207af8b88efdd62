"""2-D convolution, max and average pooling on NHWC images with HWIO filters, vectorized with im2col windows."""
import functools

import numpy as np

from .array_ops import transpose
from .core_ops import convert_to_tensor
from .math_ops import binary_operands
from .kernels import conv as conv_kernels, pool as pool_kernels, taps
from .kernels.conv import out_size
from ..framework.registry import apply_op, get_array_module, op_def, register, register_fusion
from .tensor_util import shape_of, static_shape_of


def _windows(x, kh, kw, strides, padding, fill=0.0):
    """Padded x viewed as (N, Ho, Wo, C, kh, kw) windows (no copy), and the paddings used."""
    (ho, ph), (wo, pw) = (out_size(x.shape[1], kh, strides[0], padding),
                          out_size(x.shape[2], kw, strides[1], padding))
    xp = get_array_module(x)
    if ph != (0, 0) or pw != (0, 0):
        x = xp.pad(x, ((0, 0), ph, pw, (0, 0)), constant_values=fill)
    win = xp.lib.stride_tricks.sliding_window_view(x, (kh, kw), axis=(1, 2))[:, ::strides[0], ::strides[1]]
    return win[:, :ho, :wo], ph, pw


def scatter_windows(dcols, x_shape, kh, kw, strides, padding):
    ph, pw = out_size(x_shape[1], kh, strides[0], padding)[1], out_size(x_shape[2], kw, strides[1], padding)[1]
    return conv_kernels.scatter_windows(dcols, x_shape, strides, ph, pw)


def _conv_infer(x, w, strides, padding):
    if x.ndim is None or w.ndim is None:
        return [(None, x.dtype)]
    dims = [None if d is None else out_size(d, k, s, padding)[0]
            for d, k, s in zip(x.shape[1:3], w.shape[:2], strides)]
    return [((x.shape[0], *dims, w.shape[3]), x.dtype)]


def _conv_grad(op, g):
    x, w = op.inputs
    attrs = dict(strides=op.attrs["strides"], padding=op.attrs["padding"])
    return [apply_op("Conv2DBackpropInput", [g, x, w], **attrs),
            apply_op("Conv2DBackpropFilter", [x, g, w], **attrs)]


def _input_grad_grad(op, d):
    # linear in the output gradient and the filter; x gives only the shape (TF1's input_sizes)
    g, _, w = op.inputs
    attrs = dict(strides=op.attrs["strides"], padding=op.attrs["padding"])
    return [apply_op("Conv2D", [d, w], **attrs), None, apply_op("Conv2DBackpropFilter", [d, g, w], **attrs)]


def _filter_grad_grad(op, d):
    x, g, w = op.inputs
    attrs = dict(strides=op.attrs["strides"], padding=op.attrs["padding"])
    return [apply_op("Conv2DBackpropInput", [g, x, d], **attrs), apply_op("Conv2D", [x, d], **attrs), None]


def _filter_grad(x, g, w, strides, padding, sizes=False):
    if sizes:  # the kernels read only the filter's shape: zeros that take no memory stand for it
        w = np.broadcast_to(np.zeros((), g.dtype), shape_of(w, sizes))
    return conv_kernels.conv2d_filter_grad(x, g, w, strides, padding)


register("Conv2D", conv_kernels.conv2d, infer=_conv_infer, grad=_conv_grad, fresh=True)
register("Conv2DBackpropInput",
         lambda g, x, w, strides, padding, sizes=False: conv_kernels.conv2d_input_grad(
             g, shape_of(x, sizes), w, strides=strides, padding=padding),
         infer=lambda g, x, w, sizes=False, **a: [(static_shape_of(x, sizes), g.dtype)], grad=_input_grad_grad,
         fresh=True)
register("Conv2DBackpropFilter", _filter_grad, infer=lambda x, g, w, sizes=False, **a: [(static_shape_of(w, sizes),
                                                                                          g.dtype)],
         grad=_filter_grad_grad, fresh=True)


def spatial_values(values, what, data_format="NHWC"):
    values = [int(v) for v in (values if np.ndim(values) else [values])]
    if len(values) == 4:
        if data_format == "NCHW":
            values = [values[0], values[2], values[3], values[1]]
        if values[0] != 1 or values[3] != 1:
            raise ValueError(f"{what} over the batch or channel dims is not supported, got {values}")
        return tuple(values[1:3])
    if len(values) == 1:
        return (values[0], values[0])
    if len(values) == 2:
        return tuple(values)
    raise ValueError(f"{what} must have 1, 2 or 4 entries ({data_format}), got {values}")


def check_padding(padding):
    if not isinstance(padding, str):
        raise NotImplementedError(f"explicit paddings are not supported, got {padding!r}: use 'SAME' or 'VALID'")
    padding = padding.upper()
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"padding must be 'SAME' or 'VALID', got {padding!r}")
    return padding


def check_data_format(data_format):
    if data_format not in ("NHWC", "NCHW"):
        raise ValueError(f"data_format must be 'NHWC' or 'NCHW', got {data_format!r}")
    return data_format


def in_nhwc(fn, x, data_format):
    """fn on NHWC data: NCHW input is transposed in and the result back out (the kernels are NHWC only)."""
    if data_format == "NHWC":
        return fn(x)
    return transpose(fn(transpose(x, (0, 2, 3, 1))), (0, 3, 1, 2))


def dilate_filter(w, rates):
    """The HWIO filter with rate - 1 zeros between its taps: a convolution with it is the atrous one."""
    if rates == (1, 1):
        return w
    if w.ndim is None or None in w.shape[:2]:
        raise NotImplementedError(f"dilated conv2d needs a filter of static height and width, got {w.shape}")
    kh, kw, c, o = w.shape
    zeros = apply_op("Zeros", [], shape=((kh - 1) * rates[0] + 1, (kw - 1) * rates[1] + 1, c, o), dtype=w.dtype)
    return apply_op("StridedSliceGrad", [w, zeros], name="dilated_filter",
                    key=(slice(None, None, rates[0]), slice(None, None, rates[1])))


def conv2d(input, filter=None, strides=None, padding=None, use_cudnn_on_gpu=True,  # noqa: A002 - TF1's names
           data_format="NHWC", dilations=None, name=None, filters=None):
    """2-D convolution of NHWC (or NCHW) `input` with HWIO `filter`; padding SAME or VALID.

    strides and dilations are [1, h, w, 1] (NCHW: [1, 1, h, w]) or 1 or 2 ints; use_cudnn_on_gpu is ignored.
    """
    if (filter is None) == (filters is None):
        raise ValueError("conv2d takes the filter as `filter` or `filters` (exactly one of them)")
    if strides is None or padding is None:
        raise ValueError(f"conv2d needs strides and padding, got strides={strides!r} padding={padding!r}")
    x, w = binary_operands("Conv2D", input, filter if filters is None else filters)
    if x.ndim != 4 or w.ndim != 4:
        raise ValueError(f"conv2d needs a 4-D NHWC input and 4-D HWIO filters, got {x.shape} and {w.shape}")
    data_format = check_data_format(data_format)
    strides = spatial_values(strides, "strides", data_format)
    w = dilate_filter(w, spatial_values(1 if dilations is None else dilations, "dilations", data_format))
    padding = check_padding(padding)
    return in_nhwc(lambda nhwc: apply_op("Conv2D", [nhwc, w], name=name or "Conv2D", strides=strides,
                                          padding=padding), x, data_format)


def _max_pool(x, ksize, strides, padding):
    tiled = pool_kernels.tiles(x.shape, ksize, strides, padding)
    if tiled:
        return pool_kernels.max_pool(x, ksize, *tiled)
    win, _, _ = _windows(x, *ksize, strides, padding, fill=-np.inf)
    return win.max(axis=(4, 5))


def _max_pool_grad(x, y, g, ksize, strides, padding):
    tiled = pool_kernels.tiles(x.shape, ksize, strides, padding)
    if tiled:
        return pool_kernels.max_pool_grad(x, y, g, ksize, *tiled)
    return taps.max_pool_grad(x, y, g, ksize, strides, padding)


def _max_pool_grad_inplace(x, y, g, ksize, strides, padding):
    tiled = pool_kernels.tiles(x.shape, ksize, strides, padding)
    if tiled:
        return pool_kernels.max_pool_grad_inplace(x, y, g, ksize, *tiled)
    return taps.max_pool_grad(x, y, g, ksize, strides, padding)


def _relu_max_pool_grad(x, y, g, relu_y, ksize, strides, padding, inplace=False):
    """MaxPoolGrad(x, y, ReluGrad(g, relu_y)) as one kernel where relu_y is y, the pattern ReLU's gradient rule
    builds (nn_ops); else, and where the tiled kernel cannot match the pair to the bit, the two kernels in turn."""
    tiled = pool_kernels.tiles(x.shape, ksize, strides, padding)
    if tiled and relu_y is y:
        dx = pool_kernels.relu_max_pool_grad(x, y, g, ksize, *tiled, inplace=inplace)
        if dx is not NotImplemented:
            return dx
    masked = op_def("ReluGrad").forward(g, relu_y)
    return (_max_pool_grad_inplace if inplace else _max_pool_grad)(x, y, masked, ksize, strides, padding)


def _pool_infer(x, ksize, strides, padding):
    if x.ndim is None:
        return [(None, x.dtype)]
    dims = [None if d is None else out_size(d, k, s, padding)[0] for d, k, s in zip(x.shape[1:3], ksize, strides)]
    return [((x.shape[0], *dims, x.shape[3]), x.dtype)]


register("MaxPool", _max_pool, infer=_pool_infer,
         grad=lambda op, g: [apply_op("MaxPoolGrad", [op.inputs[0], op.outputs[0], g], **op.attrs)], fresh=True)
register("MaxPoolGrad", _max_pool_grad, infer=lambda x, y, g, **a: [(x.shape, x.dtype)], fresh=True,
         inplace=_max_pool_grad_inplace)
register_fusion("MaxPoolGrad", 2, "ReluGrad", _relu_max_pool_grad,
                inplace=functools.partial(_relu_max_pool_grad, inplace=True))


def _pool(op_type, value, ksize, strides, padding, data_format, name):
    x = convert_to_tensor(value)
    if x.ndim != 4:
        raise ValueError(f"{op_type} needs a 4-D NHWC input, got shape {x.shape} ({x.name!r})")
    data_format = check_data_format(data_format)
    attrs = dict(ksize=spatial_values(ksize, "ksize", data_format), strides=spatial_values(strides, "strides", data_format),
                 padding=check_padding(padding))
    return in_nhwc(lambda nhwc: apply_op(op_type, [nhwc], name=name or op_type, **attrs), x, data_format)


def max_pool(value, ksize, strides, padding, data_format="NHWC", name=None):
    """Max over ksize windows of NHWC (or NCHW) `value`; ksize and strides as [1, kh, kw, 1] or ints."""
    return _pool("MaxPool", value, ksize, strides, padding, data_format, name)


def _valid_counts(size, k, stride, padding):
    """How many of each output window's k taps along one dim fall inside the unpadded input."""
    out, (before, _) = out_size(size, k, stride, padding)
    starts = np.arange(out) * stride - before
    return np.minimum(starts + k, size) - np.maximum(starts, 0)


def _avg_divisor(x_shape, ksize, strides, padding, dtype):
    """(Ho, Wo, 1) counts: SAME padding averages over the window's real pixels only, as TF does."""
    rows = _valid_counts(x_shape[1], ksize[0], strides[0], padding)
    cols = _valid_counts(x_shape[2], ksize[1], strides[1], padding)
    return np.outer(rows, cols).astype(dtype)[:, :, None]


def _avg_pool(x, ksize, strides, padding):
    win, _, _ = _windows(x, *ksize, strides, padding)
    return win.sum(axis=(4, 5)) / get_array_module(x).asarray(_avg_divisor(x.shape, ksize, strides, padding, x.dtype))


def _avg_pool_grad(x, g, ksize, strides, padding, sizes=False):
    kh, kw = ksize
    xp, x_shape = get_array_module(g), shape_of(x, sizes)
    share = g / xp.asarray(_avg_divisor(x_shape, ksize, strides, padding, g.dtype))
    dcols = xp.broadcast_to(share[:, :, :, None, None, :], (*share.shape[:3], kh, kw, share.shape[3]))
    return xp.ascontiguousarray(scatter_windows(dcols, x_shape, kh, kw, strides, padding))


register("AvgPool", _avg_pool, infer=_pool_infer,
         grad=lambda op, g: [apply_op("AvgPoolGrad", [op.inputs[0], g], **op.attrs)], fresh=True)
# AvgPoolGrad is linear in g, and its adjoint is AvgPool itself.
register("AvgPoolGrad", _avg_pool_grad, infer=lambda x, g, sizes=False, **a: [(static_shape_of(x, sizes), g.dtype)],
         grad=lambda op, gg: [None, apply_op("AvgPool", [gg], **op.attrs)], fresh=True)


def avg_pool(value, ksize, strides, padding, data_format="NHWC", name=None):
    """Mean over ksize windows of NHWC (or NCHW) `value`; SAME padding counts only the real pixels."""
    return _pool("AvgPool", value, ksize, strides, padding, data_format, name)

