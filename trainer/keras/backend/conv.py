"""Keras' backend convolutions beyond conv1d/conv2d: transposed, 3-D and separable convolutions, 3-D pooling, the
unshared (locally connected) convolutions, padding and resizing. channels_first data is transposed to
channels-last around the channels-last ops, as ringflow's NCHW tf.nn ops do."""
import itertools

import numpy as np

from ...ops.array_ops import reshape, transpose
from ...ops.conv3d_ops import avg_pool3d, conv3d as tf_conv3d, max_pool3d
from ...ops.conv_transpose_ops import conv2d_transpose as tf_conv2d_transpose
from ...ops.depthwise_conv_ops import separable_conv2d as tf_separable_conv2d
from ...ops.math_ops import matmul
from ...ops.pad_ops import pad
from ...ops.stack_ops import stack
from .config import image_data_format
from .math import repeat_elements
from .variables import int_shape, shape


def _format(data_format):
    data_format = data_format or image_data_format()
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(f"Unknown data_format: {data_format!r}; use 'channels_last' or 'channels_first'")
    return data_format


def _to_last(x, data_format):
    rank = len(int_shape(x))
    return x if data_format == "channels_last" else transpose(x, [0] + list(range(2, rank)) + [1])


def _from_last(x, data_format):
    rank = len(int_shape(x))
    return x if data_format == "channels_last" else transpose(x, [0, rank - 1] + list(range(1, rank - 1)))


def _only_unit_dilation(dilation_rate, who):
    if any(d != 1 for d in dilation_rate):
        raise ValueError(f"{who}: ringflow runs dilation_rate=1 only here, got {tuple(dilation_rate)!r}")


def conv2d_transpose(x, kernel, output_shape, strides=(1, 1), padding="valid", data_format=None,
                     dilation_rate=(1, 1)):
    """The transposed 2-D convolution of `x` to `output_shape` (in the data format; a None batch is x's)."""
    data_format = _format(data_format)
    _only_unit_dilation(dilation_rate, "conv2d_transpose")
    output_shape = list(output_shape)
    if data_format == "channels_first":
        output_shape = [output_shape[0], output_shape[2], output_shape[3], output_shape[1]]
    if output_shape[0] is None:
        output_shape = stack([shape(x)[0]] + output_shape[1:])
    out = tf_conv2d_transpose(_to_last(x, data_format), kernel, output_shape, strides=(1,) + tuple(strides) + (1,),
                              padding=padding.upper())
    return _from_last(out, data_format)


def conv3d(x, kernel, strides=(1, 1, 1), padding="valid", data_format=None, dilation_rate=(1, 1, 1)):
    """3-D convolution with a (depth, height, width, in, out) kernel."""
    data_format = _format(data_format)
    out = tf_conv3d(_to_last(x, data_format), kernel, strides=(1,) + tuple(strides) + (1,), padding=padding.upper(),
                    dilations=(1,) + tuple(dilation_rate) + (1,))
    return _from_last(out, data_format)


def separable_conv2d(x, depthwise_kernel, pointwise_kernel, strides=(1, 1), padding="valid", data_format=None,
                     dilation_rate=(1, 1)):
    """A depthwise 2-D convolution followed by a 1x1 (pointwise) one."""
    data_format = _format(data_format)
    out = tf_separable_conv2d(_to_last(x, data_format), depthwise_kernel, pointwise_kernel,
                              strides=(1,) + tuple(strides) + (1,), padding=padding.upper(), rate=tuple(dilation_rate))
    return _from_last(out, data_format)


def pool3d(x, pool_size, strides=(1, 1, 1), padding="valid", data_format=None, pool_mode="max"):
    """Max or average 3-D pooling."""
    if pool_mode not in ("max", "avg"):
        raise ValueError(f"Invalid pool_mode: {pool_mode!r}; use 'max' or 'avg'")
    data_format = _format(data_format)
    pool = max_pool3d if pool_mode == "max" else avg_pool3d
    out = pool(_to_last(x, data_format), (1,) + tuple(pool_size) + (1,), (1,) + tuple(strides) + (1,),
               padding.upper())
    return _from_last(out, data_format)


def local_conv(inputs, kernel, kernel_size, strides, output_shape, data_format=None):
    """The unshared convolution: at each output position (row-major over `output_shape`) the flattened input
    window times that position's (window size, filters) slice of `kernel` (positions, window size, filters); the
    window flattens in the data format's order (channels last or first), as Keras lays the weights out."""
    data_format = _format(data_format)
    x = _to_last(inputs, data_format)
    channels = int_shape(x)[-1]
    patches = []
    for out in itertools.product(*(range(n) for n in output_shape)):
        window = x[(slice(None),) + tuple(slice(at * s, at * s + k) for at, s, k in zip(out, strides, kernel_size))]
        if data_format == "channels_first":
            window = transpose(window, [0, len(kernel_size) + 1] + list(range(1, len(kernel_size) + 1)))
        patches.append(reshape(window, (-1, int(np.prod(kernel_size)) * channels)))
    out = transpose(matmul(stack(patches), kernel), (1, 0, 2))
    out = reshape(out, (-1,) + tuple(output_shape) + (int_shape(kernel)[-1],))
    return _from_last(out, data_format)


def local_conv1d(inputs, kernel, kernel_size, strides, data_format=None):
    """local_conv over steps, the output length from the kernel's first axis."""
    return local_conv(inputs, kernel, tuple(kernel_size), tuple(strides), (int_shape(kernel)[0],), data_format)


def local_conv2d(inputs, kernel, kernel_size, strides, output_shape, data_format=None):
    """local_conv over rows and columns."""
    return local_conv(inputs, kernel, tuple(kernel_size), tuple(strides), tuple(output_shape), data_format)


def temporal_padding(x, padding=(1, 1)):
    """Zeros before and after the steps of (batch, steps, features)."""
    return pad(x, [[0, 0], list(padding), [0, 0]])


def _spatial_padding(x, padding, data_format):
    spatial = [list(p) for p in padding]
    if _format(data_format) == "channels_first":
        return pad(x, [[0, 0], [0, 0]] + spatial)
    return pad(x, [[0, 0]] + spatial + [[0, 0]])


def spatial_2d_padding(x, padding=((1, 1), (1, 1)), data_format=None):
    """Zeros around rows and columns."""
    return _spatial_padding(x, padding, data_format)


def spatial_3d_padding(x, padding=((1, 1), (1, 1), (1, 1)), data_format=None):
    """Zeros around the three spatial axes."""
    return _spatial_padding(x, padding, data_format)


def resize_images(x, height_factor, width_factor, data_format, interpolation="nearest"):
    """Rows and columns repeated by integer factors (nearest; Keras' nearest resize does the same)."""
    if interpolation != "nearest":
        raise ValueError(f"resize_images: ringflow resizes with interpolation='nearest' only, got "
                         f"{interpolation!r}; use tf.image.resize_bilinear on channels-last images")
    first = _format(data_format) == "channels_first"
    axes = (2, 3) if first else (1, 2)
    return repeat_elements(repeat_elements(x, height_factor, axes[0]), width_factor, axes[1])


def resize_volumes(x, depth_factor, height_factor, width_factor, data_format):
    """The three spatial axes repeated by integer factors."""
    first = _format(data_format) == "channels_first"
    for axis, factor in zip((2, 3, 4) if first else (1, 2, 3), (depth_factor, height_factor, width_factor)):
        x = repeat_elements(x, factor, axis)
    return x

