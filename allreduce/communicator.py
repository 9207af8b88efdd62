"""The communicator base class: argument checks, the agreement on what every rank is reducing, waiting with a
deadline, the fused buckets' memory, and the collectives besides `allreduce`: `broadcast`, `allgather`,
`barrier`, the one variable-length allgather (`allgatherv` concatenates, `allgatherv_list` splits by rank), the
one variable-length broadcast (`broadcast_bytes`, root's bytes, their length told first), `reduce_scatter` and `alltoallv` (scatter.py), after which each rank holds different rows, and the same for
JSON values rather than arrays (`allgather_json`, `broadcast_json`: never pickles, which could run any code).

Every collective takes an optional label, `what=` ("step 7's gradient allreduce", "metric allreduce"). It is
part of the agreement, so ranks that are in different collectives are told which ("rank 1 is in step 8's
gradient allreduce while ranks 0 and 2 are in metric allreduce") rather than that some op or dtype differs,
and a timeout says what was being waited for.

Writing a backend: subclass Communicator, decorate it with `@register("name")`, and override
  - `allreduce_flat(src, dst, op, signature)` (required): the data path of `allreduce`;
  - `allocate_buckets(counts_dtypes)` (optional): FusedAllreduce's memory, for a backend that can reduce
    straight from memory it allocates itself (shm);
  - `allreduce`, `broadcast`, `allgather` (optional): only for arrays the base cannot move (nccl: CuPy arrays);
  - `reduces_on_device = True` with `allocate_device_buckets(counts_dtypes)`: a backend that reduces device
    arrays in place (nccl) declares it, and FusedAllreduce's callers then put the buckets on the device.
A backend, and a helper like rd.py, builds on these hooks, never on the base's underscored internals:
  - `begin(kind, what, shape, dtype, op) -> signature` then `agree(signature)`: the handshake every
    collective starts with (or carry the signature in the first message and call `raise_mismatch()` when
    the ranks' differ, as rd and shm do);
  - `wait(reqs, recvs)` for MPI requests; for any other wait, waiting.patiently with `watch(ready)` called
    between polls and `crowded=oversubscribed`, then `give_up()` past `timeout`: they end in CollectiveTimeout
    naming the late ranks, or in RankExited as soon as a rank the wait needs has ended its program
    (departure.py; `position()` is what a rank's exit notice says);
  - `scratch(key, dtype, count)` for reusable buffers, `check_root(root)`, and the attributes `comm` (a
    private duplicate), `rank`, `size`, `timeout`, `spins`, `oversubscribed` and `doubling` (rd.py's
    recursive doubling, which carries the agreement and, up to `doubling.capacity` bytes, a payload).
"""
import hashlib
import json

import numpy as np
from mpi4py import MPI

from . import abort, departure, diagnosis, rd, scatter, sentinel, topology, torchrun
from .buckets import Buckets
from .diagnosis import label
from .errors import CollectiveTimeout
from .ops import check_dtype, check_op, work_dtype
from .waiting import grace_for, patiently, ranks_text, resolve_timeout, roll_call

# polls (~0.3 us each) before each further poll also yields the core: latency first, then fairness; with more
# ranks than cores, yield at once (measured: 16 spins save ~0.5 us at 2 ranks, cost ~5 us at 4 ranks on 2 cores)
SPINS = 16
MAX_CACHED = 256  # plans and signatures kept: labels that count steps would otherwise grow them forever


class Communicator:
    """Collectives between the ranks of an MPI communicator (duplicated, so user messages never mix in)."""

    name = None
    reduces_on_device = False  # a capability: True where allocate_device_buckets gives device buckets (nccl)

    def __init__(self, comm=None, timeout=None):
        torchrun.check(MPI.COMM_WORLD.Get_size())  # torchrun's processes are MPI worlds of one each
        self.timeout = resolve_timeout(timeout)
        comm = MPI.COMM_WORLD if comm is None else comm
        self._broken = None
        self._current, self._calls = (f"creating a {self.name!r} communicator", (), "", ""), 0
        if comm.Get_size() > 1:
            abort.install()
            self._arrive(comm)
        self.comm = comm.Dup()
        self.rank, self.size = self.comm.Get_rank(), self.comm.Get_size()
        self.departures = departure.Watch(self.comm)
        if self.size > 1:
            departure.track(self)
        self._buffers = {}
        self._signatures, self._plans = {}, {}
        node = self.comm.Split_type(MPI.COMM_TYPE_SHARED)
        if 1 < self.size == MPI.COMM_WORLD.Get_size():  # every rank is here: a rank killed on a node is named
            sentinel.watch(node, MPI.COMM_WORLD.Get_rank())
        crowded = node.Get_size() > topology.node_cores(node)  # affinity, not os.cpu_count(): cpusets, binding
        node.Free()
        # more ranks than cores on some node: decided together, since algorithm choices must match
        self.oversubscribed = self.comm.allreduce(crowded, op=MPI.LOR)
        self.spins = 0 if self.oversubscribed else SPINS
        capacity = rd.CAPACITY * (rd.OVERSUBSCRIBED_FACTOR if self.oversubscribed else 1)
        self.doubling = rd.RecursiveDoubling(self, capacity)

    def _arrive(self, comm):
        """Wait, with the timeout, until every rank is creating the communicator: the setup after this blocks."""
        req = comm.Ibarrier()
        if not patiently(req.Test, SPINS, self.timeout):
            rank, what = comm.Get_rank(), self._current[0]
            self._broken = f"{what} timed out at rank {rank} after {self.timeout:g} s"
            abort.abandoned(what)
            others = [q for q in range(comm.Get_size()) if q != rank]
            raise CollectiveTimeout(f"{self._broken}: one of {ranks_text(others)} has not called "
                                    f"create_communicator (MPI does not say which): is it stuck or dead?",
                                    rank=rank, waiting_for=others, what=what)

    def __repr__(self):
        return f"<{type(self).__name__} {self.name!r} rank {self.rank} of {self.size}>"

    # -- the public collectives (what=: a label naming the collective in errors, the same on every rank) ---
    def allreduce(self, x, op="sum", out=None, what=None):
        """Reduce x over all ranks with op ("sum", "mean", "max", "min"); every rank gets the same bytes."""
        if self._broken:
            self._check_usable()
        if type(x) is not np.ndarray:
            x = np.asarray(x)
        try:
            plan = self._plans.get((x.shape, x.dtype, op, what))
        except TypeError:  # an unhashable what=: _plan says so
            plan = None
        if plan is None:
            plan = self._plan(x.shape, x.dtype, op, what)
        signature, wd, self._current = plan
        self._calls += 1
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
                src = self.scratch("src", wd, x.size)
                np.copyto(src.reshape(x.shape), x)
            dst = out.reshape(-1) if direct_out else self.scratch("dst", wd, x.size)
            if not fresh and np.may_share_memory(src, dst):
                if src.__array_interface__["data"][0] != dst.__array_interface__["data"][0]:
                    raise ValueError(f"out overlaps x without being x at rank {self.rank}: pass out=x or a "
                                     f"separate array")
                src = dst
        self.allreduce_flat(src, dst, op, signature)
        if not direct_out:
            np.copyto(out, dst.reshape(out.shape), casting="unsafe")
        return out

    def _plan(self, shape, dtype, op, what):
        """Validate once per (shape, dtype, op, what); later calls with the same key skip straight to the data."""
        check_op(op)
        check_dtype(dtype)
        key = (label(what, "allreduce"), shape, dtype.str, op)
        if len(self._plans) >= MAX_CACHED:
            self._plans.clear()
        plan = self._plans[(shape, dtype, op, what)] = self._signature(key), work_dtype(dtype), key
        return plan

    def broadcast(self, x, root=0, what=None):
        """Return root's x on every rank (x must have the same shape and dtype everywhere)."""
        self.check_root(root)
        x = np.ascontiguousarray(x)
        self.agree(self.begin("broadcast", what, x.shape, x.dtype, int(root)))  # ranks naming two roots would hang
        result = x.copy()
        self.wait([self.comm.Ibcast(_bytes(result), root=root)])
        return result

    def allgather(self, x, what=None):
        """Return every rank's x stacked on a new axis 0 (shape (size,) + x.shape)."""
        x = np.ascontiguousarray(x)
        self.agree(self.begin("allgather", what, x.shape, x.dtype))
        result = np.empty((self.size,) + x.shape, x.dtype)
        self.wait([self.comm.Iallgather(_bytes(x), _bytes(result))])
        return result

    def allgatherv(self, x, what=None):
        """Return every rank's x concatenated along axis 0, in rank order: the first dimension may differ
        between ranks, the others and the dtype may not."""
        return self._allgatherv(x, what)[0]

    def allgatherv_list(self, x, what=None):
        """Return every rank's x as a list in rank order (allgatherv, split back into the ranks' arrays)."""
        result, rows = self._allgatherv(x, what)
        return np.split(result, np.cumsum(rows)[:-1])

    def _allgatherv(self, x, what):
        """The variable-length allgather, once: exchange the row counts, then the rows; (result, rows)."""
        if np.ndim(x) == 0:  # before ascontiguousarray, which would make it shape (1,)
            raise ValueError(f"allgatherv needs an array with a first dimension, got a scalar at rank "
                             f"{self.rank}: reshape it to (1,)")
        x = np.ascontiguousarray(x)
        self.agree(self.begin("allgatherv", what, x.shape[1:], x.dtype))
        rows = np.empty(self.size, np.int64)
        self.wait([self.comm.Iallgather(np.array([len(x)], np.int64), rows)])
        result = np.empty((int(rows.sum()),) + x.shape[1:], x.dtype)
        row_bytes = x.dtype.itemsize * int(np.prod(x.shape[1:], dtype=np.int64))
        counts = [int(n) * row_bytes for n in rows]
        offsets = np.concatenate([[0], np.cumsum(counts)[:-1]]).tolist()
        self.wait([self.comm.Iallgatherv(_bytes(x), [_bytes(result), counts, offsets, MPI.BYTE])])
        return result, rows

    def allgather_json(self, obj, what=None):
        """Return every rank's JSON-able obj (nested dicts, lists, strings, numbers) as a list in rank order."""
        if self.size == 1:
            return [obj]
        return [json.loads(part.tobytes()) for part in self.allgatherv_list(_json_bytes(obj), what=what)]

    def broadcast_json(self, obj, root=0, what=None):
        """Return root's JSON-able obj on every rank (the other ranks' obj is ignored)."""
        self.check_root(root)
        if self.size == 1:
            return obj
        return json.loads(self.broadcast_bytes(_json_bytes(obj) if self.rank == root else None, root, what).tobytes())

    def broadcast_bytes(self, data, root=0, what=None):
        """Return root's 1-D uint8 array `data` on every rank, its length told first (the other ranks' data is
        ignored and may be None)."""
        self.check_root(root)
        data = np.frombuffer(bytes(data), np.uint8) if self.rank == root else None
        length = self.broadcast(np.array([0 if data is None else data.size], np.int64), root, what=what)[0]
        return self.broadcast(data if data is not None else np.zeros(int(length), np.uint8), root, what=what)

    def reduce_scatter(self, x, op="sum", what=None):
        """Reduce x over all ranks with op, then return this rank's rows (the first len(x) % size get one more)."""
        return scatter.reduce_scatter(self, x, op, what)

    def alltoallv(self, x, splits=None, what=None):
        """Send splits[q] rows of x to rank q (None: equal shares); return (rows received, count from each rank)."""
        return scatter.alltoallv(self, x, splits, what)

    def barrier(self, what=None):
        """Return once every rank has entered the barrier."""
        self.agree(self.begin("barrier", what))  # the agreement hears from every rank: it is a barrier

    # -- override points (module docstring: "Writing a backend") -------------------------------------
    def allreduce_flat(self, src, dst, op, signature):
        """allreduce's data path, called once the arguments are checked: reduce the flat, contiguous src over
        all ranks into dst (of src's work dtype; `dst is src` for in-place calls), at any size including 1.
        First make sure every rank passed the same signature: `self.agree(signature)`, or carry it in the
        first message. Every rank must end with the same bytes; "mean" divides with ops.finish_mean."""
        raise NotImplementedError(f"the {self.name!r} backend ({type(self).__name__}) does not define "
                                  f"allreduce_flat(src, dst, op, signature), the one method a backend must write")

    def allocate_buckets(self, counts_dtypes):
        """Zeroed flat arrays, one per (count, dtype), and their in-place allreduce (FusedAllreduce's memory).
        Collective: every rank passes the same list. A backend that can reduce straight from memory it
        allocates itself (shm) overrides this, so the buckets need no copy into its buffers."""
        return Buckets(self, counts_dtypes)

    # -- hooks for backends and helpers --------------------------------------------------------------
    def begin(self, kind, what, shape=(), dtype=np.uint8, op=None):
        """Start a collective of this kind: check the communicator is usable, remember what the collective
        is (for errors and timeouts) and return its signature, the value every rank must agree on."""
        self._check_usable()
        self._current = key = (label(what, kind), tuple(shape), np.dtype(dtype).str, kind if op is None else op)
        self._calls += 1
        return self._signature(key)

    def agree(self, signature):
        """The handshake: return once every rank has passed the same signature; raise on every rank if not."""
        if self.size > 1:
            self.doubling.run(signature)

    def raise_mismatch(self):
        """Every rank calls this together once it learns the signatures differ: name the ranks and what they
        called, and raise CollectiveMismatch (a ValueError)."""
        raise diagnosis.mismatch(self.comm.allgather(self._current), self.rank)

    def wait(self, reqs, recvs=0):
        """Wait for the MPI requests reqs, giving up past the timeout. The first `recvs` requests are receives,
        cancelled on timeout so a late message cannot land in memory that was handed back to the caller."""
        testall = MPI.Request.Testall
        for _ in range(self.spins):
            if testall(reqs):
                return
        ready = lambda: testall(reqs)  # noqa: E731
        if not patiently(ready, 0, self.timeout, lambda: self.watch(ready), crowded=self.oversubscribed):
            for req in reqs[:recvs]:
                if not req.Get_status():
                    try:
                        req.Cancel()
                    except MPI.Exception:
                        pass
            self.give_up()

    def watch(self, ready):
        """Called while a wait is not ready: raise RankExited if a rank of this communicator has ended its
        program and ready() stays false through departure.GRACE_S (its last messages may still be arriving)."""
        notices = self.departures.check()
        if not notices or self.departures.grace(ready, self.oversubscribed):
            return
        self._broken, error = diagnosis.departed(self.rank, self.position(), notices)
        raise error

    def position(self):
        """(how many collectives this rank began here, the label of the last): what its exit notice says."""
        return self._calls, self._current[0]

    def give_up(self):
        """Stop waiting for the collective in progress: learn from the other ranks which of them are late,
        leave this communicator unusable and raise CollectiveTimeout (through the job's abort, if uncaught)."""
        mine = self.position()
        answers, self._roll_sends = roll_call(self.comm, mine, grace_for(self.timeout))
        self._broken, error = diagnosis.timed_out(self.rank, self.size, self.timeout, mine, answers)
        abort.abandoned(mine[1])
        raise error

    def scratch(self, key, dtype, count):
        """A persistent flat buffer, reused by every call that asks for the same (key, dtype); count elements."""
        buf = self._buffers.get((key, dtype))
        if buf is None or buf.size < count:
            buf = self._buffers[(key, dtype)] = np.empty(max(count, 1), dtype)
        return buf[:count]

    def check_root(self, root):
        """Raise ValueError unless root is a rank of this communicator."""
        if not isinstance(root, (int, np.integer)) or not 0 <= root < self.size:
            raise ValueError(f"root must be a rank in [0, {self.size}), got {root!r} at rank {self.rank}")

    # -- internals ---------------------------------------------------------------------------------------
    def _signature(self, key):
        """A 63-bit digest of (label, shape, dtype, op); equal on two ranks iff they called the same collective."""
        sig = self._signatures.get(key)
        if sig is None:
            if len(self._signatures) >= MAX_CACHED:
                self._signatures.clear()
            digest = hashlib.blake2b(repr(key).encode(), digest_size=8).digest()
            sig = self._signatures[key] = int.from_bytes(digest, "little") >> 1
        return sig

    def _check_usable(self):
        if self._broken:
            raise RuntimeError(f"this communicator is unusable since {self._broken}; create a new one")


def _json_bytes(obj):
    return np.frombuffer(json.dumps(obj).encode(), np.uint8)


def _bytes(a):
    """a's memory as a flat byte buffer: MPI moves bytes, so float16 and friends need no MPI datatype."""
    return a.reshape(-1).view(np.uint8)
