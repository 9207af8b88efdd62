"""Keras' convolution layers (Conv1D, Conv2D) and the shape layers beside them: ZeroPadding1D/2D,
Cropping1D/2D, UpSampling1D/2D."""
from ...ops.conv1d_ops import conv1d
from ...ops.conv_ops import conv2d
from ...ops.nn_ops import bias_add
from ...ops.pad_ops import pad, tile
from .. import activations, constraints, initializers, regularizers
from .. import backend as K
from ..engine.base_layer import InputSpec, Layer
from .data_format import channel_axis, channels_last, normalize_data_format
from .weights import bias_weight, layer_weight, weights_config


def normalize_tuple(value, n, name):
    """An int or a sequence of n ints, as a tuple of n ints."""
    if isinstance(value, int):
        return (value,) * n
    value = tuple(value)
    if len(value) != n or not all(isinstance(v, int) for v in value):
        raise ValueError(f"The `{name}` argument must be a tuple of {n} integers. Received: {value!r}")
    return value


def channels_last_only(data_format, who):
    data_format = data_format or K.image_data_format()
    if data_format != "channels_last":
        raise ValueError(f"{who}: ringflow's Keras layers run channels_last only, got data_format={data_format!r}; "
                         "transpose the data to NHWC")
    return data_format


class Conv(Layer):
    """rank-D convolution: kernel kernel_size + (input channels, filters), then bias and activation."""

    rank = 2

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None, dilation_rate=1,
                 activation=None, use_bias=True, kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.filters = int(filters)
        self.kernel_size = normalize_tuple(kernel_size, self.rank, "kernel_size")
        self.strides = normalize_tuple(strides, self.rank, "strides")
        self.padding = padding.lower()
        if self.padding not in ("valid", "same"):
            raise ValueError(f"The `padding` argument must be 'valid' or 'same'. Received: {padding!r}")
        self.data_format = normalize_data_format(data_format)
        self.dilation_rate = normalize_tuple(dilation_rate, self.rank, "dilation_rate")
        self.activation, self.use_bias = activations.get(activation), use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.input_spec = InputSpec(ndim=self.rank + 2)

    @channels_last
    def build(self, input_shape):
        channels = input_shape[-1]
        if channels is None:
            raise ValueError("The channel dimension of the inputs should be defined. Found `None`.")
        self.kernel = layer_weight(self, "kernel", self.kernel_size + (channels, self.filters))
        self.bias = bias_weight(self, self.filters)
        self.input_spec = InputSpec(ndim=self.rank + 2, axes={channel_axis(self.data_format): channels})
        self.built = True

    @channels_last
    def call(self, inputs):
        if self.rank == 1:
            out = conv1d(inputs, self.kernel, stride=self.strides[0], padding=self.padding.upper(),
                         data_format="NWC", dilations=self.dilation_rate[0])
        else:
            out = conv2d(inputs, self.kernel, strides=(1,) + self.strides + (1,), padding=self.padding.upper(),
                         dilations=(1,) + self.dilation_rate + (1,))
        if self.use_bias:
            out = bias_add(out, self.bias)
        return self.activation(out)

    def get_config(self):
        return dict(super().get_config(), filters=self.filters, kernel_size=self.kernel_size, strides=self.strides,
                    padding=self.padding, data_format=self.data_format, dilation_rate=self.dilation_rate,
                    activation=activations.serialize(self.activation), use_bias=self.use_bias,
                    **weights_config(self, "kernel", "bias"))


class Conv1D(Conv):
    """1-D convolution over (batch, steps, channels)."""

    rank = 1


class Conv2D(Conv):
    """2-D convolution over (batch, rows, cols, channels)."""

    rank = 2


Convolution1D, Convolution2D = Conv1D, Conv2D


class ZeroPadding2D(Layer):
    """Zeros around rows and columns: an int, (rows, cols) or ((top, bottom), (left, right))."""

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        super().__init__(**kwargs)
        if isinstance(padding, int):
            padding = ((padding, padding), (padding, padding))
        elif all(isinstance(p, int) for p in padding):
            padding = ((padding[0], padding[0]), (padding[1], padding[1]))
        self.padding = tuple(tuple(p) for p in padding)
        self.data_format = normalize_data_format(data_format)
        self.input_spec = InputSpec(ndim=4)

    @channels_last
    def call(self, inputs):
        return pad(inputs, [[0, 0], list(self.padding[0]), list(self.padding[1]), [0, 0]])

    def get_config(self):
        return dict(super().get_config(), padding=self.padding, data_format=self.data_format)


class ZeroPadding1D(Layer):
    """Zeros before and after the steps: an int or (before, after)."""

    def __init__(self, padding=1, **kwargs):
        super().__init__(**kwargs)
        self.padding = (padding, padding) if isinstance(padding, int) else tuple(padding)
        self.input_spec = InputSpec(ndim=3)

    def call(self, inputs):
        return pad(inputs, [[0, 0], list(self.padding), [0, 0]])

    def get_config(self):
        return dict(super().get_config(), padding=self.padding)


class Cropping2D(Layer):
    """Cuts rows and columns off the edges: an int, (rows, cols) or ((top, bottom), (left, right))."""

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
        super().__init__(**kwargs)
        if isinstance(cropping, int):
            cropping = ((cropping, cropping), (cropping, cropping))
        elif all(isinstance(c, int) for c in cropping):
            cropping = ((cropping[0], cropping[0]), (cropping[1], cropping[1]))
        self.cropping = tuple(tuple(c) for c in cropping)
        self.data_format = normalize_data_format(data_format)
        self.input_spec = InputSpec(ndim=4)

    @channels_last
    def call(self, inputs):
        (top, bottom), (left, right) = self.cropping
        return inputs[:, top:(-bottom or None), left:(-right or None), :]

    def get_config(self):
        return dict(super().get_config(), cropping=self.cropping, data_format=self.data_format)


class Cropping1D(Layer):
    """Cuts steps off the start and end: an int or (start, end)."""

    def __init__(self, cropping=(1, 1), **kwargs):
        super().__init__(**kwargs)
        self.cropping = (cropping, cropping) if isinstance(cropping, int) else tuple(cropping)
        self.input_spec = InputSpec(ndim=3)

    def call(self, inputs):
        return inputs[:, self.cropping[0]:(-self.cropping[1] or None), :]

    def get_config(self):
        return dict(super().get_config(), cropping=self.cropping)


def repeat_axis(x, axis, times):
    """Each entry along `axis` repeated `times` times in place (nearest-neighbour upsampling)."""
    shape = K.int_shape(x)
    expanded = K.expand_dims(x, axis + 1)
    multiples = [1] * (len(shape) + 1)
    multiples[axis + 1] = times
    tiled = tile(expanded, multiples)
    new_shape = [-1] + [d * times if i == axis else d for i, d in enumerate(shape)][1:]
    return K.reshape(tiled, new_shape)


class UpSampling2D(Layer):
    """Repeats rows and columns size[0] and size[1] times (interpolation 'nearest')."""

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        super().__init__(**kwargs)
        self.size = normalize_tuple(size, 2, "size")
        self.data_format = normalize_data_format(data_format)
        if interpolation != "nearest":
            raise ValueError(f"UpSampling2D: ringflow has interpolation='nearest' only, got {interpolation!r}")
        self.interpolation = interpolation
        self.input_spec = InputSpec(ndim=4)

    @channels_last
    def call(self, inputs):
        return repeat_axis(repeat_axis(inputs, 1, self.size[0]), 2, self.size[1])

    def get_config(self):
        return dict(super().get_config(), size=self.size, data_format=self.data_format,
                    interpolation=self.interpolation)


class UpSampling1D(Layer):
    """Repeats each step `size` times."""

    def __init__(self, size=2, **kwargs):
        super().__init__(**kwargs)
        self.size = int(size)
        self.input_spec = InputSpec(ndim=3)

    def call(self, inputs):
        return repeat_axis(inputs, 1, self.size)

    def get_config(self):
        return dict(super().get_config(), size=self.size)
