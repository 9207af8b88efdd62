"""tf.keras.optimizers.schedules and the decays of tf.keras.experimental: a LearningRateSchedule called with the
step gives the learning rate as a graph op of it. The four of tf.train's schedules run tf.train's ops; the cosine
schedules with restarts or a linear part are built here from the math ops, with TF 1.15's formulas."""
import math

from ...ops.cwise_ops import floor
from ...ops.random_ops import random_normal
from ...train import learning_rate_decay as decay
from .. import backend as K
from ..utils.generic_utils import deserialize_keras_object, serialize_keras_object


class LearningRateSchedule:
    """Called with the (global) step, the learning rate; get_config() holds what __init__ takes."""

    def __call__(self, step):
        raise NotImplementedError(f"{type(self).__name__} must define __call__(step) -> learning rate")

    def get_config(self):
        return {name: getattr(self, name) for name in self.config_names}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    config_names = ()


class ExponentialDecay(LearningRateSchedule):
    """initial_learning_rate * decay_rate ^ (step / decay_steps), the exponent floored when staircase."""

    config_names = ("initial_learning_rate", "decay_steps", "decay_rate", "staircase", "name")

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name=None):
        self.initial_learning_rate, self.decay_steps, self.decay_rate = initial_learning_rate, decay_steps, decay_rate
        self.staircase, self.name = staircase, name

    def __call__(self, step):
        return decay.exponential_decay(self.initial_learning_rate, step, self.decay_steps, self.decay_rate,
                                       self.staircase, name=self.name or "ExponentialDecay")


class InverseTimeDecay(LearningRateSchedule):
    """initial_learning_rate / (1 + decay_rate * step / decay_steps), the ratio floored when staircase."""

    config_names = ("initial_learning_rate", "decay_steps", "decay_rate", "staircase", "name")

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name=None):
        self.initial_learning_rate, self.decay_steps, self.decay_rate = initial_learning_rate, decay_steps, decay_rate
        self.staircase, self.name = staircase, name

    def __call__(self, step):
        return decay.inverse_time_decay(self.initial_learning_rate, step, self.decay_steps, self.decay_rate,
                                        self.staircase, name=self.name or "InverseTimeDecay")


class PolynomialDecay(LearningRateSchedule):
    """From initial_learning_rate to end_learning_rate over decay_steps along (1 - step / decay_steps) ^ power;
    with cycle the horizon stretches to the next multiple of decay_steps."""

    config_names = ("initial_learning_rate", "decay_steps", "end_learning_rate", "power", "cycle", "name")

    def __init__(self, initial_learning_rate, decay_steps, end_learning_rate=0.0001, power=1.0, cycle=False,
                 name=None):
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.end_learning_rate, self.power, self.cycle, self.name = end_learning_rate, power, cycle, name

    def __call__(self, step):
        return decay.polynomial_decay(self.initial_learning_rate, step, self.decay_steps, self.end_learning_rate,
                                      self.power, self.cycle, name=self.name or "PolynomialDecay")


class PiecewiseConstantDecay(LearningRateSchedule):
    """values[i] while boundaries[i - 1] < step <= boundaries[i]."""

    config_names = ("boundaries", "values", "name")

    def __init__(self, boundaries, values, name=None):
        if len(boundaries) != len(values) - 1:
            raise ValueError(f"The length of boundaries should be 1 less than the length of values; got "
                             f"{len(boundaries)} boundaries and {len(values)} values")
        self.boundaries, self.values, self.name = list(boundaries), list(values), name

    def __call__(self, step):
        step = K.cast(step, "int64") if isinstance(self.boundaries[0], int) else step
        return decay.piecewise_constant(step, self.boundaries, self.values, name=self.name or "PiecewiseConstant")


class CosineDecay(LearningRateSchedule):
    """initial_learning_rate * ((1 - alpha) * (1 + cos(pi * min(step, decay_steps) / decay_steps)) / 2 + alpha)."""

    config_names = ("initial_learning_rate", "decay_steps", "alpha", "name")

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name=None):
        self.initial_learning_rate, self.decay_steps, self.alpha, self.name = (initial_learning_rate, decay_steps,
                                                                               alpha, name)

    def __call__(self, step):
        return decay.cosine_decay(self.initial_learning_rate, step, self.decay_steps, self.alpha,
                                  name=self.name or "CosineDecay")


def _float_step(step):
    return K.cast(step, K.floatx())


class CosineDecayRestarts(LearningRateSchedule):
    """Cosine decay that restarts after first_decay_steps, each period t_mul times longer and its peak m_mul times
    lower (SGDR)."""

    config_names = ("initial_learning_rate", "first_decay_steps", "t_mul", "m_mul", "alpha", "name")

    def __init__(self, initial_learning_rate, first_decay_steps, t_mul=2.0, m_mul=1.0, alpha=0.0, name=None):
        self.initial_learning_rate, self.first_decay_steps = initial_learning_rate, first_decay_steps
        self.t_mul, self.m_mul, self.alpha, self.name = float(t_mul), float(m_mul), alpha, name

    def __call__(self, step):
        fraction = _float_step(step) / float(self.first_decay_steps)
        if self.t_mul == 1.0:
            restarts = floor(fraction)
            fraction = fraction - restarts
        else:
            restarts = floor(K.log(1.0 - fraction * (1.0 - self.t_mul)) / math.log(self.t_mul))
            done = (1.0 - K.pow(K.constant(self.t_mul), restarts)) / (1.0 - self.t_mul)
            fraction = (fraction - done) / K.pow(K.constant(self.t_mul), restarts)
        cosine = 0.5 * K.pow(K.constant(self.m_mul), restarts) * (1.0 + K.cos(math.pi * fraction))
        return self.initial_learning_rate * ((1 - self.alpha) * cosine + self.alpha)


class LinearCosineDecay(LearningRateSchedule):
    """initial_learning_rate * ((alpha + linear) * cosine + beta): linear falls from 1 to 0 over decay_steps while
    the cosine makes num_periods periods."""

    config_names = ("initial_learning_rate", "decay_steps", "num_periods", "alpha", "beta", "name")

    def __init__(self, initial_learning_rate, decay_steps, num_periods=0.5, alpha=0.0, beta=0.001, name=None):
        self.initial_learning_rate, self.decay_steps, self.num_periods = initial_learning_rate, decay_steps, num_periods
        self.alpha, self.beta, self.name = alpha, beta, name

    def linear(self, step):
        return (float(self.decay_steps) - step) / float(self.decay_steps)

    def __call__(self, step):
        step = K.minimum(_float_step(step), float(self.decay_steps))
        cosine = 0.5 * (1.0 + K.cos(math.pi * 2.0 * self.num_periods * step / float(self.decay_steps)))
        return self.initial_learning_rate * ((self.alpha + self.linear(step)) * cosine + self.beta)


class NoisyLinearCosineDecay(LinearCosineDecay):
    """LinearCosineDecay whose linear part carries normal noise of variance initial_variance /
    (1 + step) ^ variance_decay."""

    config_names = ("initial_learning_rate", "decay_steps", "initial_variance", "variance_decay", "num_periods",
                    "alpha", "beta", "name")

    def __init__(self, initial_learning_rate, decay_steps, initial_variance=1.0, variance_decay=0.55,
                 num_periods=0.5, alpha=0.0, beta=0.001, name=None):
        super().__init__(initial_learning_rate, decay_steps, num_periods, alpha, beta, name)
        self.initial_variance, self.variance_decay = initial_variance, variance_decay

    def linear(self, step):
        stddev = K.sqrt(self.initial_variance / K.pow(1.0 + step, self.variance_decay))
        return super().linear(step) + random_normal((), stddev=stddev)


SCHEDULES = {c.__name__: c for c in (ExponentialDecay, InverseTimeDecay, PolynomialDecay, PiecewiseConstantDecay,
                                     CosineDecay, CosineDecayRestarts, LinearCosineDecay, NoisyLinearCosineDecay)}


def serialize(learning_rate_schedule):
    """{'class_name', 'config'} of a schedule."""
    return serialize_keras_object(learning_rate_schedule)


def deserialize(config, custom_objects=None):
    """The schedule serialize() described."""
    return deserialize_keras_object(config, SCHEDULES, custom_objects, "decay")
