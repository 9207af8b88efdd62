"""Horovod's DistributedOptimizer on ringflow: the wrapped optimizer's gradients, averaged over ranks.

Without compression the gradients go through trainer.parallel.distributed's averaging core (one fused bucket
allreduce per dtype and 25 MiB); with a compressor each gradient is its own hvd.allreduce, which is how a
compressor's compress -> reduce -> decompress can act on it, except a gradient TF1 makes an IndexedSlices: Horovod
allgathers those uncompressed, and here the core reduces them (as the rows any rank named).
"""
import numpy as np

from ..parallel.accumulation import Accumulation, check_passes
from ..parallel.activities import on_allreduce
from ..parallel.distributed import average_gradients
from ..framework.graph_wrappers import name_scope
from ..ops.core_ops import convert_to_tensor
from ..ops.indexed_slices import IndexedSlices, as_slices
from ..train.optimizer import WrappingOptimizer
from .basics import communicator, size
from .compression import Compression
from .mpi_ops import Average, Sum, allreduce, reduction


class DistributedOptimizer(WrappingOptimizer):
    """Wraps a tg.train optimizer: compute_gradients averages (op=hvd.Sum: sums) its gradients over all ranks.

    Needs hvd.init() first. use_locking, device_dense and device_sparse are accepted and ignored (the gradients
    run where the session runs). A gradient TF1 makes an IndexedSlices (an embedding's) keeps the wrapped
    optimizer's sparse rule on N ranks as on one, applied to the rows any rank named (trainer/parallel/averaging.py);
    sparse_as_dense=True makes it dense first, on one rank too, as Horovod does, so the dense rule applies.
    gradient_predivide_factor f divides each gradient by f before the sum and multiplies the sum by f / size()
    after it.

    backward_passes_per_step K (Horovod's semantics, trainer/parallel/accumulation.py): each run of the train
    op is one backward pass, whose gradients are summed on this rank; every K-th run reduces the sum over the
    ranks and applies it (divided by K with average_aggregated_gradients=True). The global step advances with
    every run, as in Horovod.
    """

    def __init__(self, optimizer, name=None, use_locking=False, device_dense="", device_sparse="",
                 compression=Compression.none, sparse_as_dense=False, backward_passes_per_step=1, op=Average,
                 gradient_predivide_factor=1.0, average_aggregated_gradients=False):
        reduce = reduction(op)
        if reduce not in ("mean", "sum"):
            raise ValueError(f"DistributedOptimizer averages or sums gradients: op must be hvd.Average or hvd.Sum, "
                             f"got {op!r}")
        if gradient_predivide_factor != 1.0 and reduce != "mean":
            raise ValueError(f"gradient_predivide_factor={gradient_predivide_factor!r} needs op=hvd.Average")
        super().__init__(name or f"Distributed{type(optimizer).__name__}")
        self._optimizer, self._compression, self._sparse_as_dense = optimizer, compression, bool(sparse_as_dense)
        self._average, self._predivide = reduce == "mean", float(gradient_predivide_factor)
        self._passes, self._mean_over_passes = check_passes(backward_passes_per_step), average_aggregated_gradients
        self._accumulation = None
        self._communicator = communicator()
        self.averager = None  # the fused gradients' GradientAverager, once compute_gradients made it

    def add_allreduce_callback(self, callback):
        """Call callback(start, end) (time.perf_counter() seconds) after each fused gradient allreduce, as
        tg.DistributedOptimizer does: what trainer.program's TimingHook and TimelineHook listen to (ringflow's
        addition; not called for compressed gradients, each its own hvd.allreduce op)."""
        on_allreduce(self, callback)

    def compute_gradients(self, *args, **kwargs):
        """The wrapped optimizer's [(gradient, variable)], the gradients reduced over all ranks (with
        backward_passes_per_step K > 1: accumulated, and reduced on every K-th run)."""
        grads_and_vars = self._optimizer.compute_gradients(*args, **kwargs)
        if self._sparse_as_dense:
            grads_and_vars = [(_dense(g), v) for g, v in grads_and_vars]
        if self._passes == 1:
            return self._reduce(grads_and_vars)
        self._accumulation = Accumulation(self._passes, self._mean_over_passes)
        return self._accumulation.compute(grads_and_vars, lambda pairs, weight: self._reduce(pairs))

    def _reduce(self, grads_and_vars):
        if size() == 1:
            return grads_and_vars
        graph = next(v.graph for _, v in grads_and_vars)
        with graph.as_default(), name_scope(f"{self._name}_Allreduce"):
            if self._compression is Compression.none:
                reduced = self._fused(grads_and_vars)
            else:
                sparse = [as_slices(g) for g, _ in grads_and_vars]
                named = [(s, v) for s, (_, v) in zip(sparse, grads_and_vars) if s is not None]
                fused = iter(self._fused(named) if named else [])
                reduced = [next(fused) if s is not None else self._one(g) if g is not None else None
                           for s, (g, _) in zip(sparse, grads_and_vars)]
        return [(r if g is not None else None, v) for r, (g, v) in zip(reduced, grads_and_vars)]

    def _fused(self, grads_and_vars):
        f = self._predivide
        scaled = [(_scale(g, 1 / f) if g is not None else None, v) for g, v in grads_and_vars]
        averaged, self.averager = average_gradients(scaled, self._communicator, average=self._average,
                                                    overlap=False if self._passes > 1 else None)
        return [_scale(g, f) for g, _ in averaged]

    def _one(self, grad):
        f = self._predivide
        if f == 1.0:
            return allreduce(grad, op=Average if self._average else Sum, compression=self._compression)
        # Horovod's split of the average: 1/f before the sum, f (and Average's 1/size) after it
        return allreduce(grad, op=Average, compression=self._compression, prescale_factor=1 / f, postscale_factor=f)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """The wrapped optimizer's apply_gradients (with backward_passes_per_step K > 1: on every K-th run)."""
        if self._accumulation is None:
            return self._optimizer.apply_gradients(grads_and_vars, global_step=global_step, name=name)
        return self._accumulation.apply(
            lambda: self._optimizer.apply_gradients(grads_and_vars, global_step=global_step, name=name),
            global_step, step_every_pass=True)

    def __getattr__(self, name):
        # Everything else (learning rate, hyper-parameters) is the wrapped optimizer's.
        if name.startswith("__") or name == "_optimizer":
            raise AttributeError(name)
        return getattr(self._optimizer, name)


def _dense(grad):
    """grad as a Tensor: a gradient TF1 makes an IndexedSlices made dense, as Horovod's sparse_as_dense does."""
    slices = as_slices(grad)
    if slices is None:
        return grad
    with slices.graph.as_default():
        return convert_to_tensor(slices)


def _scale(tensor, factor):
    if factor == 1.0:
        return tensor
    if isinstance(tensor, IndexedSlices):
        return IndexedSlices(_scale(tensor.values, factor), tensor.indices, tensor.dense_shape)
    return tensor * convert_to_tensor(np.asarray(factor, dtype=np.dtype(tensor.dtype)))
