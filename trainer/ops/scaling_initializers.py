"""TF1's initializers scaled by the variable's shape: variance_scaling (glorot_normal is one), uniform_unit_scaling
and orthogonal, and random_uniform_initializer. Each is a callable (shape, dtype) -> Tensor, seeded like every
random op."""
import math

import numpy as np

from ..framework import dtypes
from .array_ops import reshape, transpose
from .initializers import compute_fans
from .linalg_ops import matrix_diag_part
from .math_ops import sign
from .qr_ops import qr
from .random_ops import random_normal, random_uniform, truncated_normal

# The standard deviation of a standard normal truncated to [-2, 2] (scipy.stats.truncnorm.std(-2, 2)): TF1
# divides by it so that the truncated draws have the variance asked for.
TRUNCATED_STDDEV = 0.87962566103423978
_MODES = ("fan_in", "fan_out", "fan_avg")
_DISTRIBUTIONS = ("normal", "truncated_normal", "untruncated_normal", "uniform")


class variance_scaling_initializer:  # noqa: N801 - TF1's name
    """Values of variance scale / n, n the fan_in, fan_out or their average: truncated normal (TF1's "normal"
    and default), untruncated normal, or uniform in +-sqrt(3 * scale / n)."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None, dtype=dtypes.float32):
        if scale <= 0.0:
            raise ValueError(f"variance_scaling_initializer needs a positive scale, got {scale!r}")
        if mode not in _MODES or distribution.lower() not in _DISTRIBUTIONS:
            raise ValueError(f"variance_scaling_initializer: mode must be one of {_MODES} and distribution one of "
                             f"{_DISTRIBUTIONS}, got {mode!r} and {distribution!r}")
        self.scale, self.mode, self.distribution = scale, mode, distribution.lower()
        self.seed, self.dtype = seed, dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = dtypes.as_dtype(dtype or self.dtype)
        fan_in, fan_out = compute_fans(shape)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        scale = self.scale / max(1.0, n)
        if self.distribution in ("normal", "truncated_normal"):
            return truncated_normal(shape, 0.0, math.sqrt(scale) / TRUNCATED_STDDEV, dtype, self.seed,
                                    name="Initializer")
        if self.distribution == "untruncated_normal":
            return random_normal(shape, 0.0, math.sqrt(scale), dtype, self.seed, name="Initializer")
        limit = math.sqrt(3.0 * scale)
        return random_uniform(shape, -limit, limit, dtype, self.seed, name="Initializer")


class glorot_normal_initializer(variance_scaling_initializer):  # noqa: N801 - TF1's name
    """Truncated normal values of variance 2 / (fan_in + fan_out) (Xavier's normal initializer); a class, as TF1's,
    so that get_variable(initializer=tf.glorot_normal_initializer) makes one."""

    def __init__(self, seed=None, dtype=dtypes.float32):
        super().__init__(1.0, "fan_avg", "truncated_normal", seed, dtype)


class random_uniform_initializer:  # noqa: N801 - TF1's name
    """Uniform values in [minval, maxval) (maxval 1 for floats when not given)."""

    def __init__(self, minval=0, maxval=None, seed=None, dtype=dtypes.float32):
        self.minval, self.maxval, self.seed, self.dtype = minval, maxval, seed, dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        return random_uniform(shape, self.minval, self.maxval, dtypes.as_dtype(dtype or self.dtype), self.seed,
                              name="Initializer")


class uniform_unit_scaling_initializer:  # noqa: N801 - TF1's name
    """Uniform values in +-factor * sqrt(3 / input_size), input_size the product of all dims but the last."""

    def __init__(self, factor=1.0, seed=None, dtype=dtypes.float32):
        self.factor, self.seed, self.dtype = factor, seed, dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        input_size = max(float(np.prod([int(d) for d in tuple(shape)[:-1]])), 1.0)
        limit = math.sqrt(3.0 / input_size) * self.factor
        return random_uniform(shape, -limit, limit, dtypes.as_dtype(dtype or self.dtype), self.seed,
                              name="Initializer")


class orthogonal_initializer:  # noqa: N801 - TF1's name
    """A (semi-)orthogonal matrix times `gain`, of the variable flattened to (product of all dims but the last,
    last dim): the Q of a normal matrix's QR decomposition, its columns' signs fixed by R's diagonal (TF1's)."""

    def __init__(self, gain=1.0, seed=None, dtype=dtypes.float32):
        self.gain, self.seed, self.dtype = gain, seed, dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        shape, dtype = tuple(int(d) for d in shape), dtypes.as_dtype(dtype or self.dtype)
        if len(shape) < 2:
            raise ValueError(f"orthogonal_initializer needs a shape of rank >= 2, got {shape}")
        rows, cols = int(np.prod(shape[:-1])), shape[-1]
        normal = random_normal((max(rows, cols), min(rows, cols)), dtype=dtype, seed=self.seed)
        q, r = qr(normal)
        q = q * sign(matrix_diag_part(r))
        return reshape(self.gain * (q if rows >= cols else transpose(q)), shape, name="Initializer")


def he_normal(seed=None):
    """Truncated normal values of variance 2 / fan_in (He et al., 2015)."""
    return variance_scaling_initializer(2.0, "fan_in", "truncated_normal", seed)


def he_uniform(seed=None):
    """Uniform values in +-sqrt(6 / fan_in)."""
    return variance_scaling_initializer(2.0, "fan_in", "uniform", seed)


def lecun_normal(seed=None):
    """Truncated normal values of variance 1 / fan_in (LeCun et al., 1998)."""
    return variance_scaling_initializer(1.0, "fan_in", "truncated_normal", seed)


def lecun_uniform(seed=None):
    """Uniform values in +-sqrt(3 / fan_in)."""
    return variance_scaling_initializer(1.0, "fan_in", "uniform", seed)
