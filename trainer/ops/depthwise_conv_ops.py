"""Depthwise and separable 2-D convolutions (tf.nn.depthwise_conv2d, separable_conv2d), NHWC, filters
(kh, kw, in_channels, channel_multiplier): each input channel convolved with its own filters."""
from .conv_ops import check_data_format, check_padding, conv2d, dilate_filter, in_nhwc, spatial_values
from .kernels import taps
from .kernels.conv import out_size
from .math_ops import binary_operands
from ..framework.graph_wrappers import name_scope
from ..framework.registry import apply_op, register


def _infer(x, w, strides, padding):
    if x.ndim is None or w.ndim is None:
        return [(None, x.dtype)]
    dims = [None if d is None else out_size(d, k, s, padding)[0] for d, k, s in zip(x.shape[1:3], w.shape[:2], strides)]
    channels = None if None in w.shape[2:] else w.shape[2] * w.shape[3]
    return [((x.shape[0], *dims, channels), x.dtype)]


def _grad(op, g):
    x, w = op.inputs
    return [apply_op("DepthwiseConv2dNativeBackpropInput", [g, x, w], **op.attrs),
            apply_op("DepthwiseConv2dNativeBackpropFilter", [x, g, w], **op.attrs)]


register("DepthwiseConv2dNative", taps.depthwise, infer=_infer, grad=_grad, fresh=True)
def _input_grad_grad(op, d):
    # linear in the output gradient and the filter; x gives only the shape (TF1's input_sizes)
    g, _, w = op.inputs
    return [apply_op("DepthwiseConv2dNative", [d, w], **op.attrs), None,
            apply_op("DepthwiseConv2dNativeBackpropFilter", [d, g, w], **op.attrs)]


def _filter_grad_grad(op, d):
    x, g, w = op.inputs
    return [apply_op("DepthwiseConv2dNativeBackpropInput", [g, x, d], **op.attrs),
            apply_op("DepthwiseConv2dNative", [x, d], **op.attrs), None]


register("DepthwiseConv2dNativeBackpropInput",
         lambda g, x, w, **attrs: taps.depthwise_input_grad(g, x.shape, w, **attrs),
         infer=lambda g, x, w, **a: [(x.shape, g.dtype)], grad=_input_grad_grad, fresh=True)
register("DepthwiseConv2dNativeBackpropFilter",
         lambda x, g, w, **attrs: taps.depthwise_filter_grad(x, g, w.shape, **attrs),
         infer=lambda x, g, w, **a: [(w.shape, g.dtype)], grad=_filter_grad_grad, fresh=True)


def depthwise_conv2d_native(input, filter, strides, padding, data_format="NHWC", dilations=None,  # noqa: A002
                            name=None):
    """Depthwise convolution of NHWC (or NCHW) `input` with a (kh, kw, in_channels, multiplier) `filter`;
    strides and dilations [1, h, w, 1] (or 1 or 2 ints); output channel c * multiplier + m."""
    x, w = binary_operands("DepthwiseConv2dNative", input, filter)
    if x.ndim != 4 or w.ndim != 4:
        raise ValueError(f"depthwise_conv2d needs a 4-D input and a 4-D filter, got {x.shape} and {w.shape}")
    data_format = check_data_format(data_format)
    channels = x.shape[3 if data_format == "NHWC" else 1]
    if None not in (channels, w.shape[2]) and channels != w.shape[2]:
        raise ValueError(f"depthwise_conv2d: the input has {channels} channels but the filter {w.shape} is "
                         f"[height, width, in_channels, channel_multiplier] with in_channels {w.shape[2]}")
    strides = spatial_values(strides, "strides", data_format)
    w = dilate_filter(w, spatial_values(1 if dilations is None else dilations, "dilations", data_format))
    padding = check_padding(padding)
    return in_nhwc(lambda nhwc: apply_op("DepthwiseConv2dNative", [nhwc, w], name=name or "depthwise",
                                          strides=strides, padding=padding), x, data_format)


def depthwise_conv2d(input, filter, strides, padding, rate=None, name=None, data_format=None,  # noqa: A002
                     dilations=None):
    """tf.nn.depthwise_conv2d: depthwise_conv2d_native with an atrous `rate` (2 ints) as TF1 names it."""
    with name_scope(name or "depthwise"):
        return depthwise_conv2d_native(input, filter, strides, padding, data_format=data_format or "NHWC",
                                       dilations=rate if dilations is None else dilations, name="depthwise")


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding, rate=None, name=None,  # noqa: A002
                     data_format=None, dilations=None):
    """A depthwise convolution, then a 1x1 `pointwise_filter` (1, 1, in_channels * multiplier, out_channels)."""
    with name_scope(name or "separable_conv2d"):
        depthwise = depthwise_conv2d_native(input, depthwise_filter, strides, padding,
                                            data_format=data_format or "NHWC",
                                            dilations=rate if dilations is None else dilations, name="depthwise")
        return conv2d(depthwise, pointwise_filter, strides=1, padding="VALID", data_format=data_format or "NHWC",
                      name="pointwise")
