"""What a training step does when its gradients hold NaN or inf: raise before any update, or leave it out.

The decision is taken on the gradients apply_gradients receives. Under DistributedOptimizer those are the
averaged gradients, bitwise identical on every rank, so every rank decides alike without communicating.

    "raise": CheckGradientsFinite runs before every update op (a control dependency) and raises
             NonFiniteGradientError naming the step and the first variable, in var_list order, whose
             gradient is not finite; no variable has changed.
    "skip":  the updates are the true branch of a tg.cond on what CheckGradientsFinite said. The global
             step still advances: a skipped step consumed its batch, and a run whose every step is skipped
             must still end at --steps (TF's LossScaleOptimizer holds it instead).
"""
import numpy as np

from ..platform.errors import InvalidArgumentError
from ..framework.registry import apply_op, get_array_module, register
from ..ops.indexed_slices import IndexedSlices
from .apply_if import apply_if

POLICIES = ("raise", "skip")
_BLAS_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


class NonFiniteError(InvalidArgumentError):
    """NaN or inf where only finite values may go (a checkpoint, an export)."""


class NonFiniteGradientError(NonFiniteError):
    """A step's gradient holds NaN or inf; raised before any variable is updated."""


def check_policy(policy):
    if policy is not None and policy not in POLICIES:
        raise ValueError(f"nonfinite={policy!r} is not a policy: use 'raise' (stop before the update), 'skip' "
                         "(leave the step's update out) or None (no check)")
    return policy


def describe_nonfinite(array):
    """None when every value of `array` is finite, else what is not: "2 NaN and 1 inf of 4096 values"."""
    xp = get_array_module(array)
    if array.dtype.kind not in "fc":
        return None
    with np.errstate(over="ignore", invalid="ignore"):
        if array.dtype in _BLAS_FLOATS:
            # Any NaN or inf makes the sum of squares NaN or inf, and BLAS's dot is one pass at memory speed
            # (2.7x np.sum's); squares of finite values above ~1e19 overflow too, so that case is checked below.
            flat = array.ravel()
            if xp.isfinite(xp.dot(flat, flat)):
                return None
        elif xp.isfinite(array).all():
            return None
        count = int((~xp.isfinite(array)).sum())
    if not count:
        return None
    nan = int(xp.isnan(array).sum())
    return f"{nan} NaN and {count - nan} inf of {array.size} values"


def first_nonfinite(named_arrays):
    """(name, description, how many arrays are not finite) for the first array that is not, else None."""
    found = [(name, text) for name, text in ((n, describe_nonfinite(a)) for n, a in named_arrays) if text]
    return (found[0][0], found[0][1], len(found)) if found else None


class GradientCheck:
    """The kernel of CheckGradientsFinite: True when every gradient is finite; raises under "raise"."""

    def __init__(self, policy, names, has_step):
        self.policy, self.names, self.has_step = policy, list(names), has_step
        self.runs = self.skips = 0

    def __call__(self, *arrays):
        run, self.runs = self.runs, self.runs + 1
        bad = first_nonfinite(zip(self.names, arrays))  # zip stops at the gradients: the global step is last
        if bad is None:
            return np.True_
        if self.policy == "skip":
            self.skips += 1
            return np.False_
        when = f"global step {int(arrays[-1])}" if self.has_step else f"run {run} of the train op"
        name, what, count = bad
        others = f" (and {count - 1} more of the {len(self.names)} gradients)" if count > 1 else ""
        raise NonFiniteGradientError(
            f"non-finite gradient at {when}: the gradient of {name!r} holds {what}{others}; no variable was "
            "updated. Lower the learning rate, look for NaN/inf or huge values in the input data, or leave such "
            "steps out with nonfinite='skip' (ringflow train --nonfinite skip)")


def _infer_flag(*inputs, **attrs):
    return [((), np.dtype(bool))]


register("CheckGradientsFinite", kernel=lambda op, session: op.attrs["check"], infer=_infer_flag)


def apply_gradients(optimizer, grads_and_vars, policy, global_step=None, name=None):
    """optimizer.apply_gradients(grads_and_vars, global_step, name) under `policy`; returns (train op, check).

    check is the GradientCheck (its .skips counts the steps left out), None when policy is None.
    """
    if check_policy(policy) is None:
        return optimizer.apply_gradients(grads_and_vars, global_step=global_step, name=name), None
    pairs = [(g, v) for g, v in grads_and_vars if g is not None]
    if not pairs:
        return optimizer.apply_gradients(grads_and_vars, global_step=global_step, name=name), None
    graph = pairs[0][1].graph
    check = GradientCheck(policy, [v.name for _, v in pairs], global_step is not None)
    # an IndexedSlices' rows are all it has that is not 0
    inputs = [g.values if isinstance(g, IndexedSlices) else g for g, _ in pairs]
    inputs += [global_step] if global_step is not None else []
    with graph.as_default():
        finite = apply_op("CheckGradientsFinite", inputs, name="CheckGradientsFinite", check=check)
        if policy == "raise":
            with graph.control_dependencies([finite]):
                return optimizer.apply_gradients(grads_and_vars, global_step=global_step, name=name), check
        applied = apply_if(finite, lambda: optimizer.apply_gradients(grads_and_vars, name=name), name="ApplyIfFinite")
        if global_step is None:
            return applied.op, check
        with graph.control_dependencies([applied]):
            return global_step.assign_add(np.ones((), global_step.dtype)).op, check

