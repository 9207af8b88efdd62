"""tf.layers.Conv2D, MaxPooling2D and AveragePooling2D, and their functional forms."""
from ..ops.initializers import zeros_initializer
from ..ops.array_ops import reshape
from ..ops.conv_ops import avg_pool, conv2d as nn_conv2d, max_pool
from ..ops.nn_ops import bias_add
from .base import Layer

_FORMATS = {"channels_last": "NHWC", "channels_first": "NCHW"}


def _pair(value, what):
    values = (value, value) if isinstance(value, int) else tuple(int(v) for v in value)
    if len(values) != 2:
        raise ValueError(f"{what} must be an int or a pair of ints, got {value!r}")
    return values


def layer_data_format(data_format, formats=_FORMATS):
    """TF1's layer data_format name ("channels_last"/"channels_first") as the tg.nn ops' ("NHWC", ...)."""
    try:
        return formats[data_format]
    except KeyError:
        raise ValueError(f"data_format must be 'channels_last' or 'channels_first', got {data_format!r}") from None


class Conv2D(Layer):
    """2-D convolution with `filters` outputs: kernel (kh, kw, in_channels, filters), plus bias and activation."""

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format="channels_last",
                 dilation_rate=(1, 1), activation=None, use_bias=True, kernel_initializer=None,
                 bias_initializer=zeros_initializer(), kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None, trainable=True,
                 name=None, **kwargs):
        super().__init__(trainable=trainable, name=name, activity_regularizer=activity_regularizer, **kwargs)
        self.filters = int(filters)
        self.kernel_size = _pair(kernel_size, "kernel_size")
        self.strides = _pair(strides, "strides")
        self.dilation_rate = _pair(dilation_rate, "dilation_rate")
        self.padding = str(padding).upper()
        self.data_format = layer_data_format(data_format)
        self.activation, self.use_bias = activation, use_bias
        self.kernel_initializer, self.bias_initializer = kernel_initializer, bias_initializer
        self.kernel_regularizer, self.bias_regularizer = kernel_regularizer, bias_regularizer
        self.kernel_constraint, self.bias_constraint = kernel_constraint, bias_constraint

    def build(self, input_shape):
        axis = 1 if self.data_format == "NCHW" else -1
        if input_shape is None or len(input_shape) != 4 or input_shape[axis] is None:
            raise ValueError(f"The inputs of {type(self).__name__} layer {self.name!r} need rank 4 "
                             f"({self.data_format}) and a known channel dimension, got shape {input_shape}")
        self.kernel = self.add_weight("kernel", self._kernel_shape(input_shape[axis]),
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight("bias", (self.filters,), initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)

    def _kernel_shape(self, channels):
        return (*self.kernel_size, channels, self.filters)

    def call(self, inputs):
        outputs = nn_conv2d(inputs, self.kernel, strides=self.strides, padding=self.padding,
                            data_format=self.data_format, dilations=self.dilation_rate, name="Conv2D")
        return self._bias_and_activation(outputs)

    def _bias_and_activation(self, outputs):
        if self.use_bias:
            if self.data_format == "NHWC":
                outputs = bias_add(outputs, self.bias)
            else:
                outputs = outputs + reshape(self.bias, (1, self.filters, 1, 1))
        return outputs if self.activation is None else self.activation(outputs)


def conv2d(inputs, filters, kernel_size, strides=(1, 1), padding="valid", data_format="channels_last",
           dilation_rate=(1, 1), activation=None, use_bias=True, kernel_initializer=None,
           bias_initializer=zeros_initializer(), kernel_regularizer=None, bias_regularizer=None,
           activity_regularizer=None, kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
           reuse=None):
    """A 2-D convolution layer: variables <scope>/kernel and <scope>/bias (scope `name` or conv2d, conv2d_1...)."""
    layer = Conv2D(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                   dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
                   kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
                   kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
                   activity_regularizer=activity_regularizer, kernel_constraint=kernel_constraint,
                   bias_constraint=bias_constraint, trainable=trainable, name=name, _scope=name, _reuse=reuse)
    return layer.apply(inputs)


class Pooling2D(Layer):
    pool = None  # the tg.nn function

    def __init__(self, pool_size, strides, padding="valid", data_format="channels_last", name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.pool_size = _pair(pool_size, "pool_size")
        self.strides = _pair(strides, "strides")
        self.padding = str(padding).upper()
        self.data_format = layer_data_format(data_format)

    def call(self, inputs):
        return type(self).pool(inputs, self.pool_size, self.strides, self.padding, data_format=self.data_format)


class MaxPooling2D(Pooling2D):
    """The maximum over pool_size windows of 4-D inputs."""

    pool = staticmethod(max_pool)


class AveragePooling2D(Pooling2D):
    """The mean over pool_size windows of 4-D inputs (SAME padding averages the real pixels only)."""

    pool = staticmethod(avg_pool)


def max_pooling2d(inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None):
    """Max pooling over pool_size windows (ints or pairs) with `strides`."""
    return MaxPooling2D(pool_size, strides, padding=padding, data_format=data_format, name=name).apply(inputs)


def average_pooling2d(inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None):
    """Average pooling over pool_size windows (ints or pairs) with `strides`."""
    return AveragePooling2D(pool_size, strides, padding=padding, data_format=data_format, name=name).apply(inputs)
