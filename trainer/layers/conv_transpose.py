"""tf.layers.Conv2DTranspose and conv2d_transpose: the transposed ("deconvolution") 2-D layer."""
from ..ops.initializers import zeros_initializer
from ..ops.array_ops import shape
from ..ops.conv_transpose_ops import conv2d_transpose as nn_conv2d_transpose
from .convolutional import Conv2D


def _output_size(size, k, stride, padding):
    """TF1's deconv_output_length: the input size a `padding` convolution would map to `size`."""
    if size is None:
        return None
    return size * stride if padding == "SAME" else size * stride + max(k - stride, 0)


class Conv2DTranspose(Conv2D):
    """Transposed 2-D convolution with `filters` outputs: kernel (kh, kw, filters, in_channels), plus bias."""

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format="channels_last",
                 activation=None, use_bias=True, kernel_initializer=None, bias_initializer=zeros_initializer(),
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, trainable=True, name=None, **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                         activation=activation, use_bias=use_bias, kernel_initializer=kernel_initializer,
                         bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
                         bias_regularizer=bias_regularizer, activity_regularizer=activity_regularizer,
                         kernel_constraint=kernel_constraint, bias_constraint=bias_constraint, trainable=trainable,
                         name=name, **kwargs)

    def _kernel_shape(self, channels):
        return (*self.kernel_size, self.filters, channels)  # TF1's transposed kernel: output channels first

    def call(self, inputs):
        dims = list(inputs.shape) if inputs.shape.ndims is not None else [None] * 4
        hw = (1, 2) if self.data_format == "NHWC" else (2, 3)
        out = [_output_size(dims[a], k, s, self.padding) for a, k, s in zip(hw, self.kernel_size, self.strides)]
        batch = dims[0] if dims[0] is not None else shape(inputs)[0]
        dynamic = shape(inputs)
        extra = [0 if self.padding == "SAME" else max(k - s, 0) for k, s in zip(self.kernel_size, self.strides)]
        out = [dynamic[a] * s + e if o is None else o for o, a, s, e in zip(out, hw, self.strides, extra)]
        output_shape = [batch, *out, self.filters] if self.data_format == "NHWC" else [batch, self.filters, *out]
        outputs = nn_conv2d_transpose(inputs, self.kernel, output_shape, strides=self.strides, padding=self.padding,
                                      data_format=self.data_format, name="conv2d_transpose")
        return self._bias_and_activation(outputs)


def conv2d_transpose(inputs, filters, kernel_size, strides=(1, 1), padding="valid", data_format="channels_last",
                     activation=None, use_bias=True, kernel_initializer=None, bias_initializer=zeros_initializer(),
                     kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                     bias_constraint=None, trainable=True, name=None, reuse=None):
    """A transposed 2-D convolution layer: variables <scope>/kernel and <scope>/bias (scope `name` or
    conv2d_transpose, conv2d_transpose_1...)."""
    layer = Conv2DTranspose(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                            activation=activation, use_bias=use_bias, kernel_initializer=kernel_initializer,
                            bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
                            bias_regularizer=bias_regularizer, activity_regularizer=activity_regularizer,
                            kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                            trainable=trainable, name=name, _scope=name, _reuse=reuse)
    return layer.apply(inputs)

