"""Keras' depthwise and separable convolutions (DepthwiseConv2D, SeparableConv1D/2D) and Conv2DTranspose,
with Keras' weights: depthwise_kernel (k..., in, depth_multiplier), pointwise_kernel
(1..., in * depth_multiplier, filters), a transposed kernel (kh, kw, filters, in)."""
from ...ops.array_ops import shape
from ...ops.conv_transpose_ops import conv2d_transpose
from ...ops.depthwise_conv_ops import depthwise_conv2d, separable_conv2d
from ...ops.nn_ops import bias_add
from .. import constraints, initializers, regularizers
from .. import backend as K
from ..engine.base_layer import InputSpec
from .convolutional import Conv
from .data_format import channel_axis, channels_last
from .weights import bias_weight, layer_weight, weights_config


class SeparableConv(Conv):
    """A depthwise convolution of each input channel into depth_multiplier channels, then a 1x1 convolution."""

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None, dilation_rate=1,
                 depth_multiplier=1, activation=None, use_bias=True, depthwise_initializer="glorot_uniform",
                 pointwise_initializer="glorot_uniform", bias_initializer="zeros", depthwise_regularizer=None,
                 pointwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                         dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
                         bias_initializer=bias_initializer, bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer, bias_constraint=bias_constraint, **kwargs)
        self.depth_multiplier = int(depth_multiplier)
        self.depthwise_initializer = initializers.get(depthwise_initializer)
        self.pointwise_initializer = initializers.get(pointwise_initializer)
        self.depthwise_regularizer = regularizers.get(depthwise_regularizer)
        self.pointwise_regularizer = regularizers.get(pointwise_regularizer)
        self.depthwise_constraint = constraints.get(depthwise_constraint)
        self.pointwise_constraint = constraints.get(pointwise_constraint)

    @channels_last
    def build(self, input_shape):
        channels = input_shape[-1]
        if channels is None:
            raise ValueError("The channel dimension of the inputs to `SeparableConv` should be defined. "
                             "Found `None`.")
        self.depthwise_kernel = layer_weight(self, "depthwise_kernel",
                                             self.kernel_size + (channels, self.depth_multiplier), "depthwise")
        self.pointwise_kernel = layer_weight(self, "pointwise_kernel", (1,) * self.rank + (
            channels * self.depth_multiplier, self.filters), "pointwise")
        self.bias = bias_weight(self, self.filters)
        self.input_spec = InputSpec(ndim=self.rank + 2, axes={channel_axis(self.data_format): channels})
        self.built = True

    @channels_last
    def call(self, inputs):
        depthwise, pointwise, x = self.depthwise_kernel, self.pointwise_kernel, inputs
        strides, rates = self.strides, self.dilation_rate
        if self.rank == 1:  # Keras runs the 1-D layer as a 2-D one over a single row
            x, depthwise, pointwise = K.expand_dims(x, 1), K.expand_dims(depthwise, 0), K.expand_dims(pointwise, 0)
            strides, rates = (1,) + strides, (1,) + rates
        out = separable_conv2d(x, depthwise, pointwise, strides=(1,) + strides + (1,), padding=self.padding.upper(),
                               rate=rates)
        if self.rank == 1:
            out = K.squeeze(out, 1)
        if self.use_bias:
            out = bias_add(out, self.bias)
        return self.activation(out)

    def get_config(self):
        config = dict(super().get_config(), depth_multiplier=self.depth_multiplier,
                      **weights_config(self, "depthwise", "pointwise"))
        for kind in ("kernel_initializer", "kernel_regularizer", "kernel_constraint"):
            config.pop(kind)
        return config


class SeparableConv1D(SeparableConv):
    """Depthwise-separable 1-D convolution over (batch, steps, channels)."""

    rank = 1


class SeparableConv2D(SeparableConv):
    """Depthwise-separable 2-D convolution over (batch, rows, cols, channels)."""

    rank = 2


class DepthwiseConv2D(Conv):
    """Each input channel convolved with its own depth_multiplier filters: in * depth_multiplier channels out."""

    def __init__(self, kernel_size, strides=(1, 1), padding="valid", depth_multiplier=1, data_format=None,
                 activation=None, use_bias=True, depthwise_initializer="glorot_uniform", bias_initializer="zeros",
                 depthwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(1, kernel_size, strides=strides, padding=padding, data_format=data_format,
                         activation=activation, use_bias=use_bias, bias_initializer=bias_initializer,
                         bias_regularizer=bias_regularizer, activity_regularizer=activity_regularizer,
                         bias_constraint=bias_constraint, **kwargs)
        self.depth_multiplier = int(depth_multiplier)
        self.depthwise_initializer = initializers.get(depthwise_initializer)
        self.depthwise_regularizer = regularizers.get(depthwise_regularizer)
        self.depthwise_constraint = constraints.get(depthwise_constraint)

    @channels_last
    def build(self, input_shape):
        channels = input_shape[-1]
        if channels is None:
            raise ValueError("The channel dimension of the inputs to `DepthwiseConv2D` should be defined. "
                             "Found `None`.")
        self.depthwise_kernel = layer_weight(self, "depthwise_kernel",
                                             self.kernel_size + (channels, self.depth_multiplier), "depthwise")
        self.bias = bias_weight(self, channels * self.depth_multiplier)
        self.input_spec = InputSpec(ndim=4, axes={channel_axis(self.data_format): channels})
        self.built = True

    @channels_last
    def call(self, inputs):
        out = depthwise_conv2d(inputs, self.depthwise_kernel, strides=(1,) + self.strides + (1,),
                               padding=self.padding.upper(), rate=self.dilation_rate)
        if self.use_bias:
            out = bias_add(out, self.bias)
        return self.activation(out)

    def get_config(self):
        config = dict(super().get_config(), depth_multiplier=self.depth_multiplier,
                      **weights_config(self, "depthwise"))
        for kind in ("filters", "kernel_initializer", "kernel_regularizer", "kernel_constraint"):
            config.pop(kind)
        return config


class Transposed:
    """What the transposed convolutions share (Conv2DTranspose, Conv3DTranspose): the kernel is
    kernel_size + (filters, in_channels), and each output dimension is input * stride, plus the kernel's overhang
    with 'valid' padding. A subclass names its op as `transpose`."""

    @channels_last
    def build(self, input_shape):
        channels = input_shape[-1]
        if channels is None:
            raise ValueError("The channel dimension of the inputs should be defined. Found `None`.")
        self.kernel = layer_weight(self, "kernel", self.kernel_size + (self.filters, channels))
        self.bias = bias_weight(self, self.filters)
        self.input_spec = InputSpec(ndim=self.rank + 2, axes={channel_axis(self.data_format): channels})
        self.built = True

    @channels_last
    def call(self, inputs):
        dynamic, static = shape(inputs), K.int_shape(inputs)
        dims = [dynamic[0]]
        for i, (s, k) in enumerate(zip(self.strides, self.kernel_size)):
            size = static[i + 1] if static[i + 1] is not None else dynamic[i + 1]
            dims.append(size * s + (max(k - s, 0) if self.padding == "valid" else 0))
        out = self.transpose(inputs, self.kernel, dims + [self.filters], strides=(1,) + self.strides + (1,),
                               padding=self.padding.upper())
        if self.use_bias:
            out = bias_add(out, self.bias)
        return self.activation(out)

    def get_config(self):
        return dict(super().get_config(), output_padding=self.output_padding)


class Conv2DTranspose(Transposed, Conv):
    """The transpose of Conv2D (its input gradient run forward): kernel (kh, kw, filters, in_channels)."""
    transpose = staticmethod(conv2d_transpose)

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", output_padding=None, data_format=None,
                 dilation_rate=(1, 1), **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                         dilation_rate=dilation_rate, **kwargs)
        if output_padding is not None or self.dilation_rate != (1, 1):
            raise ValueError(f"Conv2DTranspose: ringflow has output_padding=None and dilation_rate=(1, 1) only, got "
                             f"{output_padding!r} and {dilation_rate!r}")
        self.output_padding = None



SeparableConvolution1D, SeparableConvolution2D, Convolution2DTranspose = SeparableConv1D, SeparableConv2D, \
    Conv2DTranspose
