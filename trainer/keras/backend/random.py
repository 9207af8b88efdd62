"""Keras' backend random tensors: normal, uniform, truncated normal and binomial draws. Without a seed, Keras picks
one from numpy's global generator, so np.random.seed repeats the draws, as in Keras."""
import numpy as np

from ...ops.math_ops import where
from ...ops import random_ops
from .config import floatx
from .math import less_equal, ones_like, zeros_like


def _seed(seed):
    return np.random.randint(10e6) if seed is None else seed  # Keras' range


def random_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal draws of `shape`."""
    return random_ops.random_normal(shape, mean, stddev, dtype=dtype or floatx(), seed=_seed(seed))


def random_uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Uniform draws in [minval, maxval)."""
    return random_ops.random_uniform(shape, minval, maxval, dtype=dtype or floatx(), seed=_seed(seed))


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal draws redrawn beyond two standard deviations."""
    return random_ops.truncated_normal(shape, mean, stddev, dtype=dtype or floatx(), seed=_seed(seed))


def random_binomial(shape, p=0.0, dtype=None, seed=None):
    """1 with probability p, else 0."""
    draws = random_uniform(shape, dtype=dtype, seed=seed)
    return where(less_equal(draws, p), ones_like(draws), zeros_like(draws))
