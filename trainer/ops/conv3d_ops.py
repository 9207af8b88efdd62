"""3-D convolution, its transpose and pooling (tf.nn.conv3d, conv3d_transpose, max_pool3d, avg_pool3d) on NDHWC
volumes, DHWIO filters."""
import numpy as np

from .core_ops import convert_to_tensor
from .kernels import taps
from .kernels.conv import out_size
from .math_ops import binary_operands
from .conv_ops import check_padding
from .shape_tensors import known_shape
from ..framework.registry import apply_op, register


def _volume_values(values, what):
    """strides, ksize or dilations as (d, h, w): 5 entries [1, d, h, w, 1], 3 entries or one int."""
    values = [int(v) for v in (values if np.ndim(values) else [values])]
    if len(values) == 5:
        if values[0] != 1 or values[4] != 1:
            raise ValueError(f"{what} over the batch or channel dims is not supported, got {values}")
        return tuple(values[1:4])
    if len(values) in (1, 3):
        return tuple(values) * (3 // len(values))
    raise ValueError(f"{what} must have 1, 3 or 5 entries (NDHWC), got {values}")


def _check_ndhwc(data_format, what):
    if data_format != "NDHWC":
        raise NotImplementedError(f"{what}: ringflow runs data_format='NDHWC' only, got {data_format!r}; "
                                  "transpose the data to NDHWC")


def _out_dims(x, ksize, strides, padding):
    return [None if d is None else out_size(d, k, s, padding)[0] for d, k, s in zip(x.shape[1:4], ksize, strides)]


def _conv_infer(x, w, strides, padding):
    if x.ndim is None or w.ndim is None:
        return [(None, x.dtype)]
    return [((x.shape[0], *_out_dims(x, w.shape[:3], strides, padding), w.shape[4]), x.dtype)]


def _conv_grad(op, g):
    x, w = op.inputs
    return [apply_op("Conv3DBackpropInputV2", [g, x, w], **op.attrs),
            apply_op("Conv3DBackpropFilterV2", [x, g, w], **op.attrs)]


register("Conv3D", taps.conv, infer=_conv_infer, grad=_conv_grad, fresh=True)
register("Conv3DBackpropInputV2", lambda g, x, w, **attrs: taps.conv_input_grad(g, x.shape, w, **attrs),
         infer=lambda g, x, w, **a: [(x.shape, g.dtype)], fresh=True)
register("Conv3DBackpropFilterV2", lambda x, g, w, **attrs: taps.conv_filter_grad(x, g, w.shape, **attrs),
         infer=lambda x, g, w, **a: [(w.shape, g.dtype)], fresh=True,
         # bilinear in x and g: each gradient is the other direction of the convolution with the upstream h
         grad=lambda op, h: [apply_op("Conv3DBackpropInputV2", [op.inputs[1], op.inputs[0], h], **op.attrs),
                             apply_op("Conv3D", [op.inputs[0], h], **op.attrs), None])


def conv3d(input, filter=None, strides=None, padding=None, data_format="NDHWC", dilations=None,  # noqa: A002
           name=None, filters=None):
    """3-D convolution of NDHWC `input` with DHWIO `filter`; strides [1, d, h, w, 1]; padding SAME or VALID."""
    if (filter is None) == (filters is None):
        raise ValueError("conv3d takes the filter as `filter` or `filters` (exactly one of them)")
    if strides is None or padding is None:
        raise ValueError(f"conv3d needs strides and padding, got strides={strides!r} padding={padding!r}")
    _check_ndhwc(data_format, "conv3d")
    if dilations is not None and _volume_values(dilations, "dilations") != (1, 1, 1):
        raise NotImplementedError(f"conv3d with dilations {dilations!r} is not implemented; only 1")
    x, w = binary_operands("Conv3D", input, filter if filters is None else filters)
    if x.ndim != 5 or w.ndim != 5:
        raise ValueError(f"conv3d needs a 5-D NDHWC input and 5-D DHWIO filters, got {x.shape} and {w.shape}")
    return apply_op("Conv3D", [x, w], name=name or "Conv3D", strides=_volume_values(strides, "strides"),
                    padding=check_padding(padding))


def _transpose(value, w, output_shape, strides, padding, static=None):
    shape = tuple(int(d) for d in output_shape)
    outs = tuple(out_size(d, k, s, padding)[0] for d, k, s in zip(shape[1:4], w.shape[:3], strides))
    if len(shape) != 5 or shape[0] != value.shape[0] or shape[4] != w.shape[3] or outs != value.shape[1:4]:
        raise ValueError(f"conv3d_transpose: output_shape {shape} does not fit a value of shape {value.shape} and "
                         f"a filter of shape {w.shape} ({padding}, strides {strides}): a convolution maps it to "
                         f"{outs}")
    return taps.conv_input_grad(value, shape, w, strides, padding)


def _transpose_grad(op, g):
    value, w, _ = op.inputs
    attrs = dict(strides=op.attrs["strides"], padding=op.attrs["padding"])
    return [apply_op("Conv3D", [g, w], **attrs), apply_op("Conv3DBackpropFilterV2", [g, value, w], **attrs), None]


register("Conv3DTranspose", _transpose, infer=lambda value, w, shape, static=None, **a: [(static, value.dtype)],
         grad=_transpose_grad, fresh=True)


def conv3d_transpose(value, filter=None, output_shape=None, strides=None, padding="SAME",  # noqa: A002
                     data_format="NDHWC", name=None, filters=None):
    """The transpose (gradient) of conv3d: `value` (N, D, H, W, in) and `filter` (kd, kh, kw, out, in) give a
    tensor of `output_shape` (a list of ints/Tensors, or a Tensor)."""
    _check_ndhwc(data_format, "conv3d_transpose")
    if (filter is None) == (filters is None) or output_shape is None or strides is None:
        raise ValueError("conv3d_transpose needs value, filter (or filters), output_shape and strides")
    x, w = binary_operands("Conv3DTranspose", value, filter if filters is None else filters)
    if x.ndim != 5 or w.ndim != 5:
        raise ValueError(f"conv3d_transpose needs a 5-D value and a 5-D filter, got {x.shape} and {w.shape}")
    shape_t = convert_to_tensor(output_shape)  # a list holding Tensors is packed, as TF1 does
    dims = known_shape(shape_t)
    return apply_op("Conv3DTranspose", [x, w, shape_t], name=name or "conv3d_transpose",
                    strides=_volume_values(strides, "strides"), padding=check_padding(padding),
                    static=None if dims is None else tuple(dims))


def _pool_infer(x, ksize, strides, padding):
    if x.ndim is None:
        return [(None, x.dtype)]
    return [((x.shape[0], *_out_dims(x, ksize, strides, padding), x.shape[4]), x.dtype)]


register("MaxPool3D", taps.max_pool, infer=_pool_infer,
         grad=lambda op, g: [apply_op("MaxPool3DGrad", [op.inputs[0], op.outputs[0], g], **op.attrs)], fresh=True)
register("MaxPool3DGrad", taps.max_pool_grad, infer=lambda x, y, g, **a: [(x.shape, x.dtype)], fresh=True)
register("AvgPool3D", taps.avg_pool, infer=_pool_infer,
         grad=lambda op, g: [apply_op("AvgPool3DGrad", [op.inputs[0], g], **op.attrs)], fresh=True)
register("AvgPool3DGrad", lambda x, g, **attrs: taps.avg_pool_grad(x.shape, g, **attrs),
         infer=lambda x, g, **a: [(x.shape, g.dtype)], fresh=True)


def _pool3d(op_type, value, ksize, strides, padding, data_format, name):
    _check_ndhwc(data_format, op_type)
    x = convert_to_tensor(value)
    if x.ndim != 5:
        raise ValueError(f"{op_type} needs a 5-D NDHWC input, got shape {x.shape} ({x.name!r})")
    return apply_op(op_type, [x], name=name or op_type, ksize=_volume_values(ksize, "ksize"),
                    strides=_volume_values(strides, "strides"), padding=check_padding(padding))


def max_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    """Max over ksize windows of an NDHWC volume; ksize and strides as [1, d, h, w, 1]."""
    return _pool3d("MaxPool3D", input, ksize, strides, padding, data_format, name)


def avg_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    """Mean over ksize windows of an NDHWC volume; SAME padding counts only the real voxels, as TF does."""
    return _pool3d("AvgPool3D", input, ksize, strides, padding, data_format, name)
