"""tf.train.experimental's loss scales (TF's training/experimental/loss_scale.py): the factor a float16 model's loss
is multiplied by before its gradients are taken, so that small gradients do not flush to zero, and divided out of
the gradients after.

A FixedLossScale is a constant. A DynamicLossScale keeps the scale in the variable "current_loss_scale" and the
finite steps since its last change in "good_steps": after increment_period finite steps in a row the scale is
multiplied by `multiplier`; a step with an inf or nan gradient divides it (never below 1) and restarts the count.
"""
import abc
import math

import numpy as np

from ..framework import dtypes
from ..ops.core_ops import constant, group, no_op
from ..ops.cwise_ops import is_finite, logical_and, logical_not
from ..ops.math_ops import maximum, where, zeros_like
from ..ops.reduction_ops import reduce_all
from ..ops.stack_ops import stack
from ..ops.variables import Variable, assign


class LossScale(abc.ABC):
    """A loss scale: calling it gives the scale (a float32 scalar Tensor); update(grads) gives (an op updating the
    scale, whether to apply these gradients). Abstract, as TF's: subclass it defining all three."""

    @abc.abstractmethod
    def __call__(self):
        """The scale, a float32 scalar Tensor."""

    @abc.abstractmethod
    def update(self, grads):
        """(an op updating the scale from these gradients, a bool Tensor or True: whether to apply them)."""

    @abc.abstractmethod
    def get_config(self):
        """The constructor's arguments, for from_config."""

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class FixedLossScale(LossScale):
    """The same scale at every step; every step's gradients are applied."""

    def __init__(self, loss_scale_value):
        if not isinstance(loss_scale_value, (int, float)) or isinstance(loss_scale_value, bool):
            raise ValueError(f"loss_scale_value must be a Python int or float, got {loss_scale_value!r}")
        if loss_scale_value < 1:
            raise ValueError("loss_scale_value must be at least 1.")
        self._value = float(loss_scale_value)

    def __call__(self):
        return constant(self._value, dtype=dtypes.float32)

    def update(self, grads):
        del grads
        return no_op(), True

    def get_config(self):
        return {"loss_scale_value": self._value}

    def __repr__(self):
        return f"FixedLossScale({self._value})"


def all_finite(grads):
    """A bool scalar Tensor: every element of every gradient (None ones left out) is finite."""
    checks = [reduce_all(is_finite(g)) for g in grads if g is not None]
    return reduce_all(stack(checks)) if checks else constant(True)


class DynamicLossScale(LossScale):
    """A scale that grows by `multiplier` after increment_period finite steps and shrinks by it at a non-finite
    one; its two variables are made in the default graph when it is."""

    def __init__(self, initial_loss_scale=2 ** 15, increment_period=2000, multiplier=2.0):
        self._initial, self._period, self._multiplier = float(initial_loss_scale), int(increment_period), \
            float(multiplier)
        self._scale = Variable(np.float32(self._initial), name="current_loss_scale", trainable=False)
        self._good_steps = Variable(np.int64(0), name="good_steps", trainable=False)

    initial_loss_scale = property(lambda self: self._initial)
    increment_period = property(lambda self: self._period)
    multiplier = property(lambda self: self._multiplier)

    def __call__(self):
        return self._scale

    def update(self, grads):
        finite, scale, good = all_finite(grads), self._scale, self._good_steps
        counted = good + 1
        grow = counted >= self._period
        bigger = scale * self._multiplier  # kept only where finite: an overflowing scale stays as it is
        grown = where(logical_and(grow, is_finite(bigger)), bigger, scale)
        new_scale = where(finite, grown, maximum(scale / self._multiplier, 1.0))
        new_good = where(logical_and(finite, logical_not(grow)), counted, zeros_like(counted))
        return group(assign(scale, new_scale), assign(good, new_good)), finite

    def get_config(self):
        return {"initial_loss_scale": self._initial, "increment_period": self._period,
                "multiplier": self._multiplier}

    def __repr__(self):
        return (f"DynamicLossScale(initial_loss_scale={self._initial}, increment_period={self._period}, "
                f"multiplier={self._multiplier})")


def get(identifier):
    """A LossScale from "dynamic", a number (fixed) or a LossScale itself."""
    if isinstance(identifier, LossScale):
        return identifier
    if identifier == "dynamic":
        return DynamicLossScale()
    if isinstance(identifier, (int, float)) and not isinstance(identifier, bool) and math.isfinite(identifier):
        return FixedLossScale(identifier)
    raise ValueError(f"Invalid loss scale: {identifier!r}; use \"dynamic\", a number, or a LossScale")
