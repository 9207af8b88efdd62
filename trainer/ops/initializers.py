"""Initializers: callables (shape, dtype) -> Tensor, seeded like every random op."""
import math

import numpy as np

from .core_ops import constant
from .random_ops import random_normal, random_uniform, truncated_normal


class constant_initializer:
    """Every element (or the given array of values) as a constant."""

    def __init__(self, value=0):
        self.value = value

    def __call__(self, shape, dtype):
        value = np.asarray(self.value, dtype=dtype)
        if value.size != 1 and shape is not None and tuple(value.shape) != tuple(shape):
            raise ValueError(f"constant_initializer value of shape {value.shape} does not fit shape {tuple(shape)}")
        return constant(value if value.size != 1 else value.reshape(()), dtype=dtype, shape=shape,
                        name="Initializer")


def zeros_initializer():
    """All zeros."""
    return constant_initializer(0)


def ones_initializer():
    """All ones."""
    return constant_initializer(1)


class random_normal_initializer:
    """Normal values with `mean` and `stddev`."""

    def __init__(self, mean=0.0, stddev=1.0, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def __call__(self, shape, dtype):
        return random_normal(shape, self.mean, self.stddev, dtype, self.seed, name="Initializer")


class truncated_normal_initializer(random_normal_initializer):
    """Normal values redrawn beyond two standard deviations."""

    def __call__(self, shape, dtype):
        return truncated_normal(shape, self.mean, self.stddev, dtype, self.seed, name="Initializer")


class glorot_uniform_initializer:
    """Uniform in ±sqrt(6 / (fan_in + fan_out)), fans as TF1 computes them (conv kernels count the window)."""

    def __init__(self, seed=None):
        self.seed = seed

    def __call__(self, shape, dtype):
        fan_in, fan_out = compute_fans(shape)
        limit = math.sqrt(6.0 / max(1.0, (fan_in + fan_out)))
        return random_uniform(shape, -limit, limit, dtype, self.seed, name="Initializer")


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
