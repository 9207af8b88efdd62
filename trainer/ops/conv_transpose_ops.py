"""conv2d_transpose: the adjoint of conv2d (its input gradient) as a forward op, NHWC with HWOI filters."""
import numpy as np

from ..platform.errors import InvalidArgumentError
from .kernels.conv import out_size
from .conv_ops import check_data_format, in_nhwc, check_padding, scatter_windows, spatial_values
from .core_ops import convert_to_tensor
from .math_ops import binary_operands
from ..framework.registry import apply_op, get_array_module, register
from .shape_tensors import known_shape


def _check_sizes(out_hw, in_hw, kernel, strides, padding):
    for size, got, k, s in zip(out_hw, in_hw, kernel, strides):
        if size is not None and got is not None and out_size(size, k, s, padding)[0] != got:
            return (f"output_shape's spatial size {size} does not fit: a {padding} convolution with a {k}-wide "
                    f"filter and stride {s} maps {size} to {out_size(size, k, s, padding)[0]}, but the input has "
                    f"{got}")
    return None


def _conv_transpose(value, w, output_shape, strides, padding, static=None):
    kh, kw, c, o = w.shape
    n, ho, wo, _ = value.shape
    shape = tuple(int(d) for d in output_shape)
    problem = _check_sizes(shape[1:3], (ho, wo), (kh, kw), strides, padding)
    if problem or shape[0] != n or shape[3] != c:
        problem = problem or f"output_shape {shape} does not fit a value of shape {value.shape} and filter {w.shape}"
        raise InvalidArgumentError(f"conv2d_transpose: {problem}")
    xp = get_array_module(value)
    dcols = xp.dot(value.reshape(-1, o), w.reshape(-1, o).T).reshape(n, ho, wo, kh, kw, c)
    return xp.ascontiguousarray(scatter_windows(dcols, shape, kh, kw, strides, padding))


def _infer(value, w, output_shape, strides, padding, static):
    return [(static, value.dtype)]


def _grad(op, g):
    value, w, _ = op.inputs
    attrs = dict(strides=op.attrs["strides"], padding=op.attrs["padding"])
    return [apply_op("Conv2D", [g, w], **attrs), apply_op("Conv2DBackpropFilter", [g, value, w], **attrs), None]


register("Conv2DTranspose", _conv_transpose, infer=_infer, grad=_grad, fresh=True)


def conv2d_transpose(value=None, filter=None, output_shape=None, strides=None, padding="SAME",  # noqa: A002
                     data_format="NHWC", name=None, input=None, filters=None, dilations=None):  # noqa: A002
    """The transpose (gradient) of conv2d: `value` (N, H, W, out_channels) and `filter` (kh, kw, out_channels of
    this op, in_channels = value's channels) give a tensor of `output_shape` (a list of ints/Tensors, or a Tensor)."""
    value = value if input is None else input
    filter = filter if filters is None else filters
    if value is None or filter is None or output_shape is None or strides is None:
        raise ValueError("conv2d_transpose needs value, filter, output_shape and strides")
    if dilations is not None and any(int(d) != 1 for d in np.ravel(dilations)):
        raise NotImplementedError(f"conv2d_transpose with dilations {dilations!r} is not implemented; only 1")
    x, w = binary_operands("Conv2DTranspose", value, filter)
    if x.ndim != 4 or w.ndim != 4:
        raise ValueError(f"conv2d_transpose needs a 4-D value and 4-D filter, got {x.shape} and {w.shape}")
    data_format, padding = check_data_format(data_format), check_padding(padding)
    strides = spatial_values(strides, "strides", data_format)
    shape_t = convert_to_tensor(output_shape)  # a list holding Tensors is packed, as TF1 does
    dims = known_shape(shape_t)
    dims = None if dims is None else list(dims)
    if data_format == "NCHW":
        dims = None if dims is None else [dims[0], dims[2], dims[3], dims[1]]
        shape_t = apply_op("GatherV2", [shape_t, convert_to_tensor(np.array([0, 2, 3, 1], np.int32))], axis=0)
    if dims is not None and len(dims) != 4:
        raise ValueError(f"conv2d_transpose: output_shape must have 4 entries, got {output_shape!r}")
    if dims is not None and w.shape[2] is not None and dims[3] not in (None, w.shape[2]):
        raise ValueError(f"conv2d_transpose: output_shape's channels {dims[3]} do not match the filter's "
                         f"{w.shape[2]} (filter shape {w.shape} is [height, width, output_channels, in_channels])")
    if w.shape[3] is not None and x.shape[3 if data_format == "NHWC" else 1] not in (None, w.shape[3]):
        raise ValueError(f"conv2d_transpose: the value's channels do not match the filter's in_channels "
                         f"{w.shape[3]}: value shape {x.shape}, filter shape {w.shape}")
    if dims is not None and None not in w.shape[:2]:
        in_hw = x.shape[1:3] if data_format == "NHWC" else x.shape[2:4]
        problem = _check_sizes(dims[1:3], list(in_hw), w.shape[:2], strides, padding)
        if problem:
            raise ValueError(f"conv2d_transpose: {problem}")
    return in_nhwc(lambda nhwc: apply_op("Conv2DTranspose", [nhwc, w, shape_t], name=name or "conv2d_transpose",
                                          strides=strides, padding=padding, static=dims), x, data_format)
