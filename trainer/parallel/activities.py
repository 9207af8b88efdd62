"""What a collective did inside a step, in Horovod's timeline vocabulary, told to whoever profiles the run.

A collective (the gradients' fused allreduce, an hvd.allreduce op) reports its phases once it is done: the
operation ("ALLREDUCE", "ALLGATHER", "BROADCAST"), the tensors it carried, and its activities in order, each
(name, start, end) in time.perf_counter() seconds. Horovod names them MEMCPY_IN_FUSION_BUFFER, then the
backend's reduction (MPI_ALLREDUCE, NCCL_ALLREDUCE; here also RING_ALLREDUCE, SHM_ALLREDUCE, ...), then
MEMCPY_OUT_FUSION_BUFFER. Two audiences:
- a traced Session.run (tf.train.ProfilerHook, RunOptions FULL_TRACE): each activity becomes a node of the
  step's step_stats beside the op that ran it (client/step_stats.record_activity);
- LISTENERS, process-wide: Horovod's timeline (HOROVOD_TIMELINE) registers itself here from hvd.init().
Horovod's NEGOTIATE_* phases have no counterpart: ringflow's collectives run when Session.run reaches them,
with no background negotiation between the ranks.
"""
from ..client.step_stats import record_activity

MEMCPY_IN = "MEMCPY_IN_FUSION_BUFFER"
MEMCPY_OUT = "MEMCPY_OUT_FUSION_BUFFER"
LISTENERS = []  # listener(operation, tensors, activities, args): told of every collective this process runs


def backend_activity(communicator, operation="ALLREDUCE"):
    """The activity of `communicator` running `operation`: "RING_ALLREDUCE", "MPI_ALLREDUCE", ..."""
    return f"{str(getattr(communicator, 'name', 'mpi')).upper()}_{operation}"


def report(operation, tensors, activities, **args):
    """Tell the traced run in progress and every listener that `operation` on `tensors` (names) went through
    `activities` [(name, start, end)]; `args` (dtype, shape) go into the timeline's end event."""
    for name, start, end in activities:
        record_activity(name, start, end)
    for listener in LISTENERS:
        listener(operation, tensors, activities, args)
