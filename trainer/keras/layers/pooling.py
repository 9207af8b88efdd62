"""Keras' pooling layers: Max/AveragePooling1D/2D and GlobalMax/GlobalAveragePooling1D/2D."""
from ...ops.conv_ops import avg_pool, max_pool
from .. import backend as K
from ..engine.base_layer import InputSpec, Layer
from .convolutional import normalize_tuple
from .data_format import channels_last, normalize_data_format


class Pooling2D(Layer):
    """pool_size windows every `strides` (default: pool_size), padding 'valid' or 'same'."""

    pool = staticmethod(max_pool)
    rank = 2  # spatial dimensions (Pooling3D: 3)

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.pool_size = normalize_tuple(pool_size, self.rank, "pool_size")
        self.strides = normalize_tuple(strides if strides is not None else self.pool_size, self.rank, "strides")
        self.padding = padding.lower()
        self.data_format = normalize_data_format(data_format)
        self.input_spec = InputSpec(ndim=self.rank + 2)

    @channels_last
    def call(self, inputs):
        return self.pool(inputs, (1,) + self.pool_size + (1,), (1,) + self.strides + (1,), self.padding.upper())

    def get_config(self):
        return dict(super().get_config(), pool_size=self.pool_size, strides=self.strides, padding=self.padding,
                    data_format=self.data_format)


class MaxPooling2D(Pooling2D):
    """The maximum of each window."""


class AveragePooling2D(Pooling2D):
    """The mean of each window (padding excluded from the count)."""

    pool = staticmethod(avg_pool)


class Pooling1D(Layer):
    """pool_size windows over steps every `strides` (default: pool_size)."""

    pool = staticmethod(max_pool)

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format="channels_last", **kwargs):
        super().__init__(**kwargs)
        self.pool_size = int(pool_size)
        self.strides = int(strides if strides is not None else pool_size)
        self.padding = padding.lower()
        self.data_format = normalize_data_format(data_format)
        self.input_spec = InputSpec(ndim=3)

    @channels_last
    def call(self, inputs):
        out = self.pool(K.expand_dims(inputs, 2), (1, self.pool_size, 1, 1), (1, self.strides, 1, 1),
                        self.padding.upper())
        return K.squeeze(out, 2)

    def get_config(self):
        return dict(super().get_config(), pool_size=self.pool_size, strides=self.strides, padding=self.padding,
                    data_format=self.data_format)


class MaxPooling1D(Pooling1D):
    """The maximum of each window of steps."""


class AveragePooling1D(Pooling1D):
    """The mean of each window of steps."""

    pool = staticmethod(avg_pool)


class GlobalPooling(Layer):
    """Reduces every axis between the batch and the channels."""

    reduce = staticmethod(K.mean)
    rank = 2

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = normalize_data_format(data_format)
        self.input_spec = InputSpec(ndim=self.rank + 2)

    @channels_last
    def call(self, inputs):
        return self.reduce(inputs, axis=list(range(1, self.rank + 1)))

    def get_config(self):
        return dict(super().get_config(), data_format=self.data_format)


class GlobalAveragePooling2D(GlobalPooling):
    """Mean over rows and columns."""


class GlobalMaxPooling2D(GlobalPooling):
    """Maximum over rows and columns."""

    reduce = staticmethod(K.max)


class GlobalAveragePooling1D(GlobalPooling):
    """Mean over steps (over the unmasked steps where the inputs carry a mask, as TF 1.15's)."""

    rank = 1

    def __init__(self, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.supports_masking = True

    @channels_last
    def call(self, inputs, mask=None):
        if mask is None:
            return super().call(inputs)
        weights = K.expand_dims(K.cast(mask, K.dtype(inputs)), 2)
        return K.sum(inputs * weights, axis=1) / K.sum(weights, axis=1)

    def compute_mask(self, inputs, mask=None):
        return None


class GlobalMaxPooling1D(GlobalPooling):
    """Maximum over steps."""

    reduce = staticmethod(K.max)
    rank = 1


MaxPool1D, MaxPool2D, AvgPool1D, AvgPool2D = MaxPooling1D, MaxPooling2D, AveragePooling1D, AveragePooling2D
GlobalAvgPool1D, GlobalAvgPool2D = GlobalAveragePooling1D, GlobalAveragePooling2D
GlobalMaxPool1D, GlobalMaxPool2D = GlobalMaxPooling1D, GlobalMaxPooling2D
