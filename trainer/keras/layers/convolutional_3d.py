"""Keras' volumetric layers over (batch, depth, rows, cols, channels): Conv3D, Conv3DTranspose, ZeroPadding3D,
Cropping3D, UpSampling3D, MaxPooling3D, AveragePooling3D, GlobalMax/AveragePooling3D."""
from ...ops.conv3d_ops import avg_pool3d, conv3d, conv3d_transpose, max_pool3d
from ...ops.nn_ops import bias_add
from ...ops.pad_ops import pad
from .. import backend as K
from ..engine.base_layer import InputSpec, Layer
from .convolutional import Conv, normalize_tuple, repeat_axis
from .convolutional_depthwise import Transposed
from .data_format import channels_last, normalize_data_format
from .pooling import GlobalPooling, Pooling2D


class Conv3D(Conv):
    """3-D convolution: kernel (kd, kh, kw, in_channels, filters)."""

    rank = 3

    @channels_last
    def call(self, inputs):
        if self.dilation_rate != (1, 1, 1):
            raise ValueError(f"Conv3D: ringflow has dilation_rate=(1, 1, 1) only, got {self.dilation_rate!r}")
        out = conv3d(inputs, self.kernel, strides=(1,) + self.strides + (1,), padding=self.padding.upper())
        if self.use_bias:
            out = bias_add(out, self.bias)
        return self.activation(out)


class Conv3DTranspose(Transposed, Conv3D):
    """The transpose of Conv3D (its input gradient run forward): kernel (kd, kh, kw, filters, in_channels)."""
    transpose = staticmethod(conv3d_transpose)

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid", output_padding=None,
                 data_format=None, **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding, data_format=data_format, **kwargs)
        if output_padding is not None:
            raise ValueError(f"Conv3DTranspose: ringflow has output_padding=None only, got {output_padding!r}")
        self.output_padding = None


def _pairs(value, name):
    """An int, 3 ints or 3 (before, after) pairs as 3 pairs."""
    if isinstance(value, int):
        return ((value, value),) * 3
    if len(value) == 3 and all(isinstance(v, int) for v in value):
        return tuple((v, v) for v in value)
    if len(value) == 3 and all(not isinstance(v, int) and len(v) == 2 for v in value):
        return tuple(tuple(int(x) for x in v) for v in value)
    raise ValueError(f"`{name}` should be an int, a tuple of 3 ints or a tuple of 3 tuples of 2 ints. "
                     f"Found: {value!r}")


class ZeroPadding3D(Layer):
    """Zeros around depth, rows and columns."""

    def __init__(self, padding=(1, 1, 1), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.padding = _pairs(padding, "padding")
        self.data_format = normalize_data_format(data_format)
        self.input_spec = InputSpec(ndim=5)

    @channels_last
    def call(self, inputs):
        return pad(inputs, [[0, 0]] + [list(p) for p in self.padding] + [[0, 0]])

    def get_config(self):
        return dict(super().get_config(), padding=self.padding, data_format=self.data_format)


class Cropping3D(Layer):
    """Cuts depth, rows and columns off the edges."""

    def __init__(self, cropping=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.cropping = _pairs(cropping, "cropping")
        self.data_format = normalize_data_format(data_format)
        self.input_spec = InputSpec(ndim=5)

    @channels_last
    def call(self, inputs):
        return inputs[(slice(None),) + tuple(slice(a, -b or None) for a, b in self.cropping) + (slice(None),)]

    def get_config(self):
        return dict(super().get_config(), cropping=self.cropping, data_format=self.data_format)


class UpSampling3D(Layer):
    """Repeats depth, rows and columns size[0], size[1] and size[2] times."""

    def __init__(self, size=(2, 2, 2), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.size = normalize_tuple(size, 3, "size")
        self.data_format = normalize_data_format(data_format)
        self.input_spec = InputSpec(ndim=5)

    @channels_last
    def call(self, inputs):
        for axis, times in enumerate(self.size, start=1):
            inputs = repeat_axis(inputs, axis, times)
        return inputs

    def get_config(self):
        return dict(super().get_config(), size=self.size, data_format=self.data_format)


class Pooling3D(Pooling2D):
    """pool_size windows every `strides` (default: pool_size), padding 'valid' or 'same', over depth, rows and
    columns: Pooling2D's layer with a third spatial dimension."""

    pool = staticmethod(max_pool3d)
    rank = 3

    def __init__(self, pool_size=(2, 2, 2), strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(pool_size, strides, padding, data_format, **kwargs)


class MaxPooling3D(Pooling3D):
    """The maximum of each window."""


class AveragePooling3D(Pooling3D):
    """The mean of each window (padding excluded from the count)."""

    pool = staticmethod(avg_pool3d)


class GlobalAveragePooling3D(GlobalPooling):
    """Mean over depth, rows and columns."""

    rank = 3


class GlobalMaxPooling3D(GlobalPooling):
    """Maximum over depth, rows and columns."""

    reduce = staticmethod(K.max)
    rank = 3


Convolution3D, Convolution3DTranspose, MaxPool3D, AvgPool3D = Conv3D, Conv3DTranspose, MaxPooling3D, AveragePooling3D
GlobalAvgPool3D, GlobalMaxPool3D = GlobalAveragePooling3D, GlobalMaxPooling3D
