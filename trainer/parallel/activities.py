"""What a collective did inside a step, in Horovod's timeline vocabulary, told to whoever profiles the run.

A collective (the gradients' fused allreduce, an hvd.allreduce op) reports its phases once it is done: the
operation ("ALLREDUCE", "ALLGATHER", "BROADCAST"), the tensors it carried, and its activities in order, each
(name, start, end) in time.perf_counter() seconds. Horovod names them MEMCPY_IN_FUSION_BUFFER, then the
backend's reduction (MPI_ALLREDUCE, NCCL_ALLREDUCE; here also RING_ALLREDUCE, SHM_ALLREDUCE, ...), then
MEMCPY_OUT_FUSION_BUFFER. They travel on the session's one timing channel, client/step_stats.report_activities:
a traced Session.run (tf.train.ProfilerHook, RunOptions FULL_TRACE) shows each activity as a node of the step's
step_stats beside the op that ran it, and its ACTIVITY_LISTENERS hear every one: Horovod's timeline
(HOROVOD_TIMELINE), and add_allreduce_callback (`on_allreduce` below), which ringflow train's timing hooks use.
Horovod's NEGOTIATE_* phases have no counterpart: ringflow's collectives run when Session.run reaches them,
with no background negotiation between the ranks.
"""
import weakref

from ..client.step_stats import ACTIVITY_LISTENERS

MEMCPY_IN = "MEMCPY_IN_FUSION_BUFFER"
MEMCPY_OUT = "MEMCPY_OUT_FUSION_BUFFER"


def backend_activity(communicator, operation="ALLREDUCE"):
    """The activity of `communicator` running `operation`: "RING_ALLREDUCE", "MPI_ALLREDUCE", ..."""
    return f"{str(getattr(communicator, 'name', 'mpi')).upper()}_{operation}"


def on_allreduce(optimizer, callback):
    """add_allreduce_callback of both DistributedOptimizers: callback(start, end), from the first activity's start
    to the last one's end, after each allreduce of `optimizer.averager` (its gradients' GradientAverager), heard
    on the session's channel for as long as the optimizer lives."""
    owner = weakref.ref(optimizer)

    def listener(operation, tensors, spans, args):
        optimizer = owner()
        if optimizer is None:
            ACTIVITY_LISTENERS.remove(listener)
        elif optimizer.averager is not None and tensors is optimizer.averager.names:  # it reports its own list
            callback(spans[0][1], spans[-1][2])
    ACTIVITY_LISTENERS.append(listener)
