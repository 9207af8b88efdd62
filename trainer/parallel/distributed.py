"""Data parallelism: DistributedOptimizer, a thin wrapper (Horovod's shape) whose compute_gradients averages the
wrapped optimizer's gradients over MPI ranks through the averaging core (averaging.py), and broadcast_variables.
"""
import numpy as np

import allreduce
from ..ops.core_ops import constant
from ..ops.variables import GLOBAL_VARIABLES
from . import accumulation, activities, bucket_ops
from . import nonfinite as nonfinite_policy
from .averaging import average_gradients
from .same_model import check_same_model


def default_communicator():
    return allreduce.create_communicator("ring")


class DistributedOptimizer:
    """Wraps a tg.train optimizer so that its gradients are averaged over all ranks before they are applied.

    A gradient TF1 makes an IndexedSlices (an embedding's) comes back as one, of the rows any rank named
    (averaging.py), so the optimizer's sparse rule updates the rows one process on the whole batch would.

    weight: None (every rank counts the same), or a number or scalar Tensor giving this rank's share, e.g. its
    number of samples: the result is then sum(weight_r * grad_r) / sum(weight_r), which is the exact gradient of
    the global batch's mean loss when each rank's loss is the mean over its own, possibly unequal, shard.
    nonfinite: what apply_gradients does when a gradient holds NaN or inf (trainer/parallel/nonfinite.py): "raise"
    (NonFiniteGradientError before any variable changes), "skip" (the step's update is left out on every rank;
    `nonfinite_skips` counts them) or None (no check, as Horovod).
    overlap: start each bucket's allreduce as soon as its gradients are written, during the rest of the backward
    pass (trainer/parallel/bucket_ops.py); None: $RINGFLOW_OVERLAP ("1" or "0") if set, else `overlap_default`.
    backward_passes_per_step K: each run of the train op is one backward pass, accumulated on this rank; every
    K-th run averages the K passes (by `weight` when given) and the ranks in one allreduce and applies it: one
    step on the K-times larger batch (trainer/parallel/accumulation.py). The global step counts updates.
    """

    def __init__(self, optimizer, communicator=None, average=True, weight=None, nonfinite="raise", overlap=None,
                 backward_passes_per_step=1):
        if weight is not None and not average:
            raise ValueError("weight= only makes sense with average=True: a weighted sum needs no weights")
        self.passes, self._accumulation = accumulation.check_passes(backward_passes_per_step), None
        self.nonfinite = nonfinite_policy.check_policy(nonfinite)
        self._checks = []
        self._optimizer = optimizer
        self.communicator = communicator if communicator is not None else default_communicator()
        self.average, self.weight = average, weight
        self.overlap = bucket_ops.overlap_default(self.communicator) if overlap is None else bool(overlap)
        self.averager = None

    def add_allreduce_callback(self, callback):
        """Call callback(start, end) after each allreduce of the gradients (time.perf_counter() seconds).

        This is how a program times communication (ringflow train's timing and timeline hooks); it may be
        added before or after minimize(). On one rank nothing is communicated and it is never called. With
        overlap, it is told the wait after the backward pass: the communication the overlap left exposed. It
        listens on the session's timing channel (trainer/client/step_stats.py), as profilers do.
        """
        activities.on_allreduce(self, callback)

    def compute_gradients(self, loss, var_list=None, **kwargs):
        """The wrapped optimizer's gradients, averaged over ranks (zeros for variables without one)."""
        grads_and_vars = self._optimizer.compute_gradients(loss, var_list=var_list, **kwargs)
        if self.passes == 1:
            return self._reduce(grads_and_vars, self.weight, self.overlap)
        self._accumulation = accumulation.Accumulation(self.passes, self.average, self.weight)
        return self._accumulation.compute(grads_and_vars, lambda pairs, weight: self._reduce(pairs, weight, False))

    def _reduce(self, grads_and_vars, weight, overlap):
        if self.communicator.size == 1:  # nothing to average; zeros as on N ranks, where they fill the buckets
            return [(g if g is not None else constant(np.zeros(v.shape, v.dtype)), v) for g, v in grads_and_vars]
        pairs, self.averager = average_gradients(grads_and_vars, self.communicator, self.average, weight, overlap)
        return pairs

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """The wrapped optimizer's apply_gradients, guarded by the `nonfinite` policy (with
        backward_passes_per_step K > 1: on every K-th run)."""
        def apply():
            train_op, check = nonfinite_policy.apply_gradients(self._optimizer, grads_and_vars, self.nonfinite,
                                                               global_step=global_step, name=name)
            self._checks.extend([check] if check is not None else [])
            return train_op
        return apply() if self._accumulation is None else self._accumulation.apply(apply, global_step)

    @property
    def nonfinite_skips(self):
        """How many steps this process left out for non-finite gradients (nonfinite="skip")."""
        return sum(check.skips for check in self._checks)

    def minimize(self, loss, global_step=None, var_list=None, **kwargs):
        """compute_gradients (averaged over ranks), then apply_gradients."""
        return self.apply_gradients(self.compute_gradients(loss, var_list=var_list), global_step=global_step,
                                    **kwargs)

    def __getattr__(self, name):
        # Everything else (get_slot, learning rate, ...) is the wrapped optimizer's.
        return getattr(self._optimizer, name)


def broadcast_variables(session, root=0, communicator=None, variables=None):
    """Every rank takes root's values of every global variable (weights, optimizer slots, global step).

    Only root needs initialized variables: the others receive into buffers shaped from the graph.
    """
    communicator = communicator if communicator is not None else default_communicator()
    variables = list(variables if variables is not None else session.graph.get_collection(GLOBAL_VARIABLES))
    if communicator.size == 1 or not variables:
        return
    check_same_model(variables, communicator, "global variables")
    by_dtype = {}
    for v in variables:
        by_dtype.setdefault(np.dtype(v.dtype), []).append(v)
    for dtype, group in sorted(by_dtype.items(), key=lambda item: item[0].str):
        sizes = [int(np.prod(v.shape)) for v in group]
        flat = np.empty(sum(sizes), dtype=dtype)
        if communicator.rank == root:
            values = session.run(group)
            flat[...] = np.concatenate([np.asarray(x, dtype=dtype).reshape(-1) for x in values])
        flat = communicator.broadcast(flat, root=root, what="broadcast of variables")
        offset = 0
        for v, n in zip(group, sizes):
            if communicator.rank != root:
                v.load(flat[offset:offset + n].reshape(v.shape), session)
            offset += n
