"""Gradient accumulation: K backward passes summed on each rank, one allreduce and one update every K-th pass.

Horovod's backward_passes_per_step, as horovod/tensorflow/gradient_aggregation.py does it in graph mode: every
run of the train op is one backward pass. Its gradients are added to accumulators on this rank; the K-th pass
instead reduces the accumulated sum over the ranks, the optimizer applies it and the accumulators are zeroed.
The accumulators and the pass counter are LOCAL_VARIABLES: the local init op zeroes them, a Saver neither saves
nor restores them, so a checkpoint taken between updates holds no half-accumulated step.

Both DistributedOptimizers build on this; the reduction itself stays their one averaging core.
"""
import numpy as np

from ..framework.graph_wrappers import control_dependencies, name_scope
from ..framework.tensor import Tensor
from ..ops.control_flow_ops import cond
from ..ops.core_ops import constant, convert_to_tensor, identity
from ..ops.array_ops import cast
from ..ops.math_ops import equal
from ..framework.graph_keys import GraphKeys
from ..ops.variables import Variable
from .apply_if import apply_if


def check_passes(passes):
    """backward_passes_per_step as an int >= 1."""
    if isinstance(passes, bool) or not isinstance(passes, (int, np.integer)) or passes < 1:
        raise ValueError(f"backward_passes_per_step must be an integer >= 1, got {passes!r}")
    return int(passes)


def _local(value, name):
    return Variable(value, trainable=False, collections=[GraphKeys.LOCAL_VARIABLES], name=name)


class Accumulation:
    """Accumulates `passes` backward passes; `due` is the bool Tensor that is true on the pass that updates.

    mean_over_passes: divide the sum by the number of passes (Horovod's average_aggregated_gradients). With a
    `weight` (a scalar Tensor, e.g. this rank's samples in the pass) the passes are averaged by weight instead,
    and the reduction is handed the summed weight: the exact gradient of the K passes' mean loss.
    """

    def __init__(self, passes, mean_over_passes=True, weight=None):
        self.passes, self.mean_over_passes = check_passes(passes), bool(mean_over_passes)
        self.weight = None if weight is None else convert_to_tensor(weight)
        self.due = None

    def compute(self, grads_and_vars, reduce):
        """[(gradient, variable)]: on the K-th pass `reduce(pairs, weight)`'s of the accumulated ones, on the
        other passes this pass's own gradients (apply() leaves them unused). A None gradient stays None."""
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        if not pairs:
            raise ValueError(f"none of the variables {[v.name for _, v in grads_and_vars]!r} has a gradient: "
                             "the loss does not depend on them")
        graph = pairs[0][1].graph
        with graph.as_default(), name_scope("accumulate_gradients"):
            counter = _local(np.int64(0), "passes")
            sums = [_local(np.zeros(v.shape, np.dtype(v.dtype)), v.op.name.replace("/", "_")) for _, v in pairs]
            weighted = [g if self.weight is None else g * _cast(self.weight, g) for g, _ in pairs]
            total_weight = None if self.weight is None else _local(np.zeros((), np.dtype(self.weight.dtype)),
                                                                     "weight")
            self.due = equal(counter.assign_add(np.int64(1)), np.int64(self.passes), name="due")

            def update():
                totals = [s + w for s, w in zip(sums, weighted)]
                weight = None
                if total_weight is not None:
                    weight = total_weight + self.weight
                    totals = [t / _cast(weight, t) for t in totals]
                elif self.mean_over_passes and self.passes > 1:
                    totals = [t / constant(np.asarray(self.passes, np.dtype(t.dtype))) for t in totals]
                reduced = [g for g, _ in reduce([(t, v) for t, (_, v) in zip(totals, pairs)], weight)]
                with control_dependencies([r for r in reduced if isinstance(r, Tensor)]):  # read before zeroed
                    zeroed = [s.assign(np.zeros(s.shape, np.dtype(s.dtype))) for s in sums + [total_weight]
                              if s is not None] + [counter.assign(np.int64(0))]
                with control_dependencies(zeroed):
                    return [identity(r) for r in reduced]

            def accumulate():
                added = [s.assign_add(w) for s, w in zip(sums, weighted)]
                added += [total_weight.assign_add(self.weight)] if total_weight is not None else []
                with control_dependencies(added):
                    return [identity(g) for g, _ in pairs]

            out = iter(cond(self.due, update, accumulate, strict=True, name="reduce_if_due"))
        return [(next(out) if g is not None else None, v) for g, v in grads_and_vars]

    def apply(self, apply, global_step=None, step_every_pass=False):
        """The train op: `apply()` (the optimizer's update, an Operation) on the K-th pass. global_step, when
        given, advances on the other passes too if step_every_pass (Horovod's rule), else only with updates."""
        if self.due is None:
            raise ValueError("apply() needs the gradients of compute() first: call compute_gradients (or minimize) "
                             "of the same optimizer before apply_gradients")
        def advance():  # Horovod's rule: the global step counts backward passes
            return global_step.assign_add(np.ones((), np.dtype(global_step.dtype)))

        skip = advance if step_every_pass and global_step is not None else None
        return apply_if(self.due, apply, skip, name="apply_if_due").op


def _cast(scalar, like):
    return scalar if scalar.dtype == like.dtype else cast(scalar, like.dtype)
