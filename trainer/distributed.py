"""Data parallelism: average gradients over MPI ranks, broadcast variables, check that ranks built one model.

DistributedOptimizer is a thin wrapper (Horovod's shape): its compute_gradients puts one graph op,
"AllreduceGradients", between the wrapped optimizer's gradients and apply_gradients. The op's buffers are
laid out once, when the graph is built, from the variables' static shapes: gradients in backward order
(the last layer's first), packed per dtype into fused buckets, so a step costs one allreduce per bucket.
"""
import hashlib
import json
import time

import numpy as np

from .ops.core_ops import convert_to_tensor
from .ops.registry import apply_op, register
from .variables import GLOBAL_VARIABLES

BUCKET_BYTES = 25 * 1024 * 1024


def default_communicator():
    import allreduce
    return allreduce.create_communicator("ring")


class _Bucket:
    """A persistent flat buffer and, per gradient it carries, (output index, offset, shape)."""

    def __init__(self, dtype, entries, extra):
        size = sum(int(np.prod(shape)) for _, shape in entries) + extra
        self.buffer = np.zeros(size, dtype=dtype)
        self.slots, offset = [], 0
        for index, shape in entries:
            n = int(np.prod(shape))
            self.slots.append((index, self.buffer[offset:offset + n].reshape(shape)))
            offset += n


def plan_buckets(shapes, dtypes, limit=BUCKET_BYTES):
    """Group indices (taken in the given order) into buckets of one dtype and at most `limit` bytes each."""
    buckets, open_ = [], {}
    for index, (shape, dtype) in enumerate(zip(shapes, dtypes)):
        nbytes = int(np.prod(shape)) * np.dtype(dtype).itemsize
        entries, used = open_.get(dtype, (None, 0))
        if entries is None or (entries and used + nbytes > limit):
            entries, used = [], 0
            buckets.append((dtype, entries))
        entries.append((index, shape))
        open_[dtype] = (entries, used + nbytes)
    return buckets


class GradientAverager:
    """The kernel of AllreduceGradients: pack, allreduce the buckets, unpack (weighted) averages."""

    def __init__(self, communicator, shapes, dtypes, has_grad, average, weighted):
        self.communicator, self.average, self.weighted = communicator, average, weighted
        self.has_grad = has_grad
        order = list(reversed(range(len(shapes))))  # backward order: the last variable's gradient first
        plan = plan_buckets([shapes[i] for i in order], [np.dtype(dtypes[i]) for i in order])
        self.buckets = [_Bucket(dtype, [(order[j], shape) for j, shape in entries], int(weighted and k == 0))
                        for k, (dtype, entries) in enumerate(plan)]
        self.num_outputs = len(shapes)
        self.seconds, self.timeline, self.step = 0.0, None, 0

    def __call__(self, *arrays):
        start = time.perf_counter()
        weight = arrays[0] if self.weighted else None
        grads = iter(arrays[self.weighted:])
        inputs = [next(grads) if has else None for has in self.has_grad]
        for bucket in self.buckets:
            for index, view in bucket.slots:
                self._pack(view, inputs[index], weight)
        if self.weighted:
            self.buckets[0].buffer[-1] = weight
        for bucket in self.buckets:
            self.communicator.allreduce(bucket.buffer, op="sum", out=bucket.buffer)
        total = self._divisor()
        outputs = [None] * self.num_outputs
        for bucket in self.buckets:
            for index, view in bucket.slots:
                outputs[index] = view / total if total is not None else view.copy()
        end = time.perf_counter()
        self.seconds += end - start
        if self.timeline is not None:
            self.timeline.record("allreduce", start, end, self.step)
        return tuple(outputs) if self.num_outputs > 1 else outputs[0]

    def _pack(self, view, grad, weight):
        if grad is None or (weight is not None and weight == 0):
            view.fill(0)  # an empty shard's mean is NaN: it must contribute nothing, not poison the sum
        elif weight is not None:
            np.multiply(grad, weight, out=view)
        else:
            view[...] = grad

    def _divisor(self):
        if not self.average:
            return None
        if self.weighted:
            total = self.buckets[0].buffer[-1]
            if total == 0:
                raise ValueError(f"the gradient weights sum to 0 over all {self.communicator.size} ranks "
                                 f"(rank {self.communicator.rank}): no rank had a sample to learn from")
            return total
        return self.communicator.size


def _infer(*inputs, averager, shapes, dtypes, **attrs):
    return list(zip(shapes, dtypes))


register("AllreduceGradients", kernel=lambda op, session: op.attrs["averager"], infer=_infer)


class DistributedOptimizer:
    """Wraps a tg.train optimizer so that its gradients are averaged over all ranks before they are applied.

    weight: None (every rank counts the same), or a number or scalar Tensor giving this rank's share, e.g. its
    number of samples: the result is then sum(weight_r * grad_r) / sum(weight_r), which is the exact gradient of
    the global batch's mean loss when each rank's loss is the mean over its own, possibly unequal, shard.
    """

    def __init__(self, optimizer, communicator=None, average=True, weight=None):
        if weight is not None and not average:
            raise ValueError("weight= only makes sense with average=True: a weighted sum needs no weights")
        self._optimizer = optimizer
        self.communicator = communicator if communicator is not None else default_communicator()
        self.average, self.weight = average, weight
        self.averager = None

    def compute_gradients(self, loss, var_list=None, **kwargs):
        """The wrapped optimizer's gradients, averaged over ranks (zeros for variables without one)."""
        grads_and_vars = self._optimizer.compute_gradients(loss, var_list=var_list, **kwargs)
        if self.communicator.size == 1:
            return grads_and_vars
        variables = [v for _, v in grads_and_vars]
        check_same_model(variables, self.communicator, "trainable variables")
        shapes = [tuple(v.shape) for v in variables]
        dtypes = [np.dtype(v.dtype) for v in variables]
        has_grad = [g is not None for g, _ in grads_and_vars]
        weighted = self.weight is not None
        self.averager = GradientAverager(self.communicator, shapes, dtypes, has_grad, self.average, weighted)
        inputs = [g for g in (g for g, _ in grads_and_vars) if g is not None]
        if weighted:
            inputs.insert(0, convert_to_tensor(self.weight))
        if not inputs:
            raise ValueError(f"none of the variables {[v.name for v in variables]!r} has a gradient")
        outs = apply_op("AllreduceGradients", inputs, name="AllreduceGradients",
                        averager=self.averager, shapes=shapes, dtypes=dtypes)
        outs = outs if len(variables) > 1 else (outs,)
        return list(zip(outs, variables))

    def apply_gradients(self, grads_and_vars, global_step=None, **kwargs):
        return self._optimizer.apply_gradients(grads_and_vars, global_step=global_step, **kwargs)

    def minimize(self, loss, global_step=None, var_list=None, **kwargs):
        """compute_gradients (averaged over ranks), then apply_gradients."""
        return self.apply_gradients(self.compute_gradients(loss, var_list=var_list), global_step=global_step,
                                    **kwargs)

    def __getattr__(self, name):
        # Everything else (get_slot, learning rate, ...) is the wrapped optimizer's.
        return getattr(self._optimizer, name)


def signature(variables):
    """(name, shape, dtype) of each variable, in order."""
    return [(v.name, list(v.shape) if v.shape is not None else None, np.dtype(v.dtype).str) for v in variables]


def check_same_model(variables, communicator, what="variables"):
    """Raise on every rank, naming the variable and the ranks, unless every rank has the same variables."""
    if communicator.size == 1:
        return
    mine = signature(variables)
    digest = np.frombuffer(hashlib.sha256(json.dumps(mine).encode()).digest(), dtype=np.uint8).copy()
    digests = communicator.allgather(digest)
    if (digests == digests[0]).all():
        return
    payload = np.frombuffer(json.dumps(mine).encode(), dtype=np.uint8)
    lengths = communicator.allgather(np.array([len(payload)], dtype=np.int64)).reshape(-1)
    padded = np.zeros(int(lengths.max()), dtype=np.uint8)
    padded[:len(payload)] = payload
    gathered = communicator.allgather(padded)
    every = [json.loads(gathered[r, :lengths[r]].tobytes()) for r in range(len(lengths))]
    raise ValueError(describe_mismatch(every, communicator.rank, what))


def describe_mismatch(signatures, rank, what):
    """Name the first variable on which the ranks' signatures differ, and which ranks hold what."""
    for i in range(max(len(s) for s in signatures)):
        seen = {}
        for r, sig in enumerate(signatures):
            entry = tuple(map(str, sig[i])) if i < len(sig) else ("<missing>",)
            seen.setdefault(entry, []).append(r)
        if len(seen) > 1:
            held = "; ".join(f"{_entry_text(entry)} at rank(s) {ranks}" for entry, ranks in seen.items())
            return (f"ranks built different models (seen from rank {rank}): {what} #{i} differ: {held}. "
                    "Every rank must build the same graph (same --model, flags and code)")
    return f"ranks built different models (seen from rank {rank}): the {what} differ in number"


def _entry_text(entry):
    if entry == ("<missing>",):
        return "no variable"
    name, shape, dtype = entry
    return f"{name!r} shape {shape} dtype {np.dtype(dtype).name}"


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
        flat = communicator.broadcast(flat, root=root)
        offset = 0
        for v, n in zip(group, sizes):
            if communicator.rank != root:
                v.load(flat[offset:offset + n].reshape(v.shape), session)
            offset += n
