"""The communicator base class: argument checks, the shape/dtype agreement, waiting with a deadline,
broadcast/allgather/barrier, and the fused buckets' memory. A backend only implements
`_allreduce(src, dst, op)` on flat arrays."""
import hashlib
import os
import time

import numpy as np
from mpi4py import MPI

from .errors import CollectiveTimeout
from .ops import check_dtype, check_op, work_dtype
from . import rd

DEFAULT_TIMEOUT_S = 300.0
# polls (~0.3 us each) before each further poll also yields the core: latency first, then fairness; with more
# ranks than cores, yield at once (measured: 16 spins save ~0.5 us at 2 ranks, cost ~5 us at 4 ranks on 2 cores)
SPINS = 16


def resolve_timeout(timeout):
    if timeout is None:
        timeout = os.environ.get("RINGFLOW_TIMEOUT", DEFAULT_TIMEOUT_S)
    try:
        timeout = float(timeout)
    except (TypeError, ValueError):
        raise ValueError(f"timeout must be a number of seconds, got {timeout!r} (check RINGFLOW_TIMEOUT)") from None
    if not timeout > 0:
        raise ValueError(f"timeout must be positive seconds, got {timeout!r}")
    return timeout


class Communicator:
    """Collectives between the ranks of an MPI communicator (duplicated, so user messages never mix in)."""

    name = None

    def __init__(self, comm=None, timeout=None):
        self.timeout = resolve_timeout(timeout)
        self.comm = (MPI.COMM_WORLD if comm is None else comm).Dup()
        self.rank, self.size = self.comm.Get_rank(), self.comm.Get_size()
        self._broken = None
        self._buffers = {}
        self._signatures, self._plans = {}, {}
        node = self.comm.Split_type(MPI.COMM_TYPE_SHARED)
        crowded = node.Get_size() > (os.cpu_count() or 1)
        node.Free()
        # more ranks than cores on some node: decided together, since algorithm choices must match
        self.oversubscribed = self.comm.allreduce(crowded, op=MPI.LOR)
        self.spins = 0 if self.oversubscribed else SPINS
        self._rd = rd.RecursiveDoubling(self, rd.CAPACITY * (rd.OVERSUBSCRIBED_FACTOR if self.oversubscribed else 1))

    def __repr__(self):
        return f"<{type(self).__name__} {self.name!r} rank {self.rank} of {self.size}>"

    # -- the public collectives -------------------------------------------------------------------
    def allreduce(self, x, op="sum", out=None):
        """Reduce x over all ranks with op ("sum", "mean", "max", "min"); every rank gets the same bytes."""
        if self._broken:
            self._check_usable()
        if type(x) is not np.ndarray:
            x = np.asarray(x)
        plan = self._plans.get((x.shape, x.dtype, op))
        if plan is None:
            plan = self._plan(x.shape, x.dtype, op)
        signature, wd = plan
        fresh = out is None
        if fresh:
            out = np.empty(x.shape, x.dtype)
        elif type(out) is not np.ndarray or out.shape != x.shape or out.dtype != x.dtype:
            raise ValueError(f"out must be an array of x's shape {x.shape!r} and dtype {x.dtype!r}, got "
                             f"{getattr(out, 'shape', type(out))!r} {getattr(out, 'dtype', '')!r} at rank {self.rank}")
        direct_out = out.flags.c_contiguous and out.dtype == wd
        if direct_out and out is x:  # in place, the fused buckets' case: backends test `src is dst`
            src = dst = out.reshape(-1)
        else:
            if x.flags.c_contiguous and x.dtype == wd:
                src = x.reshape(-1)
            else:
                src = self._buffer("src", wd, x.size)
                np.copyto(src.reshape(x.shape), x)
            dst = out.reshape(-1) if direct_out else self._buffer("dst", wd, x.size)
            if not fresh and np.may_share_memory(src, dst):
                if src.__array_interface__["data"][0] != dst.__array_interface__["data"][0]:
                    raise ValueError(f"out overlaps x without being x at rank {self.rank}: pass out=x or a "
                                     f"separate array")
                src = dst
        self._reduce(src, dst, op, signature)
        if not direct_out:
            np.copyto(out, dst.reshape(out.shape), casting="unsafe")
        return out

    def _plan(self, shape, dtype, op):
        """Validate once per (shape, dtype, op); later calls with the same key skip straight to the data."""
        check_op(op)
        check_dtype(dtype)
        plan = self._plans[(shape, dtype, op)] = self._signature(shape, dtype, op), work_dtype(dtype)
        return plan

    def broadcast(self, x, root=0):
        """Return root's x on every rank (x must have the same shape and dtype everywhere)."""
        self._check_usable()
        self._check_root(root)
        x = np.ascontiguousarray(x)
        self._agree(x.shape, x.dtype, "broadcast")
        result = x.copy()
        req = self.comm.Ibcast(_bytes(result), root=root)
        self._wait([req], [root], "broadcast")
        return result

    def allgather(self, x):
        """Return every rank's x stacked on a new axis 0 (shape (size,) + x.shape)."""
        self._check_usable()
        x = np.ascontiguousarray(x)
        self._agree(x.shape, x.dtype, "allgather")
        result = np.empty((self.size,) + x.shape, x.dtype)
        req = self.comm.Iallgather(_bytes(x), _bytes(result))
        self._wait([req], None, "allgather")
        return result

    def allgatherv(self, x):
        """Return every rank's x concatenated along axis 0, in rank order: the first dimension may differ
        between ranks, the others and the dtype may not."""
        self._check_usable()
        x = np.ascontiguousarray(x)
        if x.ndim == 0:
            raise ValueError(f"allgatherv needs an array with a first dimension, got a scalar at rank "
                             f"{self.rank}: reshape it to (1,)")
        self._agree(x.shape[1:], x.dtype, "allgatherv")
        rows = np.empty(self.size, np.int64)
        self._wait([self.comm.Iallgather(np.array([len(x)], np.int64), rows)], None, "allgatherv")
        result = np.empty((int(rows.sum()),) + x.shape[1:], x.dtype)
        row_bytes = x.dtype.itemsize * int(np.prod(x.shape[1:], dtype=np.int64))
        counts = [int(n) * row_bytes for n in rows]
        offsets = np.concatenate([[0], np.cumsum(counts)[:-1]]).tolist()
        req = self.comm.Iallgatherv(_bytes(x), [_bytes(result), counts, offsets, MPI.BYTE])
        self._wait([req], None, "allgatherv")
        return result

    def barrier(self):
        """Return once every rank has entered the barrier."""
        self._check_usable()
        self._wait([self.comm.Ibarrier()], None, "barrier")

    def allocate_buckets(self, counts_dtypes):
        """Zeroed flat arrays, one per (count, dtype), and their in-place allreduce (FusedAllreduce's memory).
        Collective: every rank passes the same list. A backend that can reduce straight from memory it
        allocates itself (shm) overrides this, so the buckets need no copy into its buffers."""
        return Buckets(self, counts_dtypes)

    # -- what backends build on -------------------------------------------------------------------
    def _reduce(self, src, dst, op, signature):
        """Agree on shape/dtype/op, then reduce. Backends that can piggy-back the check override this."""
        if self.size > 1:
            self._rd.run(signature)
        self._allreduce(src, dst, op)

    def _allreduce(self, src, dst, op):
        raise NotImplementedError

    def _agree(self, shape, dtype, op):
        if self.size > 1:
            self._rd.run(self._signature(shape, dtype, op))

    def _signature(self, shape, dtype, op):
        """A 63-bit digest of (shape, dtype, op); equal on two ranks iff they called the same collective."""
        key = (shape, dtype.str, op)
        sig = self._signatures.get(key)
        if sig is None:
            digest = hashlib.blake2b(repr(key).encode(), digest_size=8).digest()
            sig = self._signatures[key] = int.from_bytes(digest, "little") >> 1
        return sig

    def _mismatch(self, signature):
        """Every rank lands here together when signatures differ: name the ranks and what they passed."""
        mine = next(k for k, v in self._signatures.items() if v == signature)
        everyone = self.comm.allgather(mine)
        for what, i in (("Op", 2), ("Dtype", 1), ("Shape", 0)):
            values = [key[i] for key in everyone]
            if len(set(values)) > 1:
                show = (lambda v: repr(np.dtype(v).name)) if i == 1 else repr
                others = ", ".join(f"{show(v)} at rank {r}" for r, v in enumerate(values) if v != values[0])
                raise ValueError(f"{what} does not match: {show(values[0])} at rank 0 while {others} "
                                 f"(raised at rank {self.rank}): every rank must pass the same {what.lower()}")
        raise RuntimeError(f"ranks disagree on the collective signature but not on shape/dtype/op: {everyone!r}")

    def _buffer(self, key, dtype, count):
        """A persistent flat buffer, reused by every call that needs the same (key, dtype, count)."""
        buf = self._buffers.get((key, dtype))
        if buf is None or buf.size < count:
            buf = self._buffers[(key, dtype)] = np.empty(max(count, 1), dtype)
        return buf[:count]

    def _wait(self, reqs, peers, what, recvs=0):
        """Wait for reqs, raising CollectiveTimeout past the deadline. peers[i] is the rank reqs[i] waits on
        (None when MPI does not say, as for its own collectives); the first `recvs` requests are receives,
        cancelled on timeout so a late message cannot land in memory that was handed back to the caller."""
        testall = MPI.Request.Testall
        for _ in range(self.spins):
            if testall(reqs):
                return
        deadline = time.monotonic() + self.timeout
        while not testall(reqs):
            os.sched_yield()  # on an oversubscribed node a spinning rank starves the rank it waits for
            if time.monotonic() > deadline:
                self._timeout(reqs, peers, what, recvs)

    def _timeout(self, reqs, peers, what, recvs):
        pending = [i for i, req in enumerate(reqs) if not req.Get_status()]
        if peers is None:
            culprits = [r for r in range(self.size) if r != self.rank]
            who = f"one of ranks {culprits} (MPI does not say which)"
        else:
            culprits = sorted({peers[i] for i in pending})
            who = f"rank(s) {culprits}"
        for i in pending:
            if i >= recvs:
                continue
            try:
                reqs[i].Cancel()
            except MPI.Exception:
                pass
        self._broken = f"{what} timed out at rank {self.rank} after {self.timeout:g} s waiting for {who}"
        raise CollectiveTimeout(f"{self._broken}: is a rank skipping the collective, stuck or dead? "
                                f"Raise the timeout (RINGFLOW_TIMEOUT) if it is just slow.",
                                rank=self.rank, waiting_for=culprits)

    def _check_usable(self):
        if self._broken:
            raise RuntimeError(f"this communicator is unusable since {self._broken}; create a new one")

    def _check_root(self, root):
        if not isinstance(root, (int, np.integer)) or not 0 <= root < self.size:
            raise ValueError(f"root must be a rank in [0, {self.size}), got {root!r} at rank {self.rank}")


class Buckets:
    """Plain numpy buckets: each is reduced in place by the communicator's allreduce."""

    def __init__(self, communicator, counts_dtypes):
        self.communicator = communicator
        self.arrays = [np.zeros(count, dtype) for count, dtype in counts_dtypes]

    def allreduce(self, op):
        for a in self.arrays:
            self.communicator.allreduce(a, op=op, out=a)

    def close(self):
        """Release the buckets' memory (collective where it is shared); the arrays must no longer be used."""


def _bytes(a):
    """a's memory as a flat byte buffer: MPI moves bytes, so float16 and friends need no MPI datatype."""
    return a.reshape(-1).view(np.uint8)
