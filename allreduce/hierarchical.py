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

Messages above SLOT_BYTES go through in pieces; two slots alternate (as in shm.py), so a slot is rewritten only
after every rank of the node has passed a later barrier, i.e. finished reading it.
"""
import numpy as np
from mpi4py import MPI

from .env import env_number
from .ops import UFUNCS, finish_mean
from .registry import register
from .ring import SEGMENT_BYTES, RingCommunicator

# The largest piece: big enough that a piece's two node barriers cost nothing beside its ring across nodes, and
# the same bound as shm's slots. The windows grow to it only as messages need it.
SLOT_BYTES = env_number("RINGFLOW_SHM_SLOT_BYTES", 16 * 2**20, int, minimum=64, unit="bytes")
MAX_VIEWS = 128
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
        per = max(1, SLOT_BYTES // src.itemsize)
        for a in range(0, src.size, per):
            self._piece(src[a:a + per], dst[a:a + per], op)

    def _piece(self, src, dst, op):
        if self.node.Get_size() == 1:  # lane 0 of a node of its own: nothing to share
            return self._across(src, dst, op)
        views, me, m = self._views(src.nbytes, src.dtype), self.node.Get_rank(), lanes(self.layout)
        cut = [s * src.size // m for s in range(m + 1)]
        mine = views[me]
        if self.lane is None:
            mine[...] = src
        else:
            lo, hi = cut[self.lane], cut[self.lane + 1]
            mine[:lo], mine[hi:] = src[:lo], src[hi:]  # our own slice is read by nobody else
        self._node_barrier()
        if self.lane is not None:
            inputs = [v[lo:hi] for v in views]
            inputs[me], result = src[lo:hi], mine[lo:hi]
            ufunc = UFUNCS[op]
            ufunc(inputs[0], inputs[1], out=result)
            for x in inputs[2:]:
                ufunc(result, x, out=result)
            self._across(result, result, op)
        self._node_barrier()
        for s in range(m):
            dst[cut[s]:cut[s + 1]] = views[s][cut[s]:cut[s + 1]]

    def _across(self, src, dst, op):
        """The ring across nodes on this lane's slice; "mean" divides by every rank, not the ring's."""
        if self.ring_comm.Get_size() > 1:
            super()._ring(src, dst, "sum" if op == "mean" else op)
        elif src is not dst:
            dst[...] = src
        if op == "mean":
            finish_mean(dst, self.size)

    def _views(self, nbytes, dtype):
        """This piece's slot in every local rank's window, as arrays; the windows grow (collectively on the
        node, where every rank asks for the same size) when a piece does not fit."""
        if nbytes > self.slot_bytes:
            # with the timeout, every node rank is here (allocating blocks) and nobody still reads the old windows
            self._node_barrier()
            if self.win is not None:
                self.win.Unlock_all()
                self.win.Free()
            want = max(nbytes, min(2 * self.slot_bytes, SLOT_BYTES))
            self.slot_bytes = -(-want // ALIGN) * ALIGN
            self.win = MPI.Win.Allocate_shared(2 * self.slot_bytes, 1, comm=self.node)
            self.win.Lock_all()
            self.mapped = [np.frombuffer(self.win.Shared_query(q)[0], np.uint8) for q in range(self.node.Get_size())]
            self.views.clear()
        slot = self.piece % 2
        self.piece += 1
        key = (slot, nbytes, dtype)
        views = self.views.get(key)
        if views is None:
            if len(self.views) >= MAX_VIEWS:
                self.views.clear()
            start = slot * self.slot_bytes
            views = self.views[key] = [m[start:start + nbytes].view(dtype) for m in self.mapped]
        return views

    def _node_barrier(self):
        """Every rank of this node is here; window writes before it are visible to the node after it."""
        if self.win is not None:
            self.win.Sync()
        self.wait([self.node.Ibarrier()])
        if self.win is not None:
            self.win.Sync()
