"""tf.layers.Conv1D, MaxPooling1D and AveragePooling1D on [batch, length, channels] inputs, and their functional
forms; the kernel is (kernel_size, in_channels, filters), the variables <scope>/kernel and <scope>/bias."""
from ..ops.initializers import zeros_initializer
from ..ops.array_ops import reshape
from ..ops.conv1d_ops import conv1d as nn_conv1d
from ..ops.conv_ops import avg_pool, max_pool
from ..ops.nn_ops import bias_add
from ..ops.shape_ops import expand_dims, squeeze
from .base import Layer
from .convolutional import Pooling2D, layer_data_format

_FORMATS = {"channels_last": "NWC", "channels_first": "NCW"}


def _single(value, what):
    values = [value] if isinstance(value, int) else [int(v) for v in value]
    if len(values) != 1:
        raise ValueError(f"{what} must be an int or a tuple of one int, got {value!r}")
    return values[0]


def _format(data_format):
    return layer_data_format(data_format, _FORMATS)


class Conv1D(Layer):
    """1-D convolution with `filters` outputs: kernel (kernel_size, in_channels, filters), plus bias and activation."""

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format="channels_last",
                 dilation_rate=1, activation=None, use_bias=True, kernel_initializer=None,
                 bias_initializer=zeros_initializer(), kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None, trainable=True,
                 name=None, **kwargs):
        super().__init__(trainable=trainable, name=name, activity_regularizer=activity_regularizer, **kwargs)
        self.filters = int(filters)
        self.kernel_size = (_single(kernel_size, "kernel_size"),)
        self.strides = (_single(strides, "strides"),)
        self.dilation_rate = (_single(dilation_rate, "dilation_rate"),)
        self.padding = str(padding).upper()
        self.data_format = _format(data_format)
        self.activation, self.use_bias = activation, use_bias
        self.kernel_initializer, self.bias_initializer = kernel_initializer, bias_initializer
        self.kernel_regularizer, self.bias_regularizer = kernel_regularizer, bias_regularizer
        self.kernel_constraint, self.bias_constraint = kernel_constraint, bias_constraint

    def build(self, input_shape):
        axis = 1 if self.data_format == "NCW" else -1
        if input_shape is None or len(input_shape) != 3 or input_shape[axis] is None:
            raise ValueError(f"The inputs of Conv1D layer {self.name!r} need rank 3 ({self.data_format}) and a "
                             f"known channel dimension, got shape {input_shape}")
        self.kernel = self.add_weight("kernel", (*self.kernel_size, input_shape[axis], self.filters),
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight("bias", (self.filters,), initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)

    def call(self, inputs):
        outputs = nn_conv1d(inputs, self.kernel, stride=self.strides[0], padding=self.padding,
                            data_format=self.data_format, dilations=self.dilation_rate[0])
        if self.use_bias:
            outputs = bias_add(outputs, self.bias) if self.data_format == "NWC" else \
                outputs + reshape(self.bias, (1, self.filters, 1))
        return outputs if self.activation is None else self.activation(outputs)


def conv1d(inputs, filters, kernel_size, strides=1, padding="valid", data_format="channels_last", dilation_rate=1,
           activation=None, use_bias=True, kernel_initializer=None, bias_initializer=zeros_initializer(),
           kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
           bias_constraint=None, trainable=True, name=None, reuse=None):
    """A 1-D convolution layer: variables <scope>/kernel and <scope>/bias (scope `name` or conv1d, conv1d_1...)."""
    layer = Conv1D(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                   dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
                   kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
                   kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
                   activity_regularizer=activity_regularizer, kernel_constraint=kernel_constraint,
                   bias_constraint=bias_constraint, trainable=trainable, name=name, _scope=name, _reuse=reuse)
    return layer.apply(inputs)


class _Pooling1D(Pooling2D):
    """The 2-D pooling layer run on the length as a width under a height of 1, as TF1 builds 1-D pooling."""

    def __init__(self, pool_size, strides, padding="valid", data_format="channels_last", name=None, **kwargs):
        super().__init__(1, 1, padding=padding, data_format=data_format, name=name, **kwargs)
        self.pool_size = (_single(pool_size, "pool_size"),)
        self.strides = (_single(strides, "strides"),)

    def call(self, inputs):
        axis = 1 if self.data_format == "NHWC" else 2
        outputs = type(self).pool(expand_dims(inputs, axis), (1, *self.pool_size), (1, *self.strides),
                                  self.padding, data_format=self.data_format)
        return squeeze(outputs, [axis])


class MaxPooling1D(_Pooling1D):
    """The maximum over pool_size windows of 3-D inputs."""

    pool = staticmethod(max_pool)


class AveragePooling1D(_Pooling1D):
    """The mean over pool_size windows of 3-D inputs (SAME padding averages the real entries only)."""

    pool = staticmethod(avg_pool)


def max_pooling1d(inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None):
    """Max pooling over pool_size windows (an int) with `strides`."""
    return MaxPooling1D(pool_size, strides, padding=padding, data_format=data_format, name=name).apply(inputs)


def average_pooling1d(inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None):
    """Average pooling over pool_size windows (an int) with `strides`."""
    return AveragePooling1D(pool_size, strides, padding=padding, data_format=data_format, name=name).apply(inputs)
