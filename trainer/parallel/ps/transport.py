"""Messages between workers and ps tasks: pickled Python objects sent as MPI byte buffers.

Sending bytes ourselves (not comm.send) lets the client count exactly what each step puts on the wire,
which scripts/bench_ps.py compares with the ring's 2*S*(N-1)/N.
"""
import os
import pickle
import time

# MPI tags, one per kind of message, so the ps service loop dispatches on Status.Get_tag().
TAG_READ = 0x5F01    # worker -> ps: names of the ps variables a run reads; answered with TAG_VALUES
TAG_VALUES = 0x5F02  # ps -> worker: {name: array} for those that hold a value (missing = uninitialized)
TAG_UPDATE = 0x5F03  # worker -> ps: one run's Assign*/Apply* ops on that ps's variables; answered with TAG_ACK
TAG_ACK = 0x5F04     # ps -> worker: the updates are applied (for SyncReplicas: their round is complete)
TAG_DONE = 0x5F05    # worker -> ps: this worker has finished; join() returns once every worker sent it
POLLS = 16  # polls before a wait starts yielding the core: allreduce.communicator.SPINS, measured there
# A ps task waits for the next message a whole step long, so it yields (cheap to wake) for longer than the
# collectives' 2 ms: with allreduce.waiting's constants a second ps task, idle past 2 ms, napped and cost one
# worker 8.7 ms a step against 3.1 ms with 1 ps. Idle past 50 ms, napping up to 1 ms costs a step under 2%.
YIELD_S, NAP_MIN_S, NAP_MAX_S = 0.05, 50e-6, 0.001


def send(comm, obj, dest, tag):
    """Send `obj` to rank `dest`; returns the number of bytes sent."""
    payload = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    comm.Send([payload, len(payload), _byte()], dest=dest, tag=tag)
    return len(payload)


def recv(comm, source, tag, status=None):
    """Receive one message (any source/tag allowed); `status` tells which arrived.

    A blocking Probe busy-polls in MPICH: a ps task idle between steps holds a core its workers need (one
    worker, 2 ps tasks on 2 cores: 26 ms a step against 6.7 ms with 1 ps). A wait polls, then yields the core
    for up to YIELD_S, then naps: a nap would delay the answer to the next message by up to NAP_MAX_S.
    """
    from mpi4py import MPI
    status = status if status is not None else MPI.Status()
    _wait(lambda: comm.Iprobe(source=source, tag=tag, status=status))
    buf = bytearray(status.Get_count(MPI.BYTE))
    comm.Recv([buf, MPI.BYTE], source=status.Get_source(), tag=status.Get_tag())
    return pickle.loads(buf)


def _wait(ready):
    for _ in range(POLLS):
        if ready():
            return
    start, nap = time.monotonic(), NAP_MIN_S
    while not ready():
        if time.monotonic() - start < YIELD_S:
            os.sched_yield()
        else:
            time.sleep(nap)
            nap = min(2 * nap, NAP_MAX_S)


def _byte():
    from mpi4py import MPI
    return MPI.BYTE
