"""Learning-rate schedules: graph ops of the global step, computed in the learning rate's dtype (float32 for
Python numbers, as TF1). Each schedule is one op whose kernel is TF1's closed form; the result is named like
TF1's ("ExponentialDecay:0") and can be passed to any optimizer as its learning rate."""
import math

import numpy as np

from ..framework import dtypes
from ..framework.tensor import Tensor
from ..framework.graph import get_default_graph
from ..ops.array_ops import cast
from ..ops.core_ops import constant, convert_to_tensor
from ..ops.random_ops import random_normal
from ..framework.registry import broadcast_shapes, get_array_module, op_def, register


def _progress(step, decay_steps, staircase):
    p = step / decay_steps
    return np.floor(p) if staircase else p


def _exponential(lr, step, decay_steps, decay_rate, staircase=False):
    return lr * decay_rate ** _progress(step, decay_steps, staircase)


def _natural_exp(lr, step, decay_steps, decay_rate, staircase=False):
    return lr * np.exp(-decay_rate * _progress(step, decay_steps, staircase))


def _inverse_time(lr, step, decay_steps, decay_rate, staircase=False):
    return lr / (1 + decay_rate * _progress(step, decay_steps, staircase))


def _polynomial(lr, step, decay_steps, end_learning_rate, power, cycle=False):
    if cycle:  # stretch the horizon to the next multiple of decay_steps (the first cycle at step 0)
        xp = get_array_module(step)
        decay_steps = decay_steps * xp.where(step == 0, 1, np.ceil(step / decay_steps))
    else:
        step = np.minimum(step, decay_steps)
    return (lr - end_learning_rate) * (1 - step / decay_steps) ** power + end_learning_rate


def _cosine(lr, step, decay_steps, alpha):
    fraction = np.minimum(step, decay_steps) / decay_steps
    return lr * ((1 - alpha) * 0.5 * (1 + np.cos(math.pi * fraction)) + alpha)


def _cosine_restarts(lr, step, first_decay_steps, t_mul, m_mul, alpha):
    xp = get_array_module(step)
    fraction = step / first_decay_steps
    # restart i begins after first_decay_steps * (1 + t_mul + ... + t_mul^(i-1)) steps (geometric unless t_mul is 1)
    ratio = xp.where(t_mul == 1, 2, t_mul)  # keeps the unused geometric branch finite when t_mul is 1
    i_geometric = np.floor(np.log(1 - fraction * (1 - ratio)) / np.log(ratio))
    i_restart = xp.where(t_mul == 1, np.floor(fraction), i_geometric)
    done = (1 - ratio ** i_geometric) / (1 - ratio)
    fraction = xp.where(t_mul == 1, fraction - i_restart, (fraction - done) / ratio ** i_geometric)
    cosine = 0.5 * m_mul ** i_restart * (1 + np.cos(math.pi * fraction))
    return lr * ((1 - alpha) * cosine + alpha)


def _linear_cosine(lr, step, decay_steps, num_periods, alpha, beta, initial_variance=0, variance_decay=0, noise=0):
    step = np.minimum(step, decay_steps)
    linear = (decay_steps - step) / decay_steps
    # the noisy schedule adds noise of variance initial_variance / (1 + step)^variance_decay (noise is N(0, 1))
    linear = linear + np.sqrt(initial_variance / (1 + step) ** variance_decay) * noise
    cosine = 0.5 * (1 + np.cos(math.pi * 2 * num_periods * step / decay_steps))
    return lr * ((alpha + linear) * cosine + beta)


def _in_dtype_of_lr(schedule):
    def forward(lr, *rest, **attrs):
        return schedule(lr, *[r.astype(lr.dtype) for r in rest], **attrs).astype(lr.dtype)
    return forward


def _infer(lr, *rest, **attrs):
    return [(broadcast_shapes(lr.shape, rest[0].shape), lr.dtype)]


for _type, _schedule in [("ExponentialDecay", _exponential), ("NaturalExpDecay", _natural_exp),
                         ("InverseTimeDecay", _inverse_time), ("PolynomialDecay", _polynomial),
                         ("CosineDecay", _cosine), ("SGDRDecay", _cosine_restarts),
                         ("LinearCosineDecay", _linear_cosine), ("NoisyLinearCosineDecay", _linear_cosine)]:
    register(_type, _in_dtype_of_lr(_schedule), infer=_infer)


def _learning_rate(value):
    lr = value if isinstance(value, Tensor) else constant(value, dtype=dtypes.float32, name="learning_rate")
    if lr.dtype.kind != "f":
        raise TypeError(f"The learning rate must be a float Tensor, got {lr.name!r} of dtype {lr.dtype.name}; "
                        "use tg.cast(..., tg.float32)")
    return lr


def _schedule(op_type, default_name, name, learning_rate, global_step, hyper, **attrs):
    if global_step is None:
        raise ValueError(f"global_step is required for {default_name}: pass tg.train.get_or_create_global_step()")
    graph = global_step.graph if isinstance(global_step, Tensor) else get_default_graph()
    with graph.as_default(), graph.name_scope(name or op_type) as scope:
        lr = _learning_rate(learning_rate)
        step = convert_to_tensor(global_step)
        hyper = [(n, v(step) if callable(v) else v) for n, v in hyper]  # a callable builds its input in the scope
        inputs = [lr, step] + [v if isinstance(v, Tensor) else constant(v, dtype=lr.dtype, name=n)
                               for n, v in hyper]
        specs = op_def(op_type).infer(*inputs, **attrs)
        # The op takes its scope's own name, so the result reads "ExponentialDecay:0" as in TF1.
        return graph.create_op(op_type, inputs, specs, name=scope[:-1], attrs=attrs, unique=False).outputs[0]


def exponential_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    """learning_rate * decay_rate ^ (global_step / decay_steps), the exponent floored when staircase."""
    return _schedule("ExponentialDecay", "exponential_decay", name, learning_rate, global_step,
                     [("decay_steps", decay_steps), ("decay_rate", decay_rate)], staircase=bool(staircase))


def natural_exp_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    """learning_rate * exp(-decay_rate * global_step / decay_steps), the ratio floored when staircase."""
    return _schedule("NaturalExpDecay", "natural_exp_decay", name, learning_rate, global_step,
                     [("decay_steps", decay_steps), ("decay_rate", decay_rate)], staircase=bool(staircase))


def inverse_time_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    """learning_rate / (1 + decay_rate * global_step / decay_steps), the ratio floored when staircase."""
    return _schedule("InverseTimeDecay", "inverse_time_decay", name, learning_rate, global_step,
                     [("decay_steps", decay_steps), ("decay_rate", decay_rate)], staircase=bool(staircase))


def polynomial_decay(learning_rate, global_step, decay_steps, end_learning_rate=0.0001, power=1.0, cycle=False,
                     name=None):
    """(lr - end) * (1 - min(step, decay_steps) / decay_steps) ^ power + end; cycle restarts it past decay_steps."""
    return _schedule("PolynomialDecay", "polynomial_decay", name, learning_rate, global_step,
                     [("decay_steps", decay_steps), ("end_learning_rate", end_learning_rate), ("power", power)],
                     cycle=bool(cycle))


def cosine_decay(learning_rate, global_step, decay_steps, alpha=0.0, name=None):
    """learning_rate * ((1 - alpha) * (1 + cos(pi * min(step, decay_steps) / decay_steps)) / 2 + alpha)."""
    return _schedule("CosineDecay", "cosine_decay", name, learning_rate, global_step,
                     [("decay_steps", decay_steps), ("alpha", alpha)])


def cosine_decay_restarts(learning_rate, global_step, first_decay_steps, t_mul=2.0, m_mul=1.0, alpha=0.0,
                          name=None):
    """Cosine decay restarted after first_decay_steps, each period t_mul times the last and each restart's rate
    m_mul times the last's (SGDR); the result is named "SGDRDecay" as in TF."""
    return _schedule("SGDRDecay", "cosine_decay_restarts", name, learning_rate, global_step,
                     [("first_decay_steps", first_decay_steps), ("t_mul", t_mul), ("m_mul", m_mul),
                      ("alpha", alpha)])


def linear_cosine_decay(learning_rate, global_step, decay_steps, num_periods=0.5, alpha=0.0, beta=0.001, name=None):
    """learning_rate * ((alpha + linear) * cosine + beta): linear falls from 1 to 0 over decay_steps while the
    cosine makes num_periods periods."""
    return _schedule("LinearCosineDecay", "linear_cosine_decay", name, learning_rate, global_step,
                     [("decay_steps", decay_steps), ("num_periods", num_periods), ("alpha", alpha), ("beta", beta)])


def noisy_linear_cosine_decay(learning_rate, global_step, decay_steps, initial_variance=1.0, variance_decay=0.55,
                              num_periods=0.5, alpha=0.0, beta=0.001, name=None):
    """linear_cosine_decay with Gaussian noise added to its linear part, of variance
    initial_variance / (1 + global_step)^variance_decay, drawn afresh each run."""
    return _schedule("NoisyLinearCosineDecay", "noisy_linear_cosine_decay", name, learning_rate, global_step,
                     [("decay_steps", decay_steps), ("num_periods", num_periods), ("alpha", alpha), ("beta", beta),
                      ("initial_variance", initial_variance), ("variance_decay", variance_decay),
                      ("noise", _noise_like)])


def _noise_like(step):
    """N(0, 1) noise in the step's static shape, which TF needs fully known to draw it."""
    if not step.shape.is_fully_defined():
        raise ValueError(f"Cannot convert a partially known TensorShape {step.shape} to a Tensor: "
                         f"noisy_linear_cosine_decay draws its noise in the shape of the global step "
                         f"{step.name!r}; give the step a fully known shape")
    return random_normal(step.shape.as_list())


def _piecewise(x, *boundaries_and_values):
    n = len(boundaries_and_values) // 2
    boundaries, values = boundaries_and_values[:n], boundaries_and_values[n:]
    return values[sum(bool(x > b) for b in boundaries)]


register("PiecewiseConstant", _piecewise, infer=lambda x, *bv: [(bv[-1].shape, bv[-1].dtype)])


def piecewise_constant(x, boundaries, values, name=None):
    """values[0] while x <= boundaries[0], values[i] while boundaries[i-1] < x <= boundaries[i], then values[-1]."""
    if len(values) != len(boundaries) + 1:
        raise ValueError(f"The length of boundaries should be 1 less than the length of values, got "
                         f"{len(boundaries)} boundaries and {len(values)} values")
    graph = x.graph if isinstance(x, Tensor) else get_default_graph()
    with graph.as_default(), graph.name_scope(name or "PiecewiseConstant") as scope:
        x = convert_to_tensor(x)
        bounds = [_boundary(b, x) for b in boundaries]
        values = [convert_to_tensor(v) for v in values]
        for v in values[1:]:
            if v.dtype != values[0].dtype:
                raise ValueError(f"Values must have elements all with the same dtype ({values[0].dtype.name} vs "
                                 f"{v.dtype.name})")
        inputs = [x, *bounds, *values]
        specs = op_def("PiecewiseConstant").infer(*inputs)
        return graph.create_op("PiecewiseConstant", inputs, specs, name=scope[:-1], unique=False).outputs[0]


def _boundary(b, x):
    b = convert_to_tensor(b)
    if b.dtype != x.dtype:
        # int32 boundaries (Python ints) widen losslessly to an int64 step; anything else would compare wrongly.
        if b.dtype == dtypes.int32 and x.dtype == dtypes.int64:
            return cast(b, dtypes.int64)
        raise ValueError(f"Boundaries ({b.dtype.name}) must have the same dtype as x ({x.dtype.name}): "
                         f"boundary {b.name!r} vs x {x.name!r}")
    return b


piecewise_constant_decay = piecewise_constant  # TF's other name for it
