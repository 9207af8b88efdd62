"""Messages between workers and ps tasks: pickled Python objects sent as MPI byte buffers.

Sending bytes ourselves (not comm.send) lets the client count exactly what each step puts on the wire,
which scripts/bench_ps.py compares with the ring's 2*S*(N-1)/N.
"""
import pickle

# MPI tags, one per kind of message, so the ps service loop dispatches on Status.Get_tag().
TAG_READ = 0x5F01    # worker -> ps: names of the ps variables a run reads; answered with TAG_VALUES
TAG_VALUES = 0x5F02  # ps -> worker: {name: array} for those that hold a value (missing = uninitialized)
TAG_UPDATE = 0x5F03  # worker -> ps: one run's Assign*/Apply* ops on that ps's variables; answered with TAG_ACK
TAG_ACK = 0x5F04     # ps -> worker: the updates are applied (for SyncReplicas: their round is complete)
TAG_DONE = 0x5F05    # worker -> ps: this worker has finished; join() returns once every worker sent it


def send(comm, obj, dest, tag):
    """Send `obj` to rank `dest`; returns the number of bytes sent."""
    payload = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    comm.Send([payload, len(payload), _byte()], dest=dest, tag=tag)
    return len(payload)


def recv(comm, source, tag, status=None):
    """Receive one message (any source/tag allowed); `status` tells which arrived."""
    from mpi4py import MPI
    status = status if status is not None else MPI.Status()
    comm.Probe(source=source, tag=tag, status=status)
    buf = bytearray(status.Get_count(MPI.BYTE))
    comm.Recv([buf, MPI.BYTE], source=status.Get_source(), tag=status.Get_tag())
    return pickle.loads(buf)


def _byte():
    from mpi4py import MPI
    return MPI.BYTE
