"""The ring allreduce: reduce-scatter, then all-gather, around a ring of N ranks.

        +--> rank 0 --> rank 1 --> rank 2 --> ... --> rank N-1 --+
        |                                                        |
        +--------------------------------------------------------+

The array is cut into N chunks (chunk c = elements [c*S//N, (c+1)*S//N), so any length works, 0 and < N
included). Every rank only ever sends to its right neighbour r+1 and receives from its left neighbour r-1.

  reduce-scatter, step i = 0 .. N-2:
      rank r sends chunk (r - i) mod N      (its own data at i = 0, then the partial sum it just made)
      rank r receives chunk (r - i - 1) mod N and adds its own data to it.
      After N-1 steps rank r holds chunk (r + 1) mod N reduced over all N ranks (and divides it for "mean").
  all-gather, step i = 0 .. N-2:
      rank r sends chunk (r + 1 - i) mod N  (the reduced chunk it owns, then the ones it receives)
      rank r receives chunk (r - i) mod N straight into the output.

  N = 3, chunks a b c, x_r = rank r's data:
      step      rank 0 gets          rank 1 gets          rank 2 gets
      RS 0      c: x2+x0             a: x0+x1             b: x1+x2
      RS 1      b: x1+x2+x0          c: x2+x0+x1          a: x0+x1+x2      <- each owns one reduced chunk
      AG 0      a (from 2)           b (from 0)           c (from 1)
      AG 1      c (from 2)           a (from 0)           b (from 1)

Cost: each rank sends and receives 2*(N-1) chunks of S/N bytes, 2*S*(N-1)/N bytes in all, independent of N
for large N: bandwidth-optimal. Every chunk is reduced in one fixed order along the ring by a single owner
and then copied, so all ranks end with bitwise identical results.

Pipelining: each chunk is cut into segments. A segment is forwarded (Isend) as soon as it is reduced, so the
right neighbour starts on step i+1 while we still reduce step i; receives for step i+1 are posted into a
second buffer before step i is reduced, and the all-gather receives land directly in the output. Buffers
and the segment schedule are cached per (length, dtype): no allocation per call after the first.

Segments are 4 MiB: with the mpich wheel on one node every extra message costs a rendezvous handshake that
only progresses inside MPI calls, and measured N=2 times fell from 3.0 ms (256 KiB segments) to 1.0 ms (one
4 MiB message) for a 4 MiB allreduce, so only chunks above 4 MiB are pipelined.

Messages up to 64 KiB (128 KiB when ranks outnumber cores, where every ring step waits for a descheduled
neighbour) take recursive doubling instead: log2 N rounds with the whole message (rd.py), which also carries
the shape/dtype agreement at no extra cost; larger ones pay one header-only doubling round before the ring.

Ranks sit on the ring by node (topology.py), not by MPI rank: with ranks placed alternately on two nodes
(a b a b) the ring 0 1 2 3 would cross the link on every hop, two streams each way; in node order (0 2 1 3) it
crosses once each way. The ring runs on `ring_comm`, the ranks in that order (self.comm when they already are).
"""
from . import topology
from .communicator import Communicator
from .env import env_number
from .errors import CollectiveTimeout
from .ops import UFUNCS, finish_mean
from .registry import register

SEGMENT_BYTES = env_number("RINGFLOW_RING_SEGMENT_BYTES", 4 * 2**20, int, minimum=1, unit="bytes")
TAG_RS, TAG_AG = 21, 22
MAX_CACHED = 64


@register("ring")
class RingCommunicator(Communicator):
    segment_bytes = SEGMENT_BYTES

    def __init__(self, comm=None, timeout=None, nodes=None):
        """nodes: for testing only, each rank's node label, pretending a layout (topology.py)."""
        super().__init__(comm, timeout)
        self._schedules = {}
        self.layout = topology.layout(self.comm, nodes)
        self.ring_comm = self._ring_members(self.layout)

    def _ring_members(self, layout):
        """The communicator the ring runs on (its rank: the place on the ring): every rank, in node order."""
        if layout.ring_order == list(range(self.size)):
            return self.comm
        return self.comm.Split(0, layout.ring_order.index(self.rank))

    def allreduce_flat(self, src, dst, op, signature):
        if self.size == 1:
            if src is not dst:
                dst[...] = src
            return
        if src.nbytes <= self.doubling.capacity:
            self.doubling.run(signature, src, op, dst)
            if op == "mean":
                finish_mean(dst, self.size)
            return
        self.doubling.run(signature)
        self._posted = []
        try:
            self._ring(src, dst, op)
        except CollectiveTimeout:
            for req in self._posted:  # no late message may land in the caller's memory
                if req and not req.Get_status():
                    req.Cancel()
            raise

    def _schedule(self, count, dtype):
        """Chunk bounds, per-chunk segment bounds and two receive buffers, cached per (count, dtype)."""
        key = (count, dtype)
        if key not in self._schedules:
            if len(self._schedules) > MAX_CACHED:  # many distinct sizes: start over rather than grow forever
                self._schedules.clear()
            n = self.ring_comm.Get_size()
            bounds = [c * count // n for c in range(n + 1)]
            step = max(1, self.segment_bytes // dtype.itemsize)
            segs = [[(a, min(a + step, bounds[c + 1])) for a in range(bounds[c], bounds[c + 1], step)]
                    for c in range(n)]
            width = bounds[1] - bounds[0] + 1
            tmp = self.scratch("ring", dtype, 2 * width)
            self._schedules[key] = bounds, segs, (tmp[:width], tmp[width:])
        return self._schedules[key]

    def _ring(self, src, dst, op):
        comm = self.ring_comm
        n, r = comm.Get_size(), comm.Get_rank()
        left, right = (r - 1) % n, (r + 1) % n
        bounds, segs, tmp = self._schedule(src.size, src.dtype)
        ufunc, wait = UFUNCS[op], self.wait

        def post_recvs(step):
            c = (r - step - 1) % n
            t, base = tmp[step % 2], bounds[c]
            reqs = [comm.Irecv(t[a - base:b - base], left, TAG_RS) for a, b in segs[c]]
            self._posted += reqs
            return reqs

        rs_sends = [comm.Isend(src[a:b], right, TAG_RS) for a, b in segs[r]]
        ag_sends = []
        recvs = post_recvs(0)
        for step in range(n - 1):
            c = (r - step - 1) % n
            t, base = tmp[step % 2], bounds[c]
            last = step == n - 2
            following = None if last else post_recvs(step + 1)
            for req, (a, b) in zip(recvs, segs[c]):
                wait([req], recvs=1)
                ufunc(t[a - base:b - base], src[a:b], out=dst[a:b])
                if not last:
                    rs_sends.append(comm.Isend(dst[a:b], right, TAG_RS))
                    continue
                if op == "mean":
                    finish_mean(dst[a:b], n)
                ag_sends.append(comm.Isend(dst[a:b], right, TAG_AG))
            recvs = following
        wait(rs_sends)  # their memory is all-gather's landing zone

        order = [(a, b) for step in range(n - 1) for a, b in segs[(r - step) % n]]
        recvs = [comm.Irecv(dst[a:b], left, TAG_AG) for a, b in order]
        self._posted += recvs
        forward = len(order) - len(segs[(r + 2) % n])  # the last chunk received goes nowhere
        for i, (req, (a, b)) in enumerate(zip(recvs, order)):
            wait([req], recvs=1)
            if i < forward:
                ag_sends.append(comm.Isend(dst[a:b], right, TAG_AG))
        wait(ag_sends)
