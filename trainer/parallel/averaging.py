"""The gradient-averaging core under both DistributedOptimizers (tg's and Horovod's).

One graph op, "AllreduceGradients", sits between an optimizer's gradients and apply_gradients. Its buffers are
laid out once, when the graph is built, from the variables' static shapes: gradients in backward order (the last
layer's first), packed per dtype into fused buckets, so a step costs one allreduce per bucket.

A gradient TF1 makes an IndexedSlices (ops/indexed_slices.py's as_slices) is reduced dense, and beside it how many
times this rank named each row: the sum says which rows any rank named, and the gradient comes back as an
IndexedSlices of those rows, so the optimizer's sparse rule updates on N ranks the rows one process on the whole batch
updates, by the same (averaged) values, and leaves the other rows and their slots alone. Horovod gets the same rows
by allgathering the indices and values; counts cost one value per row, in the same buckets.
"""
import functools
import time

import numpy as np

import allreduce
from ..client.step_stats import report_activities
from ..framework.registry import apply_op, get_array_module, register, to_numpy
from ..ops.array_ops import reshape, shape as shape_of
from ..ops.core_ops import convert_to_tensor
from ..ops.gather_ops import gather
from ..ops.indexed_slices import IndexedSlices, as_slices
from ..ops.math_ops import not_equal, ones_like, where
from ..ops.segment_ops import unsorted_segment_sum
from . import activities, bucket_ops
from .same_model import check_same_model

BUCKET_BYTES = 25 * 1024 * 1024  # Horovod's and DDP's default fusion bucket size


class GradientAverager:
    """The kernel of AllreduceGradients: pack into the fused buckets, allreduce, unpack (weighted) averages.

    A session on a device uses device buckets instead (`on_device`): on "gpu" NCCL's, reduced in place, or, with
    a CPU backend (ranks sharing a GPU), staged through pinned host memory; on another registered device staged
    through its to_host/to_device (allreduce/staged.py). There the step never waits for the device: a weighted
    average divides by the summed weights on the device, so weights summing to 0 give NaN, which the `nonfinite`
    policy reports, where the host path raises at once.
    """

    def __init__(self, communicator, shapes, dtypes, has_grad, average, weighted, overlap=False, names=None):
        """overlap: reduce each bucket on its own as soon as it is full (trainer/parallel/bucket_ops.py): the host buckets
        are then split, on a duplicate of `communicator` that only the communication thread uses. names: the
        gradients' names, as profilers show them (activities.py)."""
        self.communicator, self.average, self.weighted, self.overlap = communicator, average, weighted, overlap
        self.names = list(names) if names is not None else [f"gradient_{i}" for i in range(len(shapes))]
        self.activity = activities.backend_activity(communicator)
        self.has_grad, self.num_outputs = has_grad, len(shapes)
        self.order = list(reversed(range(len(shapes))))  # backward order: the last layer's gradient is ready first
        self.layout = [(shapes[i], dtypes[i]) for i in self.order] + ([((1,), dtypes[self.order[0]])] if weighted
                                                                      else [])
        self.pipeline = None  # bucket_ops.BucketPipeline, where the overlapping ops are built
        on_cpu = overlap and not communicator.reduces_on_device  # NCCL overlaps on the device
        self.fused = allreduce.FusedAllreduce(bucket_ops.duplicate(communicator) if on_cpu else communicator, self.layout,
                                    bucket_bytes=BUCKET_BYTES, split=on_cpu)
        self.device_fused = {}  # device name -> its buckets, each plan picking its session's (on_device)
        self.calls = 0  # steps averaged by this process: errors name the step a rank is in (all ranks count alike)

    def on_device(self, session=None):
        """The buckets a plan of `session` (None: a device="gpu" one) writes its gradients into: the host
        buckets on "cpu", else that device's buckets, built by its first plan (collective: every rank's first
        plan of the training op on that device builds them together, as the host buckets are built with the
        graph). Decided per session, so plans of sessions on different devices each keep their own."""
        device = "gpu" if session is None else session.device
        if device == "cpu":
            return self.fused
        if device not in self.device_fused:
            transfer = {} if session is None else dict(to_device=session.to_device, to_host=session.to_host)
            allocate = allreduce.staged.device_buckets(self.communicator, device, **transfer)
            self.device_fused[device] = allreduce.FusedAllreduce(self.communicator, self.layout, bucket_bytes=BUCKET_BYTES,
                                                       allocate=allocate, split=self.overlap)
        return self.device_fused[device]

    def __call__(self, *arrays, fused=None):
        start = time.perf_counter()
        fused = self.fused if fused is None else fused
        on_host = fused is self.fused
        weight = None
        if self.weighted:
            weight = float(to_numpy(arrays[0])) if on_host else arrays[0]
        grads = iter(arrays[self.weighted:])
        inputs = [next(grads) if has else None for has in self.has_grad]
        pack = self.packer(fused)
        for index, view in zip(self.order, fused.views):
            pack(view, inputs[index], weight)
        if self.weighted:
            fused.views[-1][...] = weight
        packed = time.perf_counter()
        fused.allreduce(op=self.op, what=self.what())
        return self.complete(fused, start, [(activities.MEMCPY_IN, start, packed),
                                            (self.activity, packed, time.perf_counter())])

    @property
    def op(self):
        # a plain mean lets each rank divide only the slice it reduces; a weighted one divides after the sum
        return "mean" if self.average and not self.weighted else "sum"

    def what(self):
        return f"step {self.calls}'s gradient allreduce"

    def packer(self, fused):
        return self._pack if fused is self.fused else _pack_device

    def complete(self, fused, start, phases=None):
        """After the buckets are reduced: divide by the summed weights, report the activities (`phases` so far,
        else one span of the backend's activity) to the session's channel, return the views."""
        on_host = fused is self.fused
        self.calls += 1
        total = None if self.op == "mean" else self._divisor(fused, on_host)
        if total is not None:
            xp = get_array_module(fused.buckets[0])
            for bucket in fused.buckets:
                xp.divide(bucket, total, out=bucket)
        # The outputs are the bucket views themselves (the op is `persistent`: a fetch of them is copied).
        outputs = [None] * self.num_outputs
        for index, view in zip(self.order, fused.views):
            outputs[index] = view
        end = time.perf_counter()
        phases = phases + [(activities.MEMCPY_OUT, phases[-1][2], end)] if phases else [(self.activity, start, end)]
        report_activities("ALLREDUCE", self.names, phases)
        return tuple(outputs) if self.num_outputs > 1 else outputs[0]

    def destinations(self, session):
        """Per input of the op, the bucket view its gradient is copied into in `session` (which may compute it
        there): the buckets of that session's device."""
        views = dict(zip(self.order, self.on_device(session).views))
        return [None] * self.weighted + [views[i] for i, has in enumerate(self.has_grad) if has]

    @staticmethod
    def _pack(view, grad, weight):
        if grad is None or weight == 0:
            view.fill(0)  # an empty shard's mean is NaN: it must contribute nothing, not poison the sum
        elif weight is not None:
            np.multiply(to_numpy(grad), weight, out=view)
        elif grad is not view:  # else the gradient was computed straight into its bucket
            view[...] = to_numpy(grad)

    def _divisor(self, fused, on_host):
        if not self.average:
            return None
        if not on_host:
            return fused.views[-1].copy()  # a copy: dividing the buckets divides the weights' own slot too
        total = fused.views[-1][0]
        if total == 0:
            raise ValueError(f"the gradient weights sum to 0 over all {self.communicator.size} ranks "
                             f"(rank {self.communicator.rank}): no rank had a sample to learn from")
        return total


def _pack_device(view, grad, weight):
    """_pack on the device, without a host sync: a zero weight is applied by `where`, not by an `if`."""
    xp = get_array_module(view)
    if grad is None:
        view.fill(0)
    elif weight is not None:
        xp.multiply(xp.where(weight != 0, grad, 0), weight, out=view)
    elif grad is not view:
        view[...] = grad


def _infer(*inputs, averager, shapes, dtypes, **attrs):
    return list(zip(shapes, dtypes))


def _kernel(op, session):
    averager = op.attrs["averager"]
    fused = averager.on_device(session)
    return averager if fused is averager.fused else functools.partial(averager, fused=fused)


register("AllreduceGradients", kernel=_kernel, infer=_infer, persistent=True,
         destinations=lambda op, session: op.attrs["averager"].destinations(session))


def average_gradients(grads_and_vars, communicator, average=True, weight=None, overlap=None, sparse=True):
    """The gradient-averaging core under both DistributedOptimizers: [(gradient, variable)] with every gradient
    averaged (average=False: summed) over the ranks of `communicator`, in fused buckets; a None gradient comes back
    as zeros. `weight` and `overlap` as DistributedOptimizer's. sparse: a gradient TF1 makes an IndexedSlices comes
    back as an IndexedSlices of the rows any rank named (sparse=False: dense, for optimizers without a sparse rule).
    Returns (pairs, the GradientAverager).
    """
    variables = [v for _, v in grads_and_vars]
    check_same_model(variables, communicator, "trainable variables")
    graph = variables[0].graph
    with graph.as_default():
        slices = [as_slices(g) if sparse and g is not None else None for g, _ in grads_and_vars]
        grads = [convert_to_tensor(g) if g is not None else None for g, _ in grads_and_vars]
        counts = [(row_counts(s, v), v) for s, v in zip(slices, variables) if s is not None]
    entries = grads + [c for c, _ in counts]
    shapes = [tuple(v.shape) for v in variables] + [tuple(v.shape[:1]) for _, v in counts]
    dtypes = [np.dtype(v.dtype) for v in variables + [v for _, v in counts]]
    names = [(g if g is not None else v).name for g, v in grads_and_vars] + [c.name for c, _ in counts]
    weighted = weight is not None
    overlap = bucket_ops.overlap_default(communicator) if overlap is None else bool(overlap)
    averager = GradientAverager(communicator, shapes, dtypes, [e is not None for e in entries], average, weighted,
                                overlap=overlap, names=names)
    inputs = [e for e in entries if e is not None]
    if all(g is None for g in grads):
        raise ValueError(f"none of the variables {[v.name for v in variables]!r} has a gradient "
                         f"(rank {communicator.rank}): the loss does not depend on them")
    if overlap:
        outs = bucket_ops.build(averager, entries, convert_to_tensor(weight) if weighted else None, shapes, dtypes)
    else:
        if weighted:
            inputs.insert(0, convert_to_tensor(weight))
        outs = apply_op("AllreduceGradients", inputs, name="AllreduceGradients", averager=averager, shapes=shapes,
                        dtypes=dtypes)
    outs = list(outs) if len(entries) > 1 else [outs]
    summed = iter(outs[len(variables):])
    with graph.as_default():
        averaged = [rows_named(out, next(summed), v) if s is not None else out
                    for out, s, v in zip(outs, slices, variables)]
    return list(zip(averaged, variables)), averager


def row_counts(slices, var):
    """How many times the IndexedSlices `slices` names each row of `var`, in var's dtype (packed with the gradients)."""
    return unsorted_segment_sum(ones_like(slices.indices, dtype=var.dtype), slices.indices, var.shape[0],
                                name="row_counts")


def rows_named(dense, counts, var):
    """The rows of the reduced gradient `dense` whose reduced count is not 0 (named by some rank), as an IndexedSlices
    of distinct ascending indices."""
    named = reshape(where(not_equal(counts, 0)), [-1])
    return IndexedSlices(gather(dense, named), named, shape_of(var))
