"""Messages between workers and ps tasks: pickled Python objects sent as MPI byte buffers.

Sending bytes ourselves (not comm.send) lets the client count exactly what each step puts on the wire,
which scripts/bench_ps.py compares with the ring's 2*S*(N-1)/N.
"""
import math
import pickle

from allreduce.waiting import patiently

# MPI tags, one per kind of message, so the ps service loop dispatches on Status.Get_tag().
TAG_READ = 0x5F01    # worker -> ps: names of the ps variables a run reads; answered with TAG_VALUES
TAG_VALUES = 0x5F02  # ps -> worker: {name: array} for those that hold a value (missing = uninitialized)
TAG_UPDATE = 0x5F03  # worker -> ps: one run's Assign*/Apply* ops on that ps's variables; answered with TAG_ACK
TAG_ACK = 0x5F04     # ps -> worker: the updates are applied (for SyncReplicas: their round is complete)
TAG_DONE = 0x5F05    # worker -> ps: this worker has finished; join() returns once every worker sent it
POLLS = 16  # polls before a wait starts yielding the core: allreduce.communicator.SPINS, measured there
# A ps task waits for the next message a whole step long: yielding (cheap to wake) for 2 ms, a second ps task
# then napped and cost one worker 8.7 ms a step against 3.1 ms with 1 ps. Idle past 50 ms, the naps of
# allreduce.waiting (up to 1 ms) cost a step under 2%; yielding longer only holds a core the workers need.
YIELD_S = 0.05


def send(comm, obj, dest, tag):
    """Send `obj` to rank `dest`; returns the number of bytes sent."""
    payload = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    comm.Send([payload, len(payload), _byte()], dest=dest, tag=tag)
    return len(payload)


def recv(comm, source, tag, status=None):
    """Receive one message (any source/tag allowed); `status` tells which arrived.

    A blocking Probe busy-polls in MPICH: a ps task idle between steps holds a core its workers need (one
    worker, 2 ps tasks on 2 cores: 26 ms a step against 6.7 ms with 1 ps). A wait polls, then yields the core
    for up to YIELD_S, then naps (allreduce.waiting.patiently): a nap delays the answer by at most 1 ms.
    """
    from mpi4py import MPI
    status = status if status is not None else MPI.Status()
    _wait(lambda: comm.Iprobe(source=source, tag=tag, status=status))
    buf = bytearray(status.Get_count(MPI.BYTE))
    comm.Recv([buf, MPI.BYTE], source=status.Get_source(), tag=status.Get_tag())
    return pickle.loads(buf)


def _wait(ready):
    patiently(ready, POLLS, math.inf, yield_s=YIELD_S)  # a ps task serves until its workers are done: no deadline


def _byte():
    from mpi4py import MPI
    return MPI.BYTE
