"""One node, MPI-3 shared memory: every rank maps every other rank's window and reads it directly.

Per piece (at most one slot): each rank copies its input into its own window slot (all but its own slice,
which no peer reads); a flag barrier; rank r reduces slice r straight from the N-1 peer windows and its own
input (one fixed order) into its window; a second barrier; everyone copies the other slices out. Pieces up
to 64 KiB skip the second barrier: every rank reduces the whole piece in the same order (same bits
everywhere). Two slots alternate, so a slot is rewritten only after every rank has passed a later barrier,
i.e. finished reading it.

The barrier is a per-rank sequence number in shared memory, posted next to the call's signature: passing the
first barrier is also the shape/dtype/op agreement, and a timeout names exactly the ranks that did not arrive.
"""
import os
import time

import numpy as np
from mpi4py import MPI

from .communicator import Communicator
from .errors import CollectiveTimeout
from .ops import UFUNCS, finish_mean
from .registry import register

SLOT_BYTES = int(os.environ.get("RINGFLOW_SHM_SLOT_BYTES", 16 * 2**20))
# Pieces of 256 KiB per rank keep a piece in cache from copy-in to copy-out (measured best with a core per
# rank); with more ranks than cores every barrier waits for descheduled ranks, so there fewer, whole-slot
# pieces win (measured: 4 ranks on 2 cores, 16 MiB pieces 0.45x MPI's time where 512 KiB ones are 2x).
PIECE_BYTES_PER_RANK = 256 * 1024
SMALL_BYTES = 64 * 1024  # below: everyone reduces everything, one barrier instead of two
FLAG_BYTES = 128  # seq and signature on their own cache lines


@register("shm")
class SharedMemoryCommunicator(Communicator):
    def __init__(self, comm=None, timeout=None):
        super().__init__(comm, timeout)
        node = self.comm.Split_type(MPI.COMM_TYPE_SHARED)
        together = node.Get_size() == self.size
        node.Free()
        if not self.comm.allreduce(together, op=MPI.LAND):
            raise RuntimeError(f"'shm' needs all {self.size} ranks on one node, but rank {self.rank} shares its "
                               f"node with fewer: use 'ring' or 'auto' across nodes")
        slot = SLOT_BYTES
        self.piece_bytes = slot if self.oversubscribed else min(slot, PIECE_BYTES_PER_RANK * self.size)
        self.win = MPI.Win.Allocate_shared(FLAG_BYTES + 2 * slot, 1, comm=self.comm)
        self.win.Lock_all()
        mapped = [np.frombuffer(self.win.Shared_query(q)[0], np.uint8) for q in range(self.size)]
        # [seq, signature of even pieces, of odd pieces] per rank, as int64 memoryviews (cheap to poll)
        self.flags = [memoryview(m[:24]).cast("q") for m in mapped]
        self.peers = [q for q in range(self.size) if q != self.rank]
        self.slots = [(m[FLAG_BYTES:FLAG_BYTES + slot], m[FLAG_BYTES + slot:]) for m in mapped]
        self.flags[self.rank][0:3] = memoryview(bytes(24)).cast("q")
        self.seq = self.piece = 0
        self.views = {}  # (slot, nbytes, dtype) -> every rank's window as an array
        self.comm.Barrier()

    def _reduce(self, src, dst, op, signature):
        if self.size == 1:
            if src is not dst:
                dst[...] = src
            return
        per = self.piece_bytes // src.itemsize
        if src.size <= per:
            return self._piece(src, dst, op, signature)
        for piece, a in enumerate(range(0, src.size, per)):
            b = min(a + per, src.size)
            self._piece(src[a:b], dst[a:b], op, signature if piece == 0 else None)

    def _piece(self, src, dst, op, signature):
        n, me, ufunc = self.size, self.rank, UFUNCS[op]
        slot = self.piece % 2
        self.piece += 1
        key = (slot, src.nbytes, src.dtype)
        views = self.views.get(key)
        if views is None:
            if len(self.views) > 128:
                self.views.clear()
            views = self.views[key] = [s[slot][:src.nbytes].view(src.dtype) for s in self.slots]
        if src.nbytes <= SMALL_BYTES:  # everyone reduces everything, in the same order: one barrier
            views[me][...] = src
            self._sync(signature, slot)
            ufunc(views[0], views[1], out=dst)
            for q in range(2, n):
                ufunc(dst, views[q], out=dst)
            if op == "mean":
                finish_mean(dst, n)
            return
        lo, hi = me * src.size // n, (me + 1) * src.size // n
        mine = views[me]
        mine[:lo], mine[hi:] = src[:lo], src[hi:]  # only our own slice is never read by a peer
        self._sync(signature, slot)
        inputs = [v[lo:hi] for v in views]
        inputs[me], result = src[lo:hi], mine[lo:hi]
        ufunc(inputs[0], inputs[1], out=result)
        for q in range(2, n):
            ufunc(result, inputs[q], out=result)
        if op == "mean":
            finish_mean(result, n)
        dst[lo:hi] = result
        self._sync(None, slot)
        for q in range(n):
            if q != me:
                a, b = q * src.size // n, (q + 1) * src.size // n
                dst[a:b] = views[q][a:b]

    def _sync(self, signature, slot):
        """Barrier over the shared flags; with a signature, also check every rank posted the same one."""
        self.seq += 1
        seq, flags = self.seq, self.flags
        mine = flags[self.rank]
        if signature is not None:
            mine[1 + slot] = signature  # a rank one piece ahead of us writes the other entry
        self.win.Sync()  # our window writes become visible before the flag says so
        mine[0] = seq
        for q in self.peers:
            if flags[q][0] < seq:
                self._await(seq)
                break
        self.win.Sync()
        if signature is not None and any(flags[q][1 + slot] != signature for q in self.peers):
            self._mismatch(signature)

    def _await(self, seq):
        deadline, spins = time.monotonic() + self.timeout, 0
        while True:
            late = [q for q in self.peers if self.flags[q][0] < seq]
            if not late:
                return
            spins += 1
            if spins > self.spins:
                os.sched_yield()  # a rank spinning on an oversubscribed node starves the one it waits for
            if time.monotonic() > deadline:
                self._broken = (f"shm allreduce timed out at rank {self.rank} after {self.timeout:g} s waiting "
                                f"for rank(s) {late}")
                raise CollectiveTimeout(self._broken, rank=self.rank, waiting_for=late)
