"""tf.contrib.layers' initializers: variance scaling (He et al.) and Xavier (Glorot & Bengio), as TF1's contrib.

With n the fan in, fan out or their mean (conv kernels count their window, as tg.glorot_uniform_initializer
does): uniform in ±sqrt(3 * factor / n), else a normal truncated at two standard deviations with stddev
sqrt(1.3 * factor / n) -- 1.3 makes up for the truncation, so the variance comes out close to factor / n.
"""
import math

from ...framework import dtypes
from ...ops.initializers import compute_fans
from ...ops.random_ops import random_uniform, truncated_normal

MODES = ("FAN_IN", "FAN_OUT", "FAN_AVG")
TRUNCATION_VARIANCE = 1.3  # 1 / (variance of a unit normal truncated at ±2 sigma) ~ 1 / 0.774


def _floating(dtype):
    dtype = dtypes.as_dtype(dtype)
    if dtype.kind != "f":
        raise TypeError(f"Cannot create initializer for non-floating point type {dtype.name!r}")
    return dtype


class variance_scaling_initializer:  # noqa: N801  (TF1's name)
    """Values with variance factor / n for n = fan in, fan out or their average (`mode`)."""

    def __init__(self, factor=2.0, mode="FAN_IN", uniform=False, seed=None, dtype=dtypes.float32):
        if mode not in MODES:
            raise TypeError(f"Unknown mode {mode!r}: use one of {list(MODES)}")
        self.factor, self.mode, self.uniform, self.seed = float(factor), mode, uniform, seed
        self.dtype = _floating(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = _floating(dtype if dtype is not None else self.dtype)
        fan_in, fan_out = compute_fans(shape)
        n = {"FAN_IN": fan_in, "FAN_OUT": fan_out, "FAN_AVG": (fan_in + fan_out) / 2.0}[self.mode]
        if self.uniform:
            limit = math.sqrt(3.0 * self.factor / n)
            return random_uniform(shape, -limit, limit, dtype, self.seed, name="Initializer")
        stddev = math.sqrt(TRUNCATION_VARIANCE * self.factor / n)
        return truncated_normal(shape, 0.0, stddev, dtype, self.seed, name="Initializer")


def xavier_initializer(uniform=True, seed=None, dtype=dtypes.float32):
    """Glorot & Bengio's initializer: variance 2 / (fan_in + fan_out), uniform by default."""
    return variance_scaling_initializer(factor=1.0, mode="FAN_AVG", uniform=uniform, seed=seed, dtype=dtype)


xavier_initializer_conv2d = xavier_initializer
