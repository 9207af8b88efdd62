"""Keras' noise layers (GaussianNoise, GaussianDropout, AlphaDropout) and the spatial dropouts, which drop whole
feature maps: each acts in the training phase only and is the identity at inference."""
import numpy as np

from ...ops.dropout_ops import dropout
from ...ops.random_ops import random_normal, random_uniform
from .. import backend as K
from ..engine.base_layer import InputSpec, Layer
from .data_format import normalize_data_format

SELU_ALPHA, SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946  # SELU's constants


class NoiseLayer(Layer):
    """A layer whose `noisy(inputs)` replaces the inputs while training."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True

    def active(self):
        return True

    def call(self, inputs, training=None):
        if not self.active():
            return inputs
        return K.in_train_phase(lambda: self.noisy(inputs), lambda: K.identity(inputs), training=training)


class GaussianNoise(NoiseLayer):
    """inputs + N(0, stddev) noise."""

    def __init__(self, stddev, **kwargs):
        super().__init__(**kwargs)
        self.stddev = stddev

    def noisy(self, inputs):
        return inputs + random_normal(K.shape(inputs), mean=0.0, stddev=self.stddev, dtype=K.dtype(inputs))

    def get_config(self):
        return dict(super().get_config(), stddev=self.stddev)


class GaussianDropout(NoiseLayer):
    """inputs * N(1, rate / (1 - rate)) noise (the variance of dropout at `rate`)."""

    def __init__(self, rate, **kwargs):
        super().__init__(**kwargs)
        self.rate = rate

    def active(self):
        return 0 < self.rate < 1

    def noisy(self, inputs):
        stddev = np.sqrt(self.rate / (1.0 - self.rate))
        return inputs * random_normal(K.shape(inputs), mean=1.0, stddev=stddev, dtype=K.dtype(inputs))

    def get_config(self):
        return dict(super().get_config(), rate=self.rate)


class AlphaDropout(NoiseLayer):
    """Dropout for SELU networks: dropped units take SELU's negative saturation value and an affine map keeps
    the mean and variance of the inputs."""

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.rate, self.noise_shape, self.seed = rate, noise_shape, seed

    def active(self):
        return 0 < self.rate < 1

    def noisy(self, inputs):
        alpha_p = -SELU_ALPHA * SELU_SCALE
        shape = self.noise_shape if self.noise_shape is not None else K.shape(inputs)
        kept = K.cast(K.greater_equal(random_uniform(shape, seed=self.seed), self.rate), K.dtype(inputs))
        a = ((1 - self.rate) * (1 + self.rate * alpha_p ** 2)) ** -0.5
        b = -a * alpha_p * self.rate
        return a * (inputs * kept + alpha_p * (1 - kept)) + b

    def get_config(self):
        return dict(super().get_config(), rate=self.rate, noise_shape=self.noise_shape, seed=self.seed)


class SpatialDropout1D(NoiseLayer):
    """Drops whole channels of (batch, steps, channels): one draw per example and channel."""

    rank = 1

    def __init__(self, rate, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.rate, self.seed = rate, None
        self.data_format = normalize_data_format(data_format) if self.rank > 1 else "channels_last"
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def active(self):
        return 0 < self.rate < 1

    def noisy(self, inputs):
        shape = K.int_shape(inputs)  # None: as long as the inputs' axis, when running
        noise_shape = [shape[0]] + [1] * self.rank + [shape[-1]]
        if self.data_format == "channels_first":
            noise_shape = [shape[0], shape[1]] + [1] * self.rank
        return dropout(inputs, rate=self.rate, noise_shape=noise_shape, seed=self.seed)

    def get_config(self):
        config = dict(super().get_config(), rate=self.rate)
        if self.rank > 1:
            config["data_format"] = self.data_format
        return config


class SpatialDropout2D(SpatialDropout1D):
    """Drops whole feature maps of (batch, rows, cols, channels)."""

    rank = 2


class SpatialDropout3D(SpatialDropout1D):
    """Drops whole feature volumes of (batch, dim1, dim2, dim3, channels)."""

    rank = 3
