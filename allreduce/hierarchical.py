"""The hierarchical allreduce: within each node through shared memory, across nodes by ring, with one ring per
local rank, each on its own slice, all running at once.

      node 0                      node 1                      node 2
    +-----------+               +-----------+               +-----------+
    | r0 lane 0 | --ring 0-->   | r2 lane 0 | --ring 0-->   | r4 lane 0 | --ring 0--> (back to r0)
    | r1 lane 1 | --ring 1-->   | r3 lane 1 | --ring 1-->   | r5 lane 1 | --ring 1--> (back to r1)
    +-----------+               +-----------+               +-----------+
      shared memory               shared memory               shared memory

k nodes, node i holding L_i ranks (topology.py: nodes in order of their lowest rank, local ranks in rank order).
M = min L_i lanes: the array is cut into M slices (slice s = elements [s*n//M, (s+1)*n//M), any length works),
and local rank s < M of every node is slice s's lane.

  1. reduce-scatter within each node: every rank copies its input into its shared-memory window; a node
     barrier; lane s sums slice s over its node's windows, in local rank order, into its own window.
  2. across nodes: lane s of every node, in node order, runs the ring (ring.py) on slice s, in place in its
     window; the M rings run at once, over the same links. "mean" divides by all N ranks afterwards.
  3. all-gather within each node: a node barrier; every rank copies slice s out of lane s's window.

  2 nodes x 2 ranks, x_r = rank r's data, slices a b:
      after 1:  r0 holds a: x0+x1    r1 holds b: x0+x1    r2 holds a: x2+x3    r3 holds b: x2+x3
      after 2:  r0, r2 hold a: (x0+x1)+(x2+x3)            r1, r3 hold b: (x0+x1)+(x2+x3)
      after 3:  every rank holds a and b

Cost, for S bytes: each ring moves 2*(S/M)*(k-1)/k bytes in and out of each of its lanes, so a node sends
2*S*(k-1)/k across the network in all, whatever its L_i. The flat ring's crossing rank sends 2*S*(N-1)/N (1.5*S at
2 nodes x 2 ranks, against S here). Within the node each byte is copied in and out once and read L_i times.

Uneven nodes (2+1): M is the smallest node's size, so the larger nodes' extra ranks only copy in and out (their
node's lanes carry their data), and a node of one rank joins the rings without shared memory.

Every slice is reduced in one fixed order (local ranks, then the ring's owner order) and then copied, so all
ranks end with bitwise identical results. Messages up to the doubling capacity take recursive doubling over all
ranks, as in ring.py, which also carries the agreement for larger ones. Node barriers are MPI Ibarriers waited
on with the timeout, so a late rank anywhere is named (give_up's roll call covers every rank).

Pipelining: a message goes through in pieces (at least MIN_PIECES of them, each 1-4 MiB), and while piece p's
rings cross the links, the node copies piece p-1 out and piece p+1 in and reduces it, so the links idle only
during the first piece's reduce-scatter and the last one's all-gather. The rings run on a helper thread (MPI
THREAD_MULTIPLE; numpy and mpi4py release the GIL); the caller's thread does the copies and every node barrier,
and alone does the roll call when the helper's ring times out.

    caller:  in 0 | in 1       | out 0 in 2 | out 1 in 3 | out 2 ...      (in: copy in, barrier, reduce)
    helper:       | ring 0     | ring 1     | ring 2     | ring 3 ...
             barrier after each ring: every lane's slice of that piece is final

Three slots rotate through the windows: piece p+1 is copied into piece p-2's slot, which every node rank
finished copying out before the barrier that ended piece p-1's rings. Without THREAD_MULTIPLE the same steps
run in turn on one thread. 2 nodes x 2 ranks at 1 Gbit (scripts/bench_cluster.py): 1.41-1.47x the link rate
for 4-64 MiB, against 1.35-1.45x with 16 MiB pieces one after the other.
"""
import threading

import numpy as np
from mpi4py import MPI

from .env import env_number
from .ops import UFUNCS, finish_mean
from .registry import register
from .ring import SEGMENT_BYTES, RingCommunicator

# The largest slot, the same bound as shm's; pieces are at most this. The windows grow only as messages need it.
SLOT_BYTES = env_number("RINGFLOW_SHM_SLOT_BYTES", 16 * 2**20, int, minimum=64, unit="bytes")
MAX_VIEWS = 128
# Pieces are pipelined (see above): at least MIN_PIECES of them, so that a 4 MiB message overlaps too, but none
# below MIN_PIECE_BYTES (a ring's fixed costs) nor above PIECE_BYTES: with 16 MiB pieces 64 MiB messages ran at
# 1.36x the link rate, with 4 MiB pieces at 1.42x (presumably: smaller copies stay in cache).
MIN_PIECES = env_number("RINGFLOW_HIER_MIN_PIECES", 4, int, minimum=1, unit="pieces")
MIN_PIECE_BYTES = 2**20
PIECE_BYTES = env_number("RINGFLOW_HIER_PIECE_BYTES", 4 * 2**20, int, minimum=64, unit="bytes")
SLOTS = 3
# The rings run on a helper thread while the caller's thread does the node's copies (numpy and mpi4py release
# the GIL); without MPI_THREAD_MULTIPLE they run in turn with the rest, in the same order.
THREADED = MPI.Query_thread() >= MPI.THREAD_MULTIPLE
ALIGN = 64  # slots start on a cache line, so every dtype's view is aligned


def lanes(layout):
    """How many slices, hence rings, run at once: the smallest node's number of ranks."""
    return min(len(ranks) for ranks in layout.members)


@register("hierarchical")
class HierarchicalCommunicator(RingCommunicator):
    # Its rings cross links far slower than memory: 1 MiB segments let a segment's reduction overlap the next
    # one's transfer (2 nodes x 2 ranks at 1 Gbit: 1.38-1.39x the link rate for 16-64 MiB, against 1.34-1.35x
    # with the one-node ring's 4 MiB).
    segment_bytes = min(SEGMENT_BYTES, 2**20)

    def __init__(self, comm=None, timeout=None, nodes=None):
        """nodes: for testing only, each rank's node label, pretending a layout (topology.py)."""
        super().__init__(comm, timeout, nodes)
        local = self.layout.local_rank
        self.lane = local if local < lanes(self.layout) else None
        self.node = self.comm.Split(self.layout.node, local)
        self.win, self.mapped, self.slot_bytes, self.views, self.piece = None, [], 0, {}, 0

    def _ring_members(self, layout):
        """Lane s's ring: local rank s of every node, in node order (COMM_NULL for ranks in no lane)."""
        lane = layout.local_rank
        return self.comm.Split(lane if lane < lanes(layout) else MPI.UNDEFINED, layout.node)

    def _ring(self, src, dst, op):
        # the ring's step for messages above the doubling capacity, once the ranks agreed on what they reduce
        if self.layout.nodes == self.size:  # a rank per node: the ring, on the whole message
            return self._across(src, dst, op)
        # every ring's members must cut the same pieces, whatever their node's size
        per = max(1, min(SLOT_BYTES, PIECE_BYTES, max(src.nbytes // MIN_PIECES, MIN_PIECE_BYTES)) // src.itemsize)
        pieces = [(a, min(a + per, src.size)) for a in range(0, src.size, per)]
        if self.node.Get_size() == 1:  # lane 0 of a node of its own: nothing to share, nothing to overlap
            for a, b in pieces:
                self._across(src[a:b], dst[a:b], op)
            return
        self._reserve(min(per, src.size) * src.itemsize)
        m = lanes(self.layout)
        ring, last = _Helper(self._across, self.give_up) if THREADED and self.lane is not None else None, None
        try:
            staged = self._stage_in(src, op, pieces[0], m)
            for i in range(len(pieces)):
                # piece i is reduced within the node (staged); its ring starts here and runs while piece i-1 is
                # copied out and piece i+1 copied in and reduced
                self._start(ring, staged, op)
                if last is not None:
                    self._stage_out(dst, *last)
                following = self._stage_in(src, op, pieces[i + 1], m) if i + 1 < len(pieces) else None
                self._finish(ring)
                self._node_barrier()  # every lane's ring on piece i is done: its slices are final
                last, staged = (pieces[i], staged[0], m), following
            self._stage_out(dst, *last)
        finally:
            if ring is not None:
                ring.close()

    def _stage_in(self, src, op, piece, m):
        """Copy piece into this rank's window slot; after a node barrier, reduce this lane's slice of it over
        the node's windows into our own. Returns (views, this lane's reduced slice or None)."""
        a, b = piece
        src = src[a:b]
        views, me = self._views(src.nbytes, src.dtype), self.node.Get_rank()
        cut = [s * src.size // m for s in range(m + 1)]
        mine = views[me]
        if self.lane is None:
            mine[...] = src
        else:
            lo, hi = cut[self.lane], cut[self.lane + 1]
            mine[:lo], mine[hi:] = src[:lo], src[hi:]  # our own slice is read by nobody else
        self._node_barrier()
        if self.lane is None:
            return views, None
        inputs = [v[lo:hi] for v in views]
        inputs[me], result = src[lo:hi], mine[lo:hi]
        ufunc = UFUNCS[op]
        ufunc(inputs[0], inputs[1], out=result)
        for x in inputs[2:]:
            ufunc(result, x, out=result)
        return views, result

    def _stage_out(self, dst, piece, views, m):
        a, b = piece
        dst = dst[a:b]
        cut = [s * dst.size // m for s in range(m + 1)]
        for s in range(m):
            dst[cut[s]:cut[s + 1]] = views[s][cut[s]:cut[s + 1]]

    def _start(self, ring, staged, op):
        """Start this lane's ring on its reduced slice (in place in the window): on the helper thread, or here."""
        result = staged[1]
        if result is None:
            return
        if ring is None:
            self._across(result, result, op)
        else:
            ring.submit(result, op)

    def _finish(self, ring):
        if ring is not None and self.lane is not None:
            ring.result()

    def _across(self, src, dst, op):
        """The ring across nodes on this lane's slice; "mean" divides by every rank, not the ring's."""
        if self.ring_comm.Get_size() > 1:
            super()._ring(src, dst, "sum" if op == "mean" else op)
        elif src is not dst:
            dst[...] = src
        if op == "mean":
            finish_mean(dst, self.size)

    def _reserve(self, nbytes):
        """Grow the windows (collectively on the node, where every rank asks for the same size) when a piece of
        nbytes does not fit a slot; only between messages, when no ring works in them."""
        if nbytes <= self.slot_bytes:
            return
        # with the timeout, every node rank is here (allocating blocks) and nobody still reads the old windows
        self._node_barrier()
        if self.win is not None:
            self.win.Unlock_all()
            self.win.Free()
        want = max(nbytes, min(2 * self.slot_bytes, SLOT_BYTES))
        self.slot_bytes = -(-want // ALIGN) * ALIGN
        self.win = MPI.Win.Allocate_shared(SLOTS * self.slot_bytes, 1, comm=self.node)
        self.win.Lock_all()
        self.mapped = [np.frombuffer(self.win.Shared_query(q)[0], np.uint8) for q in range(self.node.Get_size())]
        self.views.clear()

    def _views(self, nbytes, dtype):
        """The next piece's slot in every local rank's window, as arrays."""
        slot = self.piece % SLOTS
        self.piece += 1
        key = (slot, nbytes, dtype)
        views = self.views.get(key)
        if views is None:
            if len(self.views) >= MAX_VIEWS:
                self.views.clear()
            start = slot * self.slot_bytes
            views = self.views[key] = [m[start:start + nbytes].view(dtype) for m in self.mapped]
        return views

    def give_up(self):
        if getattr(_HELPING, "ring", False):  # on the helper: the caller's thread holds the roll call
            raise _Stalled()
        super().give_up()

    def _node_barrier(self):
        """Every rank of this node is here; window writes before it are visible to the node after it."""
        if self.win is not None:
            self.win.Sync()
        self.wait([self.node.Ibarrier()])
        if self.win is not None:
            self.win.Sync()


_HELPING = threading.local()  # .ring: this thread is a _Helper


class _Stalled(Exception):
    """The helper's ring timed out: the caller's thread, joining it, does the roll call (give_up) alone."""


class _Helper:
    """One thread that runs a communicator's rings across nodes, one at a time, while the caller goes on."""

    def __init__(self, across, give_up):
        """across(src, dst, op) runs one ring across nodes; give_up() abandons the communicator's collective."""
        self.across, self.give_up, self.job, self.error = across, give_up, None, None
        self.go, self.done = threading.Semaphore(0), threading.Semaphore(0)
        self.thread = threading.Thread(target=self._serve, name="ringflow-ring", daemon=True)
        self.thread.start()

    def submit(self, slice_, op):
        self.job = slice_, op
        self.go.release()

    def result(self):
        """Wait for the ring submitted last (its own waits carry the timeout); re-raise what it raised."""
        self.done.acquire()
        error, self.error = self.error, None
        if isinstance(error, _Stalled):
            self.give_up()
        if error is not None:
            raise error

    def close(self):
        self.job = None
        self.go.release()

    def _serve(self):
        _HELPING.ring = True
        while True:
            self.go.acquire()
            if self.job is None:
                return
            try:
                self.across(self.job[0], self.job[0], self.job[1])
            except BaseException as error:  # handed to the caller's thread
                self.error = error
            self.done.release()
