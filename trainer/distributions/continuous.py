"""tf.distributions' scalar continuous families: Normal, Laplace, Uniform, Gamma, Exponential, Beta and StudentT,
each with its KL divergence where TF1 registers one. The Gamma-based samplers draw with tf.random.gamma (numpy's
sampler: their moments are TF's, their draws not bit for bit)."""
import math

import numpy as np

from .. import random as random_ns
from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from ..framework.tensor_shape import TensorShape
from ..ops.array_ops import concat, ones, shape as shape_of
from ..ops.core_ops import constant, convert_to_tensor, identity
from ..ops.cwise_ops import is_nan, log1p, logical_or, rsqrt
from ..ops.fill_ops import fill
from ..ops.cwise_ops import squared_difference
from ..ops.math_ops import (abs, exp, log, ones_like, sign, sqrt, square, where,
                            zeros_like)
from ..ops.incomplete_gamma_ops import betainc, igamma
from ..ops.random_ops import random_normal, random_uniform
from ..ops.shape_functions import broadcast_dynamic_shape, broadcast_static_shape
from ..ops.special_ops import digamma, lbeta, lgamma, ndtri, xlogy
from ..ops.stack_ops import stack
from .distribution import FULLY_REPARAMETERIZED, Distribution, float_parameters
from .kullback_leibler import RegisterKL
from .special_math import log_cdf_laplace, log_ndtr, ndtr


def random_gamma(shape, alpha, beta=None, dtype=dtypes.float32, seed=None):
    return random_ns.gamma(shape, alpha, beta=beta, dtype=dtype, seed=seed)


class Scalar(Distribution):
    """A family of scalar events whose parameters broadcast together into the batch shape."""
    PARAMS = ()
    REPARAMETERIZATION = FULLY_REPARAMETERIZED

    def __init__(self, values, validate_args, allow_nan_stats, name, parameters):
        with name_scope(name) as scope:
            self._params = {k: identity(v, name=k) for k, v in zip(self.PARAMS, values)}
            dtype = float_parameters(*self._params.values())
        super().__init__(dtype, self.REPARAMETERIZATION, validate_args, allow_nan_stats, parameters,
                         list(self._params.values()), scope)

    def _batch_shape(self):
        shapes = [p.shape for p in self._params.values()]
        out = shapes[0]
        for s in shapes[1:]:
            out = broadcast_static_shape(out, s)
        return out

    def _batch_shape_tensor(self):
        tensors = [shape_of(p) for p in self._params.values()]
        out = tensors[0]
        for s in tensors[1:]:
            out = broadcast_dynamic_shape(out, s)
        return out

    def _event_shape(self):
        return TensorShape([])

    def _event_shape_tensor(self):
        return constant([], dtype=dtypes.int32)

    def _draw_shape(self, n):
        return concat([[n], self.batch_shape_tensor()], 0)


class Normal(Scalar):
    """The normal distribution of mean `loc` and standard deviation `scale`."""
    PARAMS = ("loc", "scale")

    def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True, name="Normal"):
        super().__init__((loc, scale), validate_args, allow_nan_stats, name, dict(locals()))

    loc = property(lambda self: self._params["loc"])
    scale = property(lambda self: self._params["scale"])

    def _sample_n(self, n, seed=None):
        return random_normal(self._draw_shape(n), dtype=self.dtype, seed=seed) * self.scale + self.loc

    def _z(self, x):
        with name_scope("standardize"):
            return (x - self.loc) / self.scale

    def _log_prob(self, x):
        return -0.5 * square(self._z(x)) - (0.5 * math.log(2.0 * math.pi) + log(self.scale))

    def _log_cdf(self, x):
        return log_ndtr(self._z(x))

    def _cdf(self, x):
        return ndtr(self._z(x))

    def _log_survival_function(self, x):
        return log_ndtr(-self._z(x))

    def _survival_function(self, x):
        return ndtr(-self._z(x))

    def _entropy(self):
        return 0.5 * math.log(2.0 * math.pi * math.e) + log(self.scale * ones_like(self.loc))

    def _mean(self):
        return self.loc * ones_like(self.scale)

    _mode = _mean

    def _stddev(self):
        return self.scale * ones_like(self.loc)

    def _quantile(self, p):
        with name_scope("reconstruct"):
            return ndtri(p) * self.scale + self.loc


@RegisterKL(Normal, Normal)
def _kl_normal_normal(a, b, name=None):
    with name_scope(name or "kl_normal_normal"):
        ratio = square(a.scale) / square(b.scale)
        return squared_difference(a.loc, b.loc) / (2.0 * square(b.scale)) + 0.5 * (ratio - 1.0 - log(ratio))


class Laplace(Scalar):
    """The Laplace distribution of location `loc` and scale `scale`."""
    PARAMS = ("loc", "scale")

    def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True, name="Laplace"):
        super().__init__((loc, scale), validate_args, allow_nan_stats, name, dict(locals()))

    loc = property(lambda self: self._params["loc"])
    scale = property(lambda self: self._params["scale"])

    def _sample_n(self, n, seed=None):
        low = np.nextafter(self.dtype.type(-1.0), self.dtype.type(0.0))
        u = random_uniform(self._draw_shape(n), minval=low, maxval=1.0, dtype=self.dtype, seed=seed)
        return self.loc - self.scale * sign(u) * log1p(-abs(u))

    def _z(self, x):
        return (x - self.loc) / self.scale

    def _log_prob(self, x):
        return -abs(self._z(x)) - (math.log(2.0) + log(self.scale))

    def _prob(self, x):
        return exp(self._log_prob(x))

    def _log_cdf(self, x):
        return log_cdf_laplace(self._z(x))

    def _log_survival_function(self, x):
        return log_cdf_laplace(-self._z(x))

    def _cdf(self, x):
        z = self._z(x)
        return 0.5 + 0.5 * sign(z) * (1.0 - exp(-abs(z)))

    def _entropy(self):
        return math.log(2.0) + 1.0 + log(self.scale + zeros_like(self.loc))

    def _mean(self):
        return self.loc + zeros_like(self.scale)

    _mode = _mean

    def _stddev(self):
        return math.sqrt(2.0) * self.scale + zeros_like(self.loc)


class Uniform(Scalar):
    """The uniform distribution on [low, high)."""
    PARAMS = ("low", "high")

    def __init__(self, low=0.0, high=1.0, validate_args=False, allow_nan_stats=True, name="Uniform"):
        super().__init__((low, high), validate_args, allow_nan_stats, name, dict(locals()))

    low = property(lambda self: self._params["low"])
    high = property(lambda self: self._params["high"])

    def range(self, name="range"):
        with self._name_scope(name):
            return self.high - self.low

    def _sample_n(self, n, seed=None):
        return self.low + self.range() * random_uniform(self._draw_shape(n), dtype=self.dtype, seed=seed)

    def _prob(self, x):
        x = x * ones(self.batch_shape_tensor(), dtype=x.dtype)
        inside = where(logical_or(x < self.low, x >= self.high), zeros_like(x), ones_like(x) / self.range())
        return where(is_nan(x), x, inside)

    def _cdf(self, x):
        both = broadcast_dynamic_shape(shape_of(x), self.batch_shape_tensor())
        zeros, ones_ = fill(both, self.dtype.type(0)), fill(both, self.dtype.type(1))
        below = where(x < self.low, zeros, (x * ones_ - self.low) / self.range())
        return where(x >= self.high, ones_, below)

    def _entropy(self):
        return log(self.range())

    def _mean(self):
        return (self.low + self.high) / 2.0

    def _variance(self):
        return square(self.range()) / 12.0

    def _stddev(self):
        return self.range() / math.sqrt(12.0)


class Gamma(Scalar):
    """The gamma distribution of shape `concentration` and inverse scale `rate`."""
    PARAMS = ("concentration", "rate")

    def __init__(self, concentration, rate, validate_args=False, allow_nan_stats=True, name="Gamma"):
        super().__init__((concentration, rate), validate_args, allow_nan_stats, name, dict(locals()))

    concentration = property(lambda self: self._params["concentration"])
    rate = property(lambda self: self._params["rate"])

    def _sample_n(self, n, seed=None):
        return random_gamma([n], self.concentration, beta=self.rate, dtype=self.dtype, seed=seed)

    def _log_prob(self, x):
        float_parameters(x, self.concentration)
        return (xlogy(self.concentration - 1.0, x) - self.rate * x) - (
            lgamma(self.concentration) - self.concentration * log(self.rate))

    def _cdf(self, x):
        float_parameters(x, self.concentration)
        return igamma(self.concentration, self.rate * x)

    def _entropy(self):
        c = self.concentration
        return c - log(self.rate) + lgamma(c) + (1.0 - c) * digamma(c)

    def _mean(self):
        return self.concentration / self.rate

    def _variance(self):
        return self.concentration / square(self.rate)

    def _stddev(self):
        return sqrt(self.concentration) / self.rate

    def _mode(self):
        mode = (self.concentration - 1.0) / self.rate
        return where(self.concentration > 1.0, mode, fill(self.batch_shape_tensor(), self.dtype.type(np.nan)))


@RegisterKL(Gamma, Gamma)
def _kl_gamma_gamma(g0, g1, name=None):
    with name_scope(name or "kl_gamma_gamma"):
        c0, c1 = g0.concentration, g1.concentration
        return ((c0 - c1) * digamma(c0) + lgamma(c1) - lgamma(c0) + c1 * log(g0.rate) - c1 * log(g1.rate)
                + c0 * (g1.rate / g0.rate - 1.0))


class Exponential(Gamma):
    """The exponential distribution of rate `rate`: Gamma with concentration 1."""

    def __init__(self, rate, validate_args=False, allow_nan_stats=True, name="Exponential"):
        parameters = dict(locals())
        with name_scope(name) as scope:
            self._rate = convert_to_tensor(rate, name="rate")
        super().__init__(ones([], dtype=self._rate.dtype), self._rate, validate_args, allow_nan_stats, scope)
        self._parameters = {k: v for k, v in parameters.items() if k not in ("self", "__class__")}

    rate = property(lambda self: self._rate)

    def _log_survival_function(self, x):
        return self._log_prob(x) - log(self._rate)

    def _sample_n(self, n, seed=None):
        u = random_uniform(concat([[n], shape_of(self._rate)], 0), minval=np.finfo(self.dtype.type).tiny,
                           maxval=1.0, dtype=self.dtype, seed=seed)
        return -log(u) / self._rate


class Beta(Scalar):
    """The beta distribution on (0, 1) of concentrations `concentration1` (alpha) and `concentration0` (beta)."""
    PARAMS = ("concentration1", "concentration0")

    def __init__(self, concentration1=None, concentration0=None, validate_args=False, allow_nan_stats=True,
                 name="Beta"):
        super().__init__((concentration1, concentration0), validate_args, allow_nan_stats, name, dict(locals()))
        with name_scope(self.name):
            self._total = self.concentration1 + self.concentration0

    concentration1 = property(lambda self: self._params["concentration1"])
    concentration0 = property(lambda self: self._params["concentration0"])
    total_concentration = property(lambda self: self._total)

    def _sample_n(self, n, seed=None):
        a = ones_like(self._total) * self.concentration1
        b = ones_like(self._total) * self.concentration0
        g1 = random_gamma([n], a, dtype=self.dtype, seed=seed)
        g2 = random_gamma([n], b, dtype=self.dtype, seed=seed)
        return g1 / (g1 + g2)

    def _log_normalization(self):
        return lgamma(self.concentration1) + lgamma(self.concentration0) - lgamma(self._total)

    def _log_prob(self, x):
        return (xlogy(self.concentration1 - 1.0, x) + (self.concentration0 - 1.0) * log1p(-x)) - \
            self._log_normalization()

    def _prob(self, x):
        return exp(self._log_prob(x))

    def _log_cdf(self, x):
        return log(self._cdf(x))

    def _cdf(self, x):
        return betainc(self.concentration1, self.concentration0, x)

    def _entropy(self):
        a, b, t = self.concentration1, self.concentration0, self._total
        return self._log_normalization() - (a - 1.0) * digamma(a) - (b - 1.0) * digamma(b) + (t - 2.0) * digamma(t)

    def _mean(self):
        return self.concentration1 / self._total

    def _variance(self):
        mean = self._mean()
        return mean * (1.0 - mean) / (1.0 + self._total)

    def _mode(self):
        mode = (self.concentration1 - 1.0) / (self._total - 2.0)
        defined = (self.concentration1 > 1.0) & (self.concentration0 > 1.0)
        return where(defined, mode, fill(self.batch_shape_tensor(), self.dtype.type(np.nan)))


@RegisterKL(Beta, Beta)
def _kl_beta_beta(d1, d2, name=None):
    with name_scope(name or "kl_beta_beta"):
        return (d2._log_normalization() - d1._log_normalization()
                - digamma(d1.concentration1) * (d2.concentration1 - d1.concentration1)
                - digamma(d1.concentration0) * (d2.concentration0 - d1.concentration0)
                + digamma(d1.total_concentration) * (d2.total_concentration - d1.total_concentration))


class StudentT(Scalar):
    """Student's t distribution of `df` degrees of freedom, location `loc` and scale `scale`."""
    PARAMS = ("df", "loc", "scale")

    def __init__(self, df, loc, scale, validate_args=False, allow_nan_stats=True, name="StudentT"):
        super().__init__((df, loc, scale), validate_args, allow_nan_stats, name, dict(locals()))

    df = property(lambda self: self._params["df"])
    loc = property(lambda self: self._params["loc"])
    scale = property(lambda self: self._params["scale"])

    def _ones(self):
        return ones(self.batch_shape_tensor(), dtype=self.dtype)

    def _sample_n(self, n, seed=None):
        normal = random_normal(self._draw_shape(n), dtype=self.dtype, seed=seed)
        df = self.df * self._ones()
        g = random_gamma([n], 0.5 * df, beta=0.5, dtype=self.dtype, seed=seed)
        return normal * rsqrt(g / df) * self.scale + self.loc

    def _log_normalization(self):
        return (log(abs(self.scale)) + 0.5 * log(self.df) + 0.5 * np.log(np.pi) + lgamma(0.5 * self.df)
                - lgamma(0.5 * (self.df + 1.0)))

    def _log_prob(self, x):
        y = (x - self.loc) / self.scale
        return -0.5 * (self.df + 1.0) * log1p(y ** 2.0 / self.df) - self._log_normalization()

    def _cdf(self, x):
        y = (x - self.loc) / abs(self.scale)
        neg_cdf = 0.5 * betainc(0.5 * self.df, 0.5 * ones_like(self.df), self.df / (y ** 2.0 + self.df))
        return where(y < 0.0, neg_cdf, 1.0 - neg_cdf)

    def _entropy(self):
        v = self._ones()
        beta_arg = stack([v * self.df, v], axis=-1) / 2.0
        return (log(abs(self.scale)) + 0.5 * log(self.df) + lbeta(beta_arg)
                + 0.5 * (self.df + 1.0) * (digamma(0.5 * (self.df + 1.0)) - digamma(0.5 * self.df)))

    def _nan(self):
        return fill(self.batch_shape_tensor(), self.dtype.type(np.nan))

    def _mean(self):
        return where(self.df > self._ones(), self.loc * self._ones(), self._nan())

    def _variance(self):
        denom = where(self.df > 2.0, self.df - 2.0, ones_like(self.df))
        var = self._ones() * square(self.scale) * self.df / denom
        defined = where(self.df > fill(self.batch_shape_tensor(), self.dtype.type(2)), var,
                        fill(self.batch_shape_tensor(), self.dtype.type(np.inf)))
        return where(self.df > self._ones(), defined, self._nan())

    def _mode(self):
        return identity(self.loc)
