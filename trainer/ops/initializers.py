"""Initializers: callables (shape, dtype=None, partition_info=None) -> Tensor, seeded like every random op.

As in TF1, each takes a `dtype` when made, used when it is called without one (tf.get_variable passes its own).
"""
import math

import numpy as np

from ..framework import dtypes
from .core_ops import constant
from .random_ops import random_normal, random_uniform, truncated_normal


class constant_initializer:
    """Every element (or the given array of values) as a constant."""

    def __init__(self, value=0, dtype=dtypes.float32, verify_shape=False):
        self.value, self.dtype = value, dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = dtypes.as_dtype(dtype or self.dtype)
        value = np.asarray(self.value, dtype=dtype)
        if value.size != 1 and shape is not None and tuple(value.shape) != tuple(shape):
            raise ValueError(f"constant_initializer value of shape {value.shape} does not fit shape {tuple(shape)}")
        return constant(value if value.size != 1 else value.reshape(()), dtype=dtype, shape=shape,
                        name="Initializer")


class zeros_initializer(constant_initializer):
    """All zeros (a class, as TF1's, so that get_variable(initializer=tf.zeros_initializer) makes one)."""

    def __init__(self, dtype=dtypes.float32):
        super().__init__(0, dtype)


class ones_initializer(constant_initializer):
    """All ones (a class, as TF1's)."""

    def __init__(self, dtype=dtypes.float32):
        super().__init__(1, dtype)


class random_normal_initializer:
    """Normal values with `mean` and `stddev`."""

    def __init__(self, mean=0.0, stddev=1.0, seed=None, dtype=dtypes.float32):
        self.mean, self.stddev, self.seed, self.dtype = mean, stddev, seed, float_dtype(dtype, type(self))

    def __call__(self, shape, dtype=None, partition_info=None):
        return random_normal(shape, self.mean, self.stddev, float_dtype(dtype or self.dtype, type(self)), self.seed,
                             name="Initializer")


class truncated_normal_initializer(random_normal_initializer):
    """Normal values redrawn beyond two standard deviations."""

    def __call__(self, shape, dtype=None, partition_info=None):
        return truncated_normal(shape, self.mean, self.stddev, float_dtype(dtype or self.dtype, type(self)),
                                self.seed, name="Initializer")


class glorot_uniform_initializer:
    """Uniform in ±sqrt(6 / (fan_in + fan_out)), fans as TF1 computes them (conv kernels count the window)."""

    def __init__(self, seed=None, dtype=dtypes.float32):
        self.seed, self.dtype = seed, float_dtype(dtype, type(self))

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = float_dtype(dtype or self.dtype, type(self))
        fan_in, fan_out = compute_fans(shape)
        limit = math.sqrt(6.0 / max(1.0, (fan_in + fan_out)))
        return random_uniform(shape, -limit, limit, dtype, self.seed, name="Initializer")


def float_dtype(dtype, initializer):
    """`dtype` as a numpy dtype, which must be a float one: TF1's random initializers refuse others."""
    dtype = dtypes.as_dtype(dtype)
    if dtype.kind != "f":
        raise ValueError(f"{initializer.__name__} makes floating point values: expected a float dtype, got "
                         f"{dtype.name!r}")
    return dtype


def compute_fans(shape):
    shape = tuple(shape)
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = int(np.prod(shape[:-2]))
    return shape[-2] * receptive, shape[-1] * receptive


class identity_initializer:
    """gain times the identity matrix, for 2-D shapes only (TF1's tf.initializers.identity)."""

    def __init__(self, gain=1.0, dtype=dtypes.float32):
        self.gain, self.dtype = gain, dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        if shape is None or len(shape) != 2:
            raise ValueError(f"Identity matrix initializer can only be used for 2D matrices, got shape {shape!r}")
        dtype = dtypes.as_dtype(dtype or self.dtype)
        return constant(self.gain * np.eye(*[int(d) for d in shape], dtype=dtype), dtype=dtype, name="Initializer")

