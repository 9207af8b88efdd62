"""tf.nn's entry points that pick a convolution or pool by the input's rank (convolution, conv_transpose, pool,
max_pool_v2, avg_pool_v2), the explicitly 1-D and 2-D pools, atrous_conv2d, conv1d_transpose, and TF1's names for the
convolutions' gradients (conv2d_backprop_input/filter, depthwise_conv2d_native_backprop_input/filter), all on the ops
of conv_ops, conv1d_ops, conv3d_ops and depthwise_conv_ops."""
from ..framework.graph_wrappers import name_scope
from ..framework.registry import apply_op
from .conv1d_ops import conv1d
from .conv3d_ops import avg_pool3d, conv3d, conv3d_transpose, max_pool3d
from .conv_ops import avg_pool, check_padding, conv2d, max_pool, spatial_values
from .conv_transpose_ops import conv2d_transpose
from .array_ops import reshape, shape as shape_of, zeros
from .core_ops import convert_to_tensor
from .pad_ops import pad
from .shape_ops import expand_dims, squeeze
from .tensor_util import static_ints


def _rank(x, what):
    x = convert_to_tensor(x)
    if x.ndim not in (3, 4, 5):
        raise ValueError(f"{what} needs an input of rank 3, 4 or 5 (1-D, 2-D or 3-D with batch and channels), got "
                         f"{x.name!r} of shape {x.shape}")
    return x


def _window(value, dims, what):
    """A window or stride given as one int, `dims` ints or the full [1, ..., 1] form, as the full form."""
    values = [int(value)] if isinstance(value, int) else [int(v) for v in value]
    if len(values) == 1:
        values = values * dims
    if len(values) == dims:
        values = [1, *values, 1]
    if len(values) != dims + 2:
        raise ValueError(f"{what} must be an int or a list of 1, {dims} or {dims + 2} ints, got {value!r}")
    return values


def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002 - TF1's name
    """max_pool over the width of [batch, width, channels]."""
    return _pool1d(max_pool, input, ksize, strides, padding, data_format, name or "MaxPool1d")


def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002 - TF1's name
    """avg_pool over the width of [batch, width, channels]."""
    return _pool1d(avg_pool, input, ksize, strides, padding, data_format, name or "AvgPool1D")


def _pool1d(pool, x, ksize, strides, padding, data_format, name):
    if data_format != "NWC":
        raise NotImplementedError(f"1-D pooling with data_format={data_format!r} is not supported; only NWC")
    with name_scope(name):
        x = expand_dims(convert_to_tensor(x), 1)
        k, s = _window(ksize, 1, "ksize"), _window(strides, 1, "strides")
        return squeeze(pool(x, [1, 1, k[1], 1], [1, 1, s[1], 1], padding), [1])


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002 - TF1's name
    """max_pool under its TF2 name."""
    return max_pool(input, ksize, strides, padding, data_format=data_format, name=name)


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002 - TF1's name
    """avg_pool under its TF2 name."""
    return avg_pool(input, ksize, strides, padding, data_format=data_format, name=name)


def _by_rank(pools, input, ksize, strides, padding, data_format, name, what):
    x = _rank(input, what)
    dims = x.ndim - 2
    if data_format is not None and not data_format.startswith("N") or data_format and data_format[-1] != "C":
        raise NotImplementedError(f"{what} with data_format={data_format!r} is not supported; only channels last")
    k, s = _window(ksize, dims, "ksize"), _window(strides, dims, "strides")
    if dims == 1:
        return _pool1d(pools[0], x, k[1:2], s[1:2], padding, "NWC", name or what)
    return pools[dims - 1](x, k, s, padding, name=name)


def max_pool_v2(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002 - TF1's name
    """Max pooling of a 1-D, 2-D or 3-D input (batch and channels around it), chosen by its rank."""
    return _by_rank((max_pool, max_pool, max_pool3d), input, ksize, strides, padding, data_format, name,
                    "max_pool_v2")


def avg_pool_v2(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002 - TF1's name
    """Average pooling of a 1-D, 2-D or 3-D input, chosen by its rank."""
    return _by_rank((avg_pool, avg_pool, avg_pool3d), input, ksize, strides, padding, data_format, name,
                    "avg_pool_v2")


def pool(input, window_shape, pooling_type, padding, dilation_rate=None, strides=None, name=None,  # noqa: A002
         data_format=None, dilations=None):
    """TF1's tf.nn.pool: "MAX" or "AVG" pooling over window_shape (no dilation here)."""
    rates = dilation_rate if dilation_rate is not None else dilations
    if rates is not None and any(int(r) != 1 for r in rates):
        raise NotImplementedError(f"pool with dilation_rate {rates!r} is not supported in ringflow; only 1")
    if pooling_type not in ("MAX", "AVG"):
        raise ValueError(f"pool: pooling_type must be 'MAX' or 'AVG', got {pooling_type!r}")
    pick = max_pool_v2 if pooling_type == "MAX" else avg_pool_v2
    return pick(input, list(window_shape), list(strides or [1] * len(window_shape)), padding,
                data_format=data_format, name=name)


def convolution(input, filter, padding, strides=None, dilation_rate=None, name=None, data_format=None,  # noqa: A002
                filters=None, dilations=None):
    """N-D convolution (N = 1, 2 or 3, by the input's rank) with optional strides and dilation rates."""
    w = filter if filters is None else filters
    rates = dilation_rate if dilation_rate is not None else dilations
    x = _rank(input, "convolution")
    dims = x.ndim - 2
    if data_format is not None and data_format[-1] != "C":
        raise NotImplementedError(f"convolution with data_format={data_format!r} is not supported; only channels "
                                  "last")
    strides = [1] * dims if strides is None else [int(s) for s in ([strides] * dims if isinstance(strides, int)
                                                                    else strides)]
    rates = [1] * dims if rates is None else [int(r) for r in ([rates] * dims if isinstance(rates, int) else rates)]
    if dims == 1:
        return conv1d(x, w, strides[0], padding, dilations=rates[0], name=name or "convolution")
    if dims == 2:
        return conv2d(x, w, [1, *strides, 1], padding, dilations=[1, *rates, 1], name=name or "convolution")
    return conv3d(x, w, [1, *strides, 1], padding, dilations=[1, *rates, 1], name=name or "convolution")


def atrous_conv2d(value, filters, rate, padding, name=None):
    """2-D convolution with holes: the filter's taps `rate` pixels apart (conv2d with dilations)."""
    return conv2d(value, filters, [1, 1, 1, 1], padding, dilations=[1, int(rate), int(rate), 1],
                  name=name or "atrous_conv2d")


def atrous_conv2d_transpose(value, filters, output_shape, rate, padding, name=None):
    """The transpose (gradient) of atrous_conv2d: conv2d_transpose with the filter's taps `rate` pixels apart."""
    if int(rate) < 1:
        raise ValueError(f"rate {rate!r} cannot be less than one")
    with name_scope(name or "atrous_conv2d_transpose"):
        return conv2d_transpose(value, _dilated(convert_to_tensor(filters), int(rate)), output_shape, [1, 1, 1, 1],
                                padding=padding)


def _dilated(filters, rate):
    """The [kh, kw, out, in] filter with rate - 1 zeros between its taps (graph ops: the gradient reaches it)."""
    shape = static_ints(shape_of(filters), "atrous_conv2d_transpose filters' shape") if rate > 1 else None
    for axis in (0, 1) if rate > 1 else ():
        spread = pad(expand_dims(filters, axis + 1), [[0, rate - 1] if i == axis + 1 else [0, 0] for i in range(5)])
        dims = [d * rate if i == axis else d for i, d in enumerate(shape)]
        filters = reshape(spread, dims)[(slice(None),) * axis + (slice(0, (shape[axis] - 1) * rate + 1),)]
        shape = [(shape[axis] - 1) * rate + 1 if i == axis else d for i, d in enumerate(shape)]
    return filters


def conv2d_backprop_input(input_sizes, filter=None, out_backprop=None, strides=None, padding=None,  # noqa: A002
                          use_cudnn_on_gpu=True, data_format="NHWC", dilations=None, name=None, filters=None):
    """The gradient of conv2d with respect to its input, of shape input_sizes (TF1's Conv2DBackpropInput)."""
    w = filter if filters is None else filters
    if data_format != "NHWC":
        raise NotImplementedError(f"conv2d_backprop_input with data_format={data_format!r}: only NHWC here")
    return conv2d_transpose(out_backprop, w, input_sizes, strides, padding=padding, dilations=dilations,
                            name=name or "Conv2DBackpropInput")


def conv3d_backprop_filter_v2(input, filter_sizes, out_backprop, strides, padding, data_format="NDHWC",  # noqa: A002
                              dilations=(1, 1, 1, 1, 1), name=None):
    """The gradient of conv3d with respect to its filter, of shape filter_sizes (TF's Conv3DBackpropFilterV2)."""
    if data_format != "NDHWC":
        raise NotImplementedError(f"conv3d_backprop_filter with data_format={data_format!r}: only NDHWC here")
    strides, dilations = list(strides), list(dilations)
    if len(strides) != 5 or strides[0] != 1 or strides[4] != 1 or list(dilations) != [1] * 5:
        raise ValueError(f"conv3d_backprop_filter takes strides [1, d, h, w, 1] and no dilations, got strides "
                         f"{strides!r} and dilations {dilations!r}")
    x, g = convert_to_tensor(input), convert_to_tensor(out_backprop)
    like = zeros(static_ints(filter_sizes, "conv3d_backprop_filter filter_sizes"), x.dtype)  # read for its shape
    return apply_op("Conv3DBackpropFilterV2", [x, g, like], name=name or "Conv3DBackpropFilterV2",
                    strides=tuple(int(v) for v in strides[1:4]), padding=check_padding(padding))


def conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding, use_cudnn_on_gpu=True,  # noqa: A002
                           data_format="NHWC", dilations=None, name=None):
    """The gradient of conv2d with respect to its filter, of shape filter_sizes (TF1's Conv2DBackpropFilter)."""
    if data_format != "NHWC":
        raise NotImplementedError(f"conv2d_backprop_filter with data_format={data_format!r}: only NHWC here")
    if dilations is not None and spatial_values(dilations, "dilations") != (1, 1):
        raise NotImplementedError(f"conv2d_backprop_filter with dilations {dilations!r}: only 1 here")
    x, g = convert_to_tensor(input), convert_to_tensor(out_backprop)
    sizes = static_ints(filter_sizes, "conv2d_backprop_filter filter_sizes")
    like = zeros(sizes, x.dtype)  # the op reads only the filter's shape
    return apply_op("Conv2DBackpropFilter", [x, g, like], name=name or "Conv2DBackpropFilter",
                    strides=spatial_values(strides, "strides"), padding=check_padding(padding))


def _depthwise_backprop(op_type, x, g, w, strides, padding, data_format, dilations, name):
    if data_format != "NHWC":
        raise NotImplementedError(f"{op_type} with data_format={data_format!r}: only NHWC here")
    if dilations is not None and spatial_values(dilations, "dilations") != (1, 1):
        raise NotImplementedError(f"{op_type} with dilations {dilations!r}: only 1 here")
    return apply_op(op_type, [x, g, w] if op_type.endswith("Filter") else [g, x, w], name=name or op_type,
                    strides=spatial_values(strides, "strides"), padding=check_padding(padding))


def depthwise_conv2d_native_backprop_input(input_sizes, filter, out_backprop, strides, padding,  # noqa: A002
                                           data_format="NHWC", dilations=None, name=None):
    """The gradient of depthwise_conv2d_native with respect to its input, of shape input_sizes."""
    w, g = convert_to_tensor(filter), convert_to_tensor(out_backprop)
    like = zeros(static_ints(input_sizes, "depthwise_conv2d_native_backprop_input input_sizes"), g.dtype)
    return _depthwise_backprop("DepthwiseConv2dNativeBackpropInput", like, g, w, strides, padding, data_format,
                               dilations, name)


def depthwise_conv2d_native_backprop_filter(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                                            data_format="NHWC", dilations=None, name=None):
    """The gradient of depthwise_conv2d_native with respect to its filter, of shape filter_sizes."""
    x, g = convert_to_tensor(input), convert_to_tensor(out_backprop)
    like = zeros(static_ints(filter_sizes, "depthwise_conv2d_native_backprop_filter filter_sizes"), g.dtype)
    return _depthwise_backprop("DepthwiseConv2dNativeBackpropFilter", x, g, like, strides, padding, data_format,
                               dilations, name)


def conv1d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NWC",  # noqa: A002
                     dilations=None, name=None):
    """The transpose (gradient) of conv1d: conv2d_transpose over a height of 1."""
    if data_format != "NWC":
        raise NotImplementedError(f"conv1d_transpose with data_format={data_format!r}: only NWC here")
    with name_scope(name or "conv1d_transpose"):
        shape = static_ints(output_shape, "conv1d_transpose output_shape")
        stride = _window(strides, 1, "strides")[1]
        out = conv2d_transpose(expand_dims(convert_to_tensor(input), 1), expand_dims(convert_to_tensor(filters), 0),
                               [shape[0], 1, shape[1], shape[2]], [1, 1, stride, 1], padding=padding,
                               dilations=dilations)
        return squeeze(out, [1])


def conv_transpose(input, filters, output_shape, strides, padding="SAME", data_format=None,  # noqa: A002
                   dilations=None, name=None):
    """The transpose of convolution, 1-D, 2-D or 3-D by the rank of output_shape (3, 4 or 5 entries)."""
    rank = len(static_ints(output_shape, "conv_transpose output_shape"))
    if rank not in (3, 4, 5):
        raise ValueError(f"conv_transpose: output_shape must have 3, 4 or 5 entries, got {output_shape!r}")
    if rank == 3:
        return conv1d_transpose(input, filters, output_shape, strides, padding=padding, dilations=dilations,
                                name=name)
    full = _window(strides, rank - 2, "strides")
    if rank == 4:
        return conv2d_transpose(input, filters, output_shape, full, padding=padding, dilations=dilations,
                                name=name or "conv_transpose")
    return conv3d_transpose(input, filters, output_shape, full, padding=padding, name=name or "conv_transpose")
