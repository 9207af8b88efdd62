"""A rank whose program ends says so, so that no other rank waits for it until the timeout.

Ending is not failing: a rank that runs fewer steps than the others, returns early or calls sys.exit(1)
raises nothing that abort.py's hooks could see, and mpiexec keeps a job alive while any of its processes runs
(MPICH's MPI_Finalize even waits, inside the exited rank, for the others to finalize). The other ranks would
wait in their next collective for the whole timeout (300 s by default) and then blame a rank "stuck or dead".

So each communicator of more than one rank is tracked here, and at exit -- before mpi4py finalizes MPI --
this rank sends a notice on every one of them to every other rank (TAG_DEPARTED on the communicator's private
comm): how many collectives it began there, and the label of the last. A rank waiting in a collective looks for
notices every WATCH_S. Once it holds one from a rank it still needs, it gives the wait GRACE_S more, because the
leaver may have finished this very collective and its last message may still be arriving behind the notice;
then the communicator raises RankExited (communicator.py), naming the rank and both collectives.

A job that ends normally sends (size - 1) small messages per rank and communicator, which nobody receives.
"""
import atexit
import threading
import time
import weakref

from mpi4py import MPI

from . import sentinel
from .waiting import patiently

TAG_DEPARTED = 24  # beside rd's 17, the ring's 21/22 and the roll call's 23 on the private comm
WATCH_S = 0.001  # how often a waiting rank probes for notices: well under a millisecond of MPI calls per second
GRACE_S = 0.5  # a leaver's last messages travel before its notice on the same link: they need far less
SEND_S = 1.0  # at exit, how long to let the notices leave (small messages go eagerly: at once, in practice)

_tracked = weakref.WeakSet()
_lock = threading.Lock()


def track(communicator):
    """Announce this rank's exit on communicator (one of more than one rank) when the program ends."""
    with _lock:
        if not _tracked and not getattr(track, "registered", False):
            atexit.register(_announce)  # Python's exit handlers run before mpi4py's hook finalizes MPI
            track.registered = True
        _tracked.add(communicator)


class Watch:
    """The ranks of one communicator that have said they ended, as a waiting rank learns of them."""

    def __init__(self, comm):
        self.comm = comm
        self.departed = {}  # rank -> (collectives it began, label of its last)
        self._next = 0.0
        self._lock = threading.Lock()  # the hierarchical backend waits on two threads

    def check(self):
        """The departed ranks heard of so far ({rank: (count, label)}); probes MPI at most every WATCH_S."""
        now = time.monotonic()
        if now >= self._next:
            self._next = now + WATCH_S
            with self._lock:
                status = MPI.Status()
                while True:
                    message = self.comm.improbe(source=MPI.ANY_SOURCE, tag=TAG_DEPARTED, status=status)
                    if message is None:
                        break
                    self.departed[status.Get_source()] = message.recv()
        return self.departed

    def grace(self, ready, crowded=False):
        """After a notice: whether ready() becomes true within GRACE_S (the leaver's last data arriving)."""
        return patiently(ready, 0, GRACE_S, crowded=crowded)


def _announce():
    sentinel.leaving()  # this rank's end is not a death (sentinel.py)
    if not MPI.Is_initialized() or MPI.Is_finalized():
        return
    sends = []
    try:
        for communicator in list(_tracked):
            notice, comm, rank = communicator.position(), communicator.comm, communicator.rank
            sends += [comm.isend(notice, dest=q, tag=TAG_DEPARTED) for q in range(communicator.size) if q != rank]
        patiently(lambda: MPI.Request.Testall(sends), 0, SEND_S)
    except MPI.Exception:  # a peer already gone: the notice is a courtesy, never a reason for a clean exit to fail
        pass
