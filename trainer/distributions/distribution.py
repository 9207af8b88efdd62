"""tf.distributions' base: Distribution, whose public methods open the distribution's name scope, convert the
value to its dtype and call the subclass's `_method`, falling back as TF1 does (prob from log_prob, stddev from
variance, ...), and the ReparameterizationType constants."""
import contextlib

import numpy as np

from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from ..framework.tensor import Tensor
from ..framework.tensor_shape import TensorShape
from ..ops.array_ops import concat, reshape, shape as shape_of
from ..ops.core_ops import constant, convert_to_tensor
from ..ops.cwise_ops import log1p
from ..ops.math_ops import exp, log, sqrt, square
from ..ops.tensor_util import constant_value
from .kullback_leibler import kl_divergence


class ReparameterizationType:
    """Whether samples are differentiable functions of the parameters: compared by identity."""

    def __init__(self, rep_type):
        self._rep_type = rep_type

    def __repr__(self):
        return f"<Reparameterization Type: {self._rep_type}>"

    def __eq__(self, other):
        return self is other

    __hash__ = object.__hash__


FULLY_REPARAMETERIZED = ReparameterizationType("FULLY_REPARAMETERIZED")
NOT_REPARAMETERIZED = ReparameterizationType("NOT_REPARAMETERIZED")


def value_tensor(value, dtype):
    """`value` as a Tensor, of `dtype` where a Python value converts to it (TF's preferred_dtype)."""
    if isinstance(value, Tensor):
        return value
    try:
        return convert_to_tensor(value, dtype=dtype, name="value")
    except (TypeError, ValueError):
        return convert_to_tensor(value, name="value")


def float_parameters(*tensors):
    """TF1's assert_same_float_dtype on a distribution's parameters."""
    kinds = {t.dtype for t in tensors}
    if len(kinds) > 1 or not next(iter(kinds)).is_floating:
        raise ValueError(f"the parameters {[t.name for t in tensors]!r} must share one floating dtype, got "
                         f"{[t.dtype.name for t in tensors]!r}: cast them (tg.cast) to float32 or float64")
    return tensors[0].dtype


class Distribution:
    """A batch of probability distributions of one family (TF1's tf.distributions.Distribution)."""

    def __init__(self, dtype, reparameterization_type, validate_args, allow_nan_stats, parameters=None,
                 graph_parents=None, name=None):
        if not name or name[-1] != "/":
            with name_scope(name or type(self).__name__) as name:
                pass
        self._dtype, self._reparameterization_type = dtypes.as_dtype(dtype), reparameterization_type
        self._validate_args, self._allow_nan_stats = validate_args, allow_nan_stats
        self._parameters = {k: v for k, v in (parameters or {}).items() if k != "self" and not k.startswith("__")}
        self._graph_parents = list(graph_parents or [])
        self._name = name

    name = property(lambda self: self._name)
    dtype = property(lambda self: self._dtype)
    parameters = property(lambda self: dict(self._parameters))
    reparameterization_type = property(lambda self: self._reparameterization_type)
    allow_nan_stats = property(lambda self: self._allow_nan_stats)
    validate_args = property(lambda self: self._validate_args)

    def copy(self, **override_parameters_kwargs):
        return type(self)(**dict(self.parameters, **override_parameters_kwargs))

    @property
    def batch_shape(self):
        return TensorShape(self._batch_shape())

    @property
    def event_shape(self):
        return TensorShape(self._event_shape())

    def batch_shape_tensor(self, name="batch_shape_tensor"):
        with self._name_scope(name):
            if self.batch_shape.is_fully_defined():
                return constant(self.batch_shape.as_list(), dtype=dtypes.int32, name="batch_shape")
            return self._batch_shape_tensor()

    def event_shape_tensor(self, name="event_shape_tensor"):
        with self._name_scope(name):
            if self.event_shape.is_fully_defined():
                return constant(self.event_shape.as_list(), dtype=dtypes.int32, name="event_shape")
            return self._event_shape_tensor()

    def is_scalar_batch(self, name="is_scalar_batch"):
        return self._is_scalar(self.batch_shape, name)

    def is_scalar_event(self, name="is_scalar_event"):
        return self._is_scalar(self.event_shape, name)

    def _is_scalar(self, shape, name):
        if shape.ndims is None:
            raise ValueError(f"{self.name}: the rank of its shape is not known while building: ask the shape "
                             f"tensor's size instead")
        with self._name_scope(name):
            return constant(shape.ndims == 0, name=name)

    def sample(self, sample_shape=(), seed=None, name="sample"):
        """Draws of shape sample_shape + batch_shape + event_shape."""
        with self._name_scope(name):
            shape = convert_to_tensor(sample_shape, dtype=dtypes.int32, name="sample_shape")
            static = constant_value(shape)
            if shape.ndim not in (0, 1) or static is None:
                raise ValueError(f"{self.name}.sample: sample_shape must be a known scalar or vector, got "
                                 f"{sample_shape!r}")
            sample_dims = [int(d) for d in np.ravel(static)]
            n = int(np.prod(sample_dims, dtype=np.int64))
            samples = self._sample_n(n, seed)
            rest = self.batch_shape.concatenate(self.event_shape)
            if rest.is_fully_defined():
                return reshape(samples, sample_dims + rest.as_list())
            out = reshape(samples, concat([constant(sample_dims, dtype=dtypes.int32), shape_of(samples)[1:]], 0))
            out.set_shape(TensorShape(sample_dims).concatenate(rest))
            return out

    def _call(self, name, value, method, fallback):
        with self._name_scope(name):
            value = value_tensor(value, self.dtype)
            try:
                return getattr(self, method)(value)
            except NotImplementedError as missing:
                try:
                    return fallback(value)
                except NotImplementedError:
                    raise missing from None

    def log_prob(self, value, name="log_prob"):
        return self._call(name, value, "_log_prob", lambda v: log(self._prob(v)))

    def prob(self, value, name="prob"):
        return self._call(name, value, "_prob", lambda v: exp(self._log_prob(v)))

    def log_cdf(self, value, name="log_cdf"):
        return self._call(name, value, "_log_cdf", lambda v: log(self._cdf(v)))

    def cdf(self, value, name="cdf"):
        return self._call(name, value, "_cdf", lambda v: exp(self._log_cdf(v)))

    def log_survival_function(self, value, name="log_survival_function"):
        return self._call(name, value, "_log_survival_function", lambda v: log1p(-self.cdf(v)))

    def survival_function(self, value, name="survival_function"):
        return self._call(name, value, "_survival_function", lambda v: 1.0 - self.cdf(v))

    def quantile(self, value, name="quantile"):
        return self._call(name, value, "_quantile", self._quantile)

    def _statistic(self, name, method, fallback=None):
        with self._name_scope(name):
            try:
                return getattr(self, method)()
            except NotImplementedError as missing:
                if fallback is None:
                    raise
                try:
                    return fallback()
                except NotImplementedError:
                    raise missing from None

    def entropy(self, name="entropy"):
        return self._statistic(name, "_entropy")

    def mean(self, name="mean"):
        return self._statistic(name, "_mean")

    def mode(self, name="mode"):
        return self._statistic(name, "_mode")

    def covariance(self, name="covariance"):
        return self._statistic(name, "_covariance")

    def variance(self, name="variance"):
        return self._statistic(name, "_variance", lambda: square(self._stddev()))

    def stddev(self, name="stddev"):
        return self._statistic(name, "_stddev", lambda: sqrt(self._variance()))

    def kl_divergence(self, other, name="kl_divergence"):
        with self._name_scope(name):
            return kl_divergence(self, other, allow_nan_stats=self.allow_nan_stats)

    def cross_entropy(self, other, name="cross_entropy"):
        with self._name_scope(name):
            return self.entropy() + kl_divergence(self, other, allow_nan_stats=self.allow_nan_stats)

    @contextlib.contextmanager
    def _name_scope(self, name):
        with name_scope(self.name), name_scope(name) as scope:
            yield scope

    def __repr__(self):
        return (f"<tf.distributions.{type(self).__name__} '{self.name}' batch_shape={self.batch_shape} "
                f"event_shape={self.event_shape} dtype={self.dtype.name}>")


def _unimplemented(what):
    def method(self, *args):
        raise NotImplementedError(f"{what} is not implemented: {type(self).__name__}")
    return method


for _name in ("batch_shape_tensor", "event_shape_tensor", "sample_n", "log_prob", "prob", "log_cdf", "cdf",
              "log_survival_function", "survival_function", "quantile", "entropy", "mean", "mode", "covariance",
              "variance", "stddev"):
    setattr(Distribution, "_" + _name, _unimplemented(_name))
Distribution._batch_shape = lambda self: TensorShape(None)
Distribution._event_shape = lambda self: TensorShape(None)
