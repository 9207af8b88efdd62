"""Overlap: each fused bucket's allreduce starts as soon as its last gradient is written, while the backward pass
computes the rest (PyTorch DDP's bucket hooks; here the static graph says when a bucket is complete).

DistributedOptimizer(overlap=True) builds, instead of the one AllreduceGradients op, one StartBucketAllreduce op
per bucket, whose inputs are that bucket's gradients (computed straight into its views, as before), and one
FinishBucketAllreduce op that waits for every bucket and outputs the averaged views. The session runs ops in
creation order wherever dependencies allow, so each Start op is given the position right after the last producer
of its inputs: it runs the moment its bucket is full, before the rest of the backward pass.

Where a started bucket is reduced while the backward pass goes on:
- CPU: in a communication thread of this process, on a communicator of its own (a duplicate of the optimizer's:
  a collective the graph runs meanwhile never mixes messages with it; MPI must provide THREAD_MULTIPLE). NumPy
  and BLAS release the GIL, so the thread waits and reduces during the matmuls.
- GPU with NCCL: the bucket's NCCL call is enqueued at once on the communication stream behind an event of the
  compute stream; the compute stream waits for it only in Finish. Staged buckets (ranks sharing a GPU, whose host
  reduction would need a host sync) and an NCCL graph run by a CPU session are reduced in Finish.
Buckets are launched in index order (fixed when the graph is built) whatever order their Start ops run in, so
every rank calls the same collectives in the same order; results are bitwise those of AllreduceGradients.
"""
import os
import queue
import threading
import time

import numpy as np

import allreduce
from ..framework.registry import apply_op, register, to_numpy

OVERLAP_ENV = "RINGFLOW_OVERLAP"


class BucketPipeline:
    """The state shared by one optimizer's Start and Finish ops: which buckets this step launched, and the
    communication thread that reduces host buckets."""

    def __init__(self, averager):
        self.averager = averager
        self.count = len(averager.fused.buckets)
        self.started, self.launched = set(), 0
        self.thread, self.jobs, self.done, self.error = None, None, None, None
        self.side = None  # the GPU stream that hands buckets from the compute stream to NCCL's

    def members(self, k):
        """(variable index, view index) of the gradients packed into bucket k."""
        bucket_of = self.averager.fused.bucket_of
        return [(index, j) for j, index in enumerate(self.averager.order) if bucket_of[j] == k]

    def start(self, k, fused, weight, grads):
        """Pack bucket k; launch every bucket, in index order, whose turn has come."""
        averager = self.averager
        if k in self.started:  # the last step failed before its Finish: let its reductions end first
            self.wait(fused)
        pack, grads = averager.packer(fused), iter(grads)
        for index, j in self.members(k):
            pack(fused.views[j], next(grads) if averager.has_grad[index] else None, weight)
        if averager.weighted and fused.bucket_of[-1] == k:
            fused.views[-1][...] = weight
        self.started.add(k)
        while self.launched in self.started:
            self.launch(self.launched, fused)
            self.launched += 1

    def launch(self, b, fused):
        what = self.averager.what()
        if fused is self.averager.fused and fused.split:
            self._thread().put((b, what))
        elif fused is not self.averager.fused and self.averager.communicator.reduces_on_device:
            import cupy
            compute = cupy.cuda.get_current_stream()
            if self.side is None:
                self.side = cupy.cuda.Stream(non_blocking=True)
            self.side.wait_event(compute.record())
            with self.side:  # NCCL's stream waits for the side stream, which alone waits back: compute runs on
                fused.allreduce_bucket(b, self.averager.op, what)

    def wait(self, fused):
        """Wait until every launched bucket is reduced (reducing staged ones now); re-raise the thread's error."""
        if fused is self.averager.fused and fused.split:
            if self.thread is not None:
                self.jobs.join()
        elif self.side is not None and self.averager.communicator.reduces_on_device:
            import cupy
            cupy.cuda.get_current_stream().wait_event(self.side.record())
        else:
            fused.allreduce(op=self.averager.op, what=self.averager.what())
        self.started, self.launched = set(), 0
        error, self.error = self.error, None
        if error is not None:
            raise error

    def _thread(self):
        if self.thread is None:
            self.jobs = queue.Queue()
            self.thread = threading.Thread(target=self._serve, name="ringflow-bucket-allreduce", daemon=True)
            self.thread.start()
        return self.jobs

    def _serve(self):
        fused, op = self.averager.fused, self.averager.op
        while True:
            b, what = self.jobs.get()
            try:
                if self.error is None:  # after a failure the communicator is unusable: skip, Finish raises
                    fused.allreduce_bucket(b, op, what)
            except BaseException as exc:  # handed to the main thread, which raises it in Finish
                self.error = exc
            finally:
                self.jobs.task_done()


def overlap_default(communicator):
    """Whether DistributedOptimizer overlaps by default: $RINGFLOW_OVERLAP if set, else only on NCCL, where the
    device is asynchronous anyway. On CPU a model under 25 MiB fills one bucket per dtype, so there is nothing
    to overlap and the thread hand-off costs (measured in the README: ring 2 ranks 19-24 ms -> 31-33 ms a step)."""
    wanted = os.environ.get(OVERLAP_ENV, "").strip()
    if wanted:
        if wanted not in ("0", "1"):
            raise ValueError(f"{OVERLAP_ENV}={wanted!r}: must be 1 (overlap) or 0 (one allreduce after the backward pass)")
        return wanted == "1"
    return getattr(communicator, "name", None) == "nccl"


def duplicate(communicator):
    """A communicator of the same backend over the same ranks, for the communication thread alone."""
    from mpi4py import MPI  # started already: `communicator` runs on it
    if MPI.Query_thread() < MPI.THREAD_MULTIPLE:
        raise RuntimeError(f"overlap=True on the CPU needs MPI_THREAD_MULTIPLE (its communication thread runs beside "
                           f"the graph's own collectives); this MPI provides level {MPI.Query_thread()} at rank "
                           f"{communicator.rank}: pass overlap=False or use an MPI built with thread support")
    if communicator.name not in allreduce.BACKENDS:
        raise ValueError(f"overlap=True needs a registered backend to duplicate; {communicator!r} is not one of "
                         f"{sorted(allreduce.BACKENDS)}: pass overlap=False")
    return allreduce.BACKENDS[communicator.name](comm=communicator.comm, timeout=communicator.timeout)


def build(averager, grads, weight, shapes, dtypes):
    """The Start ops (one per bucket) and the Finish op for `grads` (one Tensor or None per variable)."""
    pipeline = averager.pipeline = BucketPipeline(averager)
    tokens = []
    for k in range(pipeline.count):
        inputs = [grads[index] for index, _ in pipeline.members(k) if grads[index] is not None]
        inputs = ([weight] if weight is not None else []) + inputs
        if not inputs:  # a bucket of variables without gradients: nothing to wait for, start it first
            inputs = [tokens[-1]] if tokens else []
        token = apply_op("StartBucketAllreduce", inputs, name="StartBucketAllreduce", pipeline=pipeline, bucket=k)
        token.op.schedule_after([t.op for t in inputs], order=(k + 1) / (pipeline.count + 1))
        tokens.append(token)
    return apply_op("FinishBucketAllreduce", tokens, name="FinishBucketAllreduce", pipeline=pipeline,
                    shapes=shapes, dtypes=dtypes)


def _start_kernel(op, session):
    pipeline, k = op.attrs["pipeline"], op.attrs["bucket"]
    fused = pipeline.averager.on_device(session)
    weighted = pipeline.averager.weighted
    token = np.zeros((), np.int8)

    def start(*arrays):
        weight = None
        if weighted:
            weight = float(to_numpy(arrays[0])) if fused is pipeline.averager.fused else arrays[0]
        pipeline.start(k, fused, weight, arrays[weighted:])
        return token
    return start


def _finish_kernel(op, session):
    pipeline = op.attrs["pipeline"]
    fused = pipeline.averager.on_device(session)

    def finish(*tokens):
        begin = time.perf_counter()  # profilers are told the wait, the communication the backward pass left exposed
        pipeline.wait(fused)
        return pipeline.averager.complete(fused, begin)
    return finish


def _start_destinations(op, session):
    pipeline, k = op.attrs["pipeline"], op.attrs["bucket"]
    averager = pipeline.averager
    fused = averager.on_device(session)
    views = [fused.views[j] for index, j in pipeline.members(k) if averager.has_grad[index]]
    return [None] * averager.weighted + views if len(op.inputs) > averager.weighted else [None] * len(op.inputs)


register("StartBucketAllreduce", kernel=_start_kernel, infer=lambda *inputs, **attrs: [((), np.dtype(np.int8))],
         destinations=_start_destinations)
register("FinishBucketAllreduce", kernel=_finish_kernel, persistent=True,
         infer=lambda *tokens, pipeline, shapes, dtypes: list(zip(shapes, dtypes)))
