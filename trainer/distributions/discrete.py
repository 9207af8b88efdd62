"""tf.distributions' families over classes and counts: Bernoulli, Categorical, Multinomial, and the vector
families Dirichlet and DirichletMultinomial, with TF1's KL divergences between two of a kind."""
import numpy as np

from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from ..framework.tensor_shape import TensorShape
from ..ops.array_ops import argmax, cast, concat, one_hot, reshape, shape as shape_of, transpose
from ..ops.core_ops import constant, convert_to_tensor, identity
from ..ops.cwise_ops import log1p, rsqrt
from ..ops.diag_ops import matrix_set_diag
from ..ops.fill_ops import fill, range as range_
from ..ops.math_ops import exp, log, matmul, ones_like, sqrt, where
from ..ops.activation_ops import softplus
from ..ops.nn_ops import log_softmax, sigmoid, sigmoid_cross_entropy_with_logits, softmax
from ..ops.nn_ops import sparse_softmax_cross_entropy_with_logits
from ..ops.random_ops import random_uniform
from ..ops.reduction_ops import reduce_all, reduce_sum
from ..ops.sampling_ops import multinomial
from ..ops.special_ops import digamma, lbeta, lgamma, xlogy
from ..ops.stack_ops import stack
from ..ops.tensor_util import constant_value
from .continuous import random_gamma
from .distribution import FULLY_REPARAMETERIZED, NOT_REPARAMETERIZED, Distribution
from .kullback_leibler import RegisterKL


def logits_and_probs(logits, probs, multidimensional):
    """(logits, probs) from either one, as TF1's get_logits_and_probs: softmax or sigmoid one way, log or the
    log-odds the other."""
    if (probs is None) == (logits is None):
        raise ValueError("Must pass probs or logits, but not both.")
    if probs is None:
        logits = convert_to_tensor(logits, name="logits")
        if not logits.dtype.is_floating:
            raise TypeError(f"logits must have a floating dtype, got {logits.dtype.name}: cast them first")
        return logits, (softmax(logits, name="probs") if multidimensional else sigmoid(logits, name="probs"))
    probs = convert_to_tensor(probs, name="probs")
    if not probs.dtype.is_floating:
        raise TypeError(f"probs must have a floating dtype, got {probs.dtype.name}: cast them first")
    with name_scope("logits"):
        return (log(probs) if multidimensional else log(probs) - log1p(-1.0 * probs)), probs


def log_combinations(n, counts):
    """log of the multinomial coefficient n! / prod(counts!) over the last axis."""
    with name_scope("log_combinations"):
        return lgamma(n + 1.0) - reduce_sum(lgamma(counts + 1.0), axis=[-1])


class Bernoulli(Distribution):
    """0/1 events, 1 with probability `probs` (or sigmoid(`logits`))."""

    def __init__(self, logits=None, probs=None, dtype=dtypes.int32, validate_args=False, allow_nan_stats=True,
                 name="Bernoulli"):
        parameters = dict(locals())
        with name_scope(name) as scope:
            self._logits, self._probs = logits_and_probs(logits, probs, False)
        super().__init__(dtype, NOT_REPARAMETERIZED, validate_args, allow_nan_stats, parameters,
                         [self._logits, self._probs], scope)

    logits = property(lambda self: self._logits)
    probs = property(lambda self: self._probs)

    def _batch_shape(self):
        return self._logits.shape

    def _batch_shape_tensor(self):
        return shape_of(self._logits)

    def _event_shape(self):
        return TensorShape([])

    def _event_shape_tensor(self):
        return constant([], dtype=dtypes.int32)

    def _sample_n(self, n, seed=None):
        uniform = random_uniform(concat([[n], self.batch_shape_tensor()], 0), seed=seed,
                                      dtype=self._probs.dtype)
        return cast(uniform < self._probs, self.dtype)

    def _log_prob(self, event):
        event = cast(event, self._logits.dtype)
        logits = self._logits
        if not (event.shape.is_fully_defined() and logits.shape.is_fully_defined() and event.shape == logits.shape):
            logits, event = ones_like(event) * logits, ones_like(logits) * event
        return -sigmoid_cross_entropy_with_logits(labels=event, logits=logits)

    def _entropy(self):
        return -self._logits * (sigmoid(self._logits) - 1) + softplus(-self._logits)

    def _mean(self):
        return identity(self._probs)

    def _variance(self):
        return self._mean() * (1.0 - self._probs)

    def _mode(self):
        return cast(self._probs > 0.5, self.dtype)


@RegisterKL(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(a, b, name=None):
    with name_scope(name or "kl_bernoulli_bernoulli"):
        delta0 = softplus(-b.logits) - softplus(-a.logits)
        delta1 = softplus(b.logits) - softplus(a.logits)
        return sigmoid(a.logits) * delta0 + sigmoid(-a.logits) * delta1


class Categorical(Distribution):
    """Class indices in [0, K), with probabilities over the last axis of `probs` (or softmax(`logits`))."""

    def __init__(self, logits=None, probs=None, dtype=dtypes.int32, validate_args=False, allow_nan_stats=True,
                 name="Categorical"):
        parameters = dict(locals())
        with name_scope(name) as scope:
            self._logits, self._probs = logits_and_probs(logits, probs, True)
            if self._logits.ndim is not None and self._logits.ndim < 1:
                raise ValueError(f"Categorical's logits need at least one axis (the classes), got shape "
                                 f"{self._logits.shape}")
            self._event_size = self._logits.shape[-1] if self._logits.ndim else None
        super().__init__(dtype, NOT_REPARAMETERIZED, validate_args, allow_nan_stats, parameters,
                         [self._logits, self._probs], scope)

    logits = property(lambda self: self._logits)
    probs = property(lambda self: self._probs)

    @property
    def event_size(self):
        return self._event_size if self._event_size is not None else shape_of(self._logits)[-1]

    def _batch_shape(self):
        return self._logits.shape[:-1] if self._logits.ndim is not None else TensorShape(None)

    def _batch_shape_tensor(self):
        return shape_of(self._logits)[:-1]

    def _event_shape(self):
        return TensorShape([])

    def _event_shape_tensor(self):
        return constant([], dtype=dtypes.int32)

    def _sample_n(self, n, seed=None):
        logits_2d = self._logits if self._logits.ndim == 2 else reshape(self._logits, [-1, self.event_size])
        sample_dtype = dtypes.int64 if self.dtype.itemsize > 4 else dtypes.int32
        draws = multinomial(logits_2d, n, seed=seed, output_dtype=sample_dtype)
        draws = reshape(transpose(draws), concat([[n], self.batch_shape_tensor()], 0))
        return cast(draws, self.dtype)

    def _broadcast(self, k, params):
        if k.dtype.is_floating:
            k = cast(k, dtypes.int32)
        elif not k.dtype.is_integer:
            raise TypeError(f"`value` should have integer `dtype` or `self.dtype` ({self.dtype.name})")
        known = params.ndim is not None and params.shape[:-1].is_fully_defined() and k.shape.is_fully_defined()
        if not known or params.shape[:-1] != k.shape:
            params = params * ones_like(k[..., None], dtype=params.dtype)
            k = k * ones_like(params[..., 0], dtype=k.dtype)
        return k, params

    def _log_prob(self, k):
        k, logits = self._broadcast(k, self._logits)
        return -sparse_softmax_cross_entropy_with_logits(labels=k, logits=logits)

    def _cdf(self, k):
        k, probs = self._broadcast(k, self._probs)
        below = cast(k[..., None] > range_(self.event_size, dtype=k.dtype), probs.dtype)
        return reduce_sum(probs * below, axis=-1)

    def _entropy(self):
        return -reduce_sum(log_softmax(self._logits) * self._probs, axis=-1)

    def _mode(self):
        return cast(argmax(self._logits, axis=-1), self.dtype)


@RegisterKL(Categorical, Categorical)
def _kl_categorical_categorical(a, b, name=None):
    with name_scope(name or "kl_categorical_categorical"):
        return reduce_sum(softmax(a.logits) * (log_softmax(a.logits) - log_softmax(b.logits)), axis=-1)


class VectorEvents(Distribution):
    """A family whose events are vectors over the last axis of its parameter `_vector`."""

    def _batch_shape(self):
        return self._vector.shape[:-1] if self._vector.ndim is not None else TensorShape(None)

    def _batch_shape_tensor(self):
        return shape_of(self._vector)[:-1]

    def _event_shape(self):
        return self._vector.shape[-1:] if self._vector.ndim is not None else TensorShape([None])

    def _event_shape_tensor(self):
        return shape_of(self._vector)[-1:]

    def _outer_covariance(self, x):
        return matrix_set_diag(-matmul(x[..., None], x[..., None, :]), self._variance())


class Multinomial(VectorEvents):
    """Counts of `total_count` draws over K classes of probabilities `probs` (or softmax(`logits`))."""

    def __init__(self, total_count, logits=None, probs=None, validate_args=False, allow_nan_stats=True,
                 name="Multinomial"):
        parameters = dict(locals())
        with name_scope(name) as scope:
            self._total_count = convert_to_tensor(total_count, name="total_count")
            self._logits, self._probs = logits_and_probs(logits, probs, True)
            self._vector = self._total_count[..., None] * self._probs
        super().__init__(self._probs.dtype, NOT_REPARAMETERIZED, validate_args, allow_nan_stats, parameters,
                         [self._total_count, self._logits, self._probs], scope)

    total_count = property(lambda self: self._total_count)
    logits = property(lambda self: self._logits)
    probs = property(lambda self: self._probs)

    def _sample_n(self, n, seed=None):
        if not (self.batch_shape.is_fully_defined() and self.event_shape.is_fully_defined()):
            raise ValueError(f"{self.name}.sample needs a known batch and event shape, got "
                             f"{self.batch_shape} and {self.event_shape}")
        counts = np.broadcast_to(np.asarray(constant_value(self._total_count)), self.batch_shape.as_list())
        k = self.event_shape[0]
        logits = reshape(self._logits * ones_like(self._vector), [-1, k])
        rows = []
        for i, draws in enumerate(np.ravel(counts).astype(int)):
            x = reshape(multinomial(logits[i:i + 1], n * int(draws), seed=seed), [n, int(draws)])
            rows.append(reduce_sum(one_hot(x, k, dtype=self.dtype), axis=-2))
        return reshape(stack(rows, axis=1), [n] + self.batch_shape.as_list() + [k])

    def _log_prob(self, counts):
        return reduce_sum(counts * log_softmax(self._logits), -1) + log_combinations(self._total_count, counts)

    def _mean(self):
        return identity(self._vector)

    def _variance(self):
        p = self._probs * ones_like(self._total_count)[..., None]
        return self._vector - self._vector * p

    def _covariance(self):
        p = self._probs * ones_like(self._total_count)[..., None]
        return matrix_set_diag(-matmul(self._vector[..., None], p[..., None, :]), self._variance())


class Dirichlet(VectorEvents):
    """Points of the simplex, of concentrations `concentration` over the last axis."""

    def __init__(self, concentration, validate_args=False, allow_nan_stats=True, name="Dirichlet"):
        parameters = dict(locals())
        with name_scope(name) as scope:
            self._vector = convert_to_tensor(concentration, name="concentration")
            self._total = reduce_sum(self._vector, -1)
        super().__init__(self._vector.dtype, FULLY_REPARAMETERIZED, validate_args, allow_nan_stats, parameters,
                         [self._vector, self._total], scope)

    concentration = property(lambda self: self._vector)
    total_concentration = property(lambda self: self._total)

    def _sample_n(self, n, seed=None):
        g = random_gamma([n], self._vector, dtype=self.dtype, seed=seed)
        return g / reduce_sum(g, -1, keepdims=True)

    def _log_prob(self, x):
        return reduce_sum(xlogy(self._vector - 1.0, x), -1) - lbeta(self._vector)

    def _prob(self, x):
        return exp(self._log_prob(x))

    def _k(self):
        return cast(self.event_shape_tensor()[0], self.dtype)

    def _entropy(self):
        return (lbeta(self._vector) + (self._total - self._k()) * digamma(self._total)
                - reduce_sum((self._vector - 1.0) * digamma(self._vector), axis=-1))

    def _mean(self):
        return self._vector / self._total[..., None]

    def _scale(self):
        return rsqrt(1.0 + self._total[..., None])

    def _variance(self):
        scale = self._scale()
        x = scale * self._mean()
        return x * (scale - x)

    def _covariance(self):
        return self._outer_covariance(self._scale() * self._mean())

    def _mode(self):
        mode = (self._vector - 1.0) / (self._total[..., None] - self._k())
        nan = fill(shape_of(mode), self.dtype.type(np.nan))
        return where(reduce_all(self._vector > 1.0, axis=-1), mode, nan)


@RegisterKL(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(d1, d2, name=None):
    with name_scope(name or "kl_dirichlet_dirichlet"):
        digamma_diff = digamma(d1.concentration) - digamma(reduce_sum(d1.concentration, axis=-1, keepdims=True))
        return (reduce_sum((d1.concentration - d2.concentration) * digamma_diff, axis=-1)
                - lbeta(d1.concentration) + lbeta(d2.concentration))


class DirichletMultinomial(VectorEvents):
    """Counts of `total_count` draws over K classes whose probabilities are Dirichlet(`concentration`)."""

    def __init__(self, total_count, concentration, validate_args=False, allow_nan_stats=True,
                 name="DirichletMultinomial"):
        parameters = dict(locals())
        with name_scope(name) as scope:
            self._total_count = convert_to_tensor(total_count, name="total_count")
            self._vector = convert_to_tensor(concentration, name="concentration")
            self._total = reduce_sum(self._vector, -1)
        super().__init__(self._vector.dtype, NOT_REPARAMETERIZED, validate_args, allow_nan_stats, parameters,
                         [self._total_count, self._vector], scope)

    total_count = property(lambda self: self._total_count)
    concentration = property(lambda self: self._vector)
    total_concentration = property(lambda self: self._total)

    def _sample_n(self, n, seed=None):
        draws = int(constant_value(self._total_count))
        k = self.event_shape[0]
        logits = reshape(log(random_gamma([n], self._vector, dtype=self.dtype, seed=seed)), [-1, k])
        x = reduce_sum(one_hot(multinomial(logits, draws, seed=seed), k, dtype=self.dtype), -2)
        return reshape(x, concat([[n], self.batch_shape_tensor(), [k]], 0))

    def _log_prob(self, counts):
        return (lbeta(self._vector + counts) - lbeta(self._vector)) + log_combinations(self._total_count, counts)

    def _prob(self, counts):
        return exp(self._log_prob(counts))

    def _mean(self):
        return self._total_count * (self._vector / self._total[..., None])

    def _scale(self):
        c0 = self._total[..., None]
        return sqrt((1.0 + c0 / self._total_count) / (1.0 + c0))

    def _variance(self):
        scale = self._scale()
        x = scale * self._mean()
        return x * (self._total_count * scale - x)

    def _covariance(self):
        return self._outer_covariance(self._scale() * self._mean())
