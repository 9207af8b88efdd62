"""One node, MPI-3 shared memory: every rank maps every other rank's window and reads it directly.

Per piece (at most one slot): each rank copies its input into its own window slot (all but its own slice,
which no peer reads); a flag barrier; rank r reduces slice r straight from the N-1 peer windows and its own
input (one fixed order) into its window; a second barrier; everyone copies the other slices out. Pieces up
to 64 KiB skip the second barrier: every rank reduces the whole piece in the same order (same bits
everywhere). Two slots alternate, so a slot is rewritten only after every rank has passed a later barrier,
i.e. finished reading it.

The barrier is a per-rank sequence number in shared memory, posted next to the call's signature: passing the
first barrier is also the label/shape/dtype/op agreement. The other collectives agree through MPI messages (the
base's recursive doubling), so a rank in one kind while a peer is in the other would wait for ever: a rank in an
agreement barrier that finds a peer's handshake message waiting, and a rank in an MPI wait that sees a peer post
an agreement barrier for the same collective number as its own, are crossed. The two undo their half (the
barrier's post, the message and the receive), tell each other what they are in, and raise CollectiveMismatch,
and the communicator stays usable.

FusedAllreduce's buckets skip the copy-in: `allocate_buckets` puts them in a window of their own (one per
FusedAllreduce), so the peers read them where the gradients were written. Per piece: a barrier; rank r reduces
slice r from every rank's bucket into its own bucket's slice r (in place: in this phase nobody else reads it);
a barrier; every rank copies slice q from rank q's bucket. A bucket may be rewritten only once the peers have
copied from it, so the call ends with a third barrier (the next piece's first barrier guards the others).
Pieces up to 64 KiB are reduced whole by every rank into a scratch array, copied in after the second barrier.
"""

import json

import numpy as np
from mpi4py import MPI

from . import diagnosis
from .buckets import Buckets, bucket_labels
from .communicator import Communicator
from .env import env_number
from .errors import CollectiveMismatch
from .ops import UFUNCS, check_op, finish_mean, work_dtype
from .rd import TAG as HANDSHAKE_TAG
from .registry import register
from .waiting import grace_for, patiently

SLOT_BYTES = env_number("RINGFLOW_SHM_SLOT_BYTES", 16 * 2**20, int, minimum=64, unit="bytes")  # >= 8 float64s
# Pieces of 256 KiB per rank keep a piece in cache from copy-in to copy-out (measured best with a core per
# rank); with more ranks than cores every barrier waits for descheduled ranks, so there fewer, whole-slot
# pieces win (measured: 4 ranks on 2 cores, 16 MiB pieces 0.45x MPI's time where 512 KiB ones are 2x).
PIECE_BYTES_PER_RANK = 256 * 1024
SMALL_BYTES = 64 * 1024  # below: everyone reduces everything, one barrier instead of two
# Fused buckets have no copy-in to keep in cache, so their pieces are only cut for the reduce and copy-out:
# 2 MiB per rank (this core's L2) measured best, N=2 on 2 cores: a 2.7 MiB bucket in one piece 0.14-0.16 ms
# (256 KiB per rank: 0.36 ms), a 21 MiB one 2.1-2.2 ms (one piece: 2.5-3.0 ms). Oversubscribed: whole slots.
FUSED_PIECE_BYTES_PER_RANK = 2 * 2**20
FLAG_BYTES = 128  # seq, signatures and collective number on their own cache lines
CROSSED_TAG = 18  # two ranks caught in different kinds of collective tell each other which (rd.py's is 17)
ALIGN = 64  # each bucket starts on a cache line


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
        self.fused_piece_bytes = slot if self.oversubscribed else FUSED_PIECE_BYTES_PER_RANK * self.size
        self.win = MPI.Win.Allocate_shared(FLAG_BYTES + 2 * slot, 1, comm=self.comm)
        self.win.Lock_all()
        mapped = [np.frombuffer(self.win.Shared_query(q)[0], np.uint8) for q in range(self.size)]
        # [seq, signature of even pieces, of odd pieces, collective number of the last agreement] per rank, as
        # int64 memoryviews (cheap to poll)
        self.flags = [memoryview(m[:32]).cast("q") for m in mapped]
        self.peers = [q for q in range(self.size) if q != self.rank]
        self.slots = [(m[FLAG_BYTES:FLAG_BYTES + slot], m[FLAG_BYTES + slot:]) for m in mapped]
        self.flags[self.rank][0:4] = memoryview(bytes(32)).cast("q")
        self.seq = self.piece = 0
        self.receiving = ()  # the receives of the MPI wait in progress, which _crossed cancels
        self.views = {}  # (slot, nbytes, dtype) -> every rank's window as an array
        self.comm.Barrier()

    def allocate_buckets(self, counts_dtypes):
        if self.size == 1:
            return super().allocate_buckets(counts_dtypes)
        return SharedBuckets(self, counts_dtypes)

    def allreduce_flat(self, src, dst, op, signature):
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
            self.flag_barrier(signature, slot)
            ufunc(views[0], views[1], out=dst)
            for q in range(2, n):
                ufunc(dst, views[q], out=dst)
            if op == "mean":
                finish_mean(dst, n)
            return
        lo, hi = me * src.size // n, (me + 1) * src.size // n
        mine = views[me]
        mine[:lo], mine[hi:] = src[:lo], src[hi:]  # only our own slice is never read by a peer
        self.flag_barrier(signature, slot)
        inputs = [v[lo:hi] for v in views]
        inputs[me], result = src[lo:hi], mine[lo:hi]
        ufunc(inputs[0], inputs[1], out=result)
        for q in range(2, n):
            ufunc(result, inputs[q], out=result)
        if op == "mean":
            finish_mean(result, n)
        dst[lo:hi] = result
        self.flag_barrier(None, slot)
        for q in range(n):
            if q != me:
                a, b = q * src.size // n, (q + 1) * src.size // n
                dst[a:b] = views[q][a:b]

    def flag_barrier(self, signature, slot):
        """Barrier over the shared flags (slot: the piece's, 0 or 1); with a signature, also the agreement:
        every rank posted the same one. SharedBuckets passes its pieces through here too."""
        self.seq += 1
        seq, flags = self.seq, self.flags
        mine = flags[self.rank]
        if signature is not None:
            mine[1 + slot] = signature  # a rank one piece ahead of us writes the other entry
            mine[3] = self.position()[0]
        self.win.Sync()  # our window writes become visible before the flag says so
        mine[0] = seq
        for q in self.peers:
            if flags[q][0] < seq:
                self._await(seq, signature is not None)
                break
        self.win.Sync()
        if signature is not None and any(flags[q][1 + slot] != signature for q in self.peers):
            self.raise_mismatch()

    def _await(self, seq, agreeing):
        flags, peers = self.flags, self.peers
        ready = lambda: all(flags[q][0] >= seq for q in peers)  # noqa: E731
        watch = (lambda: self._watch_agreement(ready)) if agreeing else (lambda: Communicator.watch(self, ready))
        if not patiently(ready, self.spins, self.timeout, watch, crowded=self.oversubscribed):
            self.give_up()

    def _watch_agreement(self, ready):
        """In an agreement barrier: a peer's handshake message waiting for us means it is in an MPI collective, and
        so does its note that it found our post (its collective may send us nothing: without listening for the
        note, it would give up hearing from us and go on, and we would take its next collective's handshake for
        this one's)."""
        Communicator.watch(self, ready)
        status = MPI.Status()
        if not (self.comm.Iprobe(MPI.ANY_SOURCE, CROSSED_TAG, status)
                or self.comm.Iprobe(MPI.ANY_SOURCE, HANDSHAKE_TAG, status)) or ready():
            return
        peer = status.Get_source()
        while self.comm.Iprobe(peer, HANDSHAKE_TAG, status):  # its send completes: it can reuse its requests
            self.comm.Recv(np.empty(status.Get_count(MPI.BYTE), np.uint8), peer, HANDSHAKE_TAG)
        self.seq -= 1  # nobody can have passed the barrier without that peer: take our post back
        self.flags[self.rank][0] = self.seq
        self.piece -= 1
        self._crossed(peer)

    def watch(self, ready):
        """In an MPI wait: a peer that posted an agreement barrier for our collective number is in a shm one, and
        so is one whose note says it found our handshake (it takes its post back, so the flag may be gone)."""
        super().watch(ready)
        calls, status = self.position()[0], MPI.Status()
        for q in self.peers:
            if self.flags[q][3] == calls and self.flags[q][0] > self.seq and not ready():
                self._crossed(q)
        if self.comm.Iprobe(MPI.ANY_SOURCE, CROSSED_TAG, status) and not ready():
            self._crossed(status.Get_source())

    def wait(self, reqs, recvs=0):
        self.receiving = reqs[:recvs]
        try:
            super().wait(reqs, recvs)
        except CollectiveMismatch:  # crossed: _crossed took our receives back; the peer took our sends
            patiently(lambda: MPI.Request.Testall(reqs[recvs:]), 0, grace_for(self.timeout))
            raise
        finally:
            self.receiving = ()

    def _crossed(self, peer):
        """Tell `peer` which collective we are in, hear which it is in, and raise CollectiveMismatch. Receives we
        wait on are cancelled first: once the peer hears from us it goes on, and its next collective's message
        must not complete one of this collective's receives."""
        for req in self.receiving:
            if not req.Test():
                req.Cancel()
                req.Wait()
        self.receiving = ()
        mine = self.position()
        send = self.comm.Isend(np.frombuffer(json.dumps(mine).encode(), np.uint8), peer, CROSSED_TAG)
        status, theirs = MPI.Status(), None
        if patiently(lambda: self.comm.Iprobe(peer, CROSSED_TAG, status), 0, grace_for(self.timeout)):
            note = np.empty(status.Get_count(MPI.BYTE), np.uint8)
            self.comm.Recv(note, peer, CROSSED_TAG)
            theirs = json.loads(note.tobytes())
        if not patiently(send.Test, 0, grace_for(self.timeout)):
            send.Cancel()
            send.Wait()
        raise diagnosis.crossed(self.rank, mine, peer, theirs)


class SharedBuckets(Buckets):
    """FusedAllreduce's buckets in a shared window, reduced in place from the peers' buckets (module docstring).
    The plan (which slices each piece reads and writes) is built once, so a call only reduces and copies."""

    def __init__(self, communicator, counts_dtypes):
        self.communicator = c = communicator
        n, me = c.size, c.rank
        offsets, end = [], 0
        for count, dtype in counts_dtypes:
            offsets.append(end)
            end += -(-count * np.dtype(dtype).itemsize // ALIGN) * ALIGN
        self.win = MPI.Win.Allocate_shared(max(end, ALIGN), 1, comm=c.comm)
        self.win.Lock_all()
        mapped = [np.frombuffer(self.win.Shared_query(q)[0], np.uint8) for q in range(n)]
        mapped[me][:] = 0
        self.arrays, self.plans = [], []
        for (count, dtype), offset in zip(counts_dtypes, offsets):
            dtype = np.dtype(dtype)
            every = [m[offset:offset + count * dtype.itemsize].view(dtype) for m in mapped]
            self.arrays.append(every[me])
            per = max(1, c.fused_piece_bytes // dtype.itemsize)
            tmp = np.empty(min(count, per), work_dtype(dtype))
            pieces = []
            for a in range(0, max(count, 1), per):
                b = min(a + per, count)
                if (b - a) * dtype.itemsize <= SMALL_BYTES:
                    pieces.append(([x[a:b] for x in every], every[me][a:b], tmp[:b - a], None))
                    continue
                cut = [a + q * (b - a) // n for q in range(n + 1)]
                mine = slice(cut[me], cut[me + 1])
                copies = [(every[me][cut[q]:cut[q + 1]], every[q][cut[q]:cut[q + 1]]) for q in c.peers]
                pieces.append(([x[mine] for x in every], every[me][mine], tmp[:mine.stop - mine.start], copies))
            self.plans.append(pieces)
        # the agreement covers the whole layout, so ranks that built different buckets fail before any read
        self.shape = tuple(count for count, _ in counts_dtypes)
        c.comm.Barrier()  # every rank's zeros are in place before anyone reads them

    def allreduce(self, op, what=None):
        c = self.communicator
        check_op(op)
        ufunc, n, guard = UFUNCS[op], c.size, False
        for a, text, pieces in zip(self.arrays, bucket_labels(what, len(self.arrays)), self.plans):
            signature = c.begin("fused allreduce", text, self.shape, a.dtype, "fused " + op)
            for inputs, result, tmp, copies in pieces:
                self._sync(signature)
                signature = None
                staged = copies is None or tmp.dtype != result.dtype  # peers still read result; float16
                out = tmp if staged else result
                _fold(ufunc, inputs, tmp, out)
                if op == "mean":
                    finish_mean(out, n)
                if staged and copies is not None:
                    result[...] = tmp
                self._sync(None)
                for dst, src in copies or [(result, tmp)]:
                    dst[...] = src
                guard = copies is not None
        if guard:  # the peers' last copies from our bucket are done before the caller may rewrite it
            self._sync(None)

    def _sync(self, signature):
        c = self.communicator
        slot = c.piece % 2
        c.piece += 1
        self.win.Sync()  # our bucket writes are visible before the flag says so, the peers' after
        c.flag_barrier(signature, slot)
        self.win.Sync()

    def close(self):
        self.arrays = self.plans = None
        self.win.Unlock_all()
        self.win.Free()


def _fold(ufunc, inputs, tmp, out):
    """out = (((x0 op x1) op x2) ...) in rank order, so every rank computes the same bits, in tmp's (work)
    dtype. Partial results go to tmp, since out may be one of the inputs still to be read."""
    acc = inputs[0]
    for x in inputs[1:-1]:
        ufunc(acc, x, out=tmp, dtype=tmp.dtype)
        acc = tmp
    ufunc(acc, inputs[-1], out=out, dtype=tmp.dtype)
