"""The collectives after which each rank holds different rows: `reduce_scatter` and `alltoallv`.

Both run on the communicator's private comm through its public hooks (begin/agree/wait), so a rank that is
late, gone or in another collective is named as it is for allreduce. Rows are dimension 0; the other
dimensions and the dtype must match on every rank.

reduce_scatter splits the N rows as Horovod does: every rank gets N // size rows and the first N % size ranks
one more (N = 5 over 3 ranks: rows 0-1, 2-3, 4). alltoallv first exchanges every rank's row count and splits
(size + 2 integers each), so that every rank checks every rank's splits and raises the same ValueError naming
the culprit, instead of one rank raising alone while the others wait for it.
"""
import numpy as np
from mpi4py import MPI

from .diagnosis import label
from .ops import MPI_OPS, check_op, finish_mean, work_dtype

EVEN, NOT_INTS = -1, -2  # what a rank sends in place of its number of splits: none given, or not integers


def shares(rows, size):
    """How many of `rows` rows each rank keeps after reduce_scatter: the first rows % size ranks one more."""
    return [rows // size + (1 if q < rows % size else 0) for q in range(size)]


def reduce_scatter(c, x, op, what):
    """Reduce x over all ranks of communicator c, then return this rank's rows (see `shares`)."""
    check_op(op)
    if np.ndim(x) == 0:
        raise ValueError(f"reduce_scatter needs an array with a first dimension, got a scalar at rank {c.rank}: "
                         f"reshape it to (1,)")
    x = np.asarray(x)
    if x.dtype.kind not in "fiu":
        raise ValueError(f"Cannot reduce_scatter dtype {x.dtype!r} at rank {c.rank}: only float and integer "
                         f"arrays can be reduced (cast it first)")
    signature = c.begin("reduce_scatter", what, x.shape, x.dtype, op)
    c.agree(signature)  # the whole shape: every rank must split the same rows the same way
    wd = work_dtype(x.dtype)  # MPI has no float16: it is summed in float32, as allreduce does
    src = np.ascontiguousarray(x, wd)
    row = int(np.prod(x.shape[1:], dtype=np.int64))
    rows = shares(x.shape[0], c.size)
    out = np.empty((rows[c.rank],) + x.shape[1:], wd)
    c.wait([c.comm.Ireduce_scatter(src.reshape(-1), out.reshape(-1), [n * row for n in rows], MPI_OPS[op])])
    if op == "mean":
        finish_mean(out, c.size)
    return out.astype(x.dtype, copy=False)


def alltoallv(c, x, splits, what):
    """Send splits[q] consecutive rows of x to rank q (splits None: x.shape[0] // size rows to each, which must
    divide evenly, as in Horovod); return (the rows received, in rank order; how many came from each rank)."""
    if np.ndim(x) == 0:
        raise ValueError(f"alltoall needs an array with a first dimension, got a scalar at rank {c.rank}: "
                         f"reshape it to (1,)")
    x = np.ascontiguousarray(x)
    c.agree(c.begin("alltoallv", what, x.shape[1:], x.dtype))
    mine = np.zeros(c.size + 2, np.int64)
    mine[0], mine[1] = len(x), _encode(splits, c.size, mine[2:])
    table = np.empty((c.size, c.size + 2), np.int64)
    c.wait([c.comm.Iallgather(mine, table)])
    problems = [p for q in range(c.size) for p in _problems(q, table[q], c.size)]
    if problems:
        raise ValueError(f"Bad splits in {label(what, 'alltoallv')}: {'; '.join(problems)} (raised at rank "
                         f"{c.rank}): splits need one entry per rank ({c.size}), none negative, summing to the "
                         f"tensor's rows in dimension 0")
    send = table[c.rank, 2:] if table[c.rank, 1] != EVEN else np.full(c.size, len(x) // c.size, np.int64)
    received = np.array([table[q, 2 + c.rank] if table[q, 1] != EVEN else table[q, 0] // c.size
                         for q in range(c.size)], np.int64)
    out = np.empty((int(received.sum()),) + x.shape[1:], x.dtype)
    row_bytes = x.dtype.itemsize * int(np.prod(x.shape[1:], dtype=np.int64))
    c.wait([c.comm.Ialltoallv(_counted(x, send, row_bytes), _counted(out, received, row_bytes))])
    return out, received


def _encode(splits, size, into):
    """Write splits into `into` (when there are `size` of them); return what the others learn of their number."""
    if splits is None:
        return EVEN
    splits = np.asarray(splits)
    if splits.ndim != 1 or (splits.size and splits.dtype.kind not in "iu"):
        return NOT_INTS
    if len(splits) == size:
        into[:] = splits
    return len(splits)


def _problems(q, row, size):
    """What is wrong with rank q's splits, from its row of the table: [rows, number of splits, splits...]."""
    rows, n, splits = int(row[0]), int(row[1]), row[2:].tolist()
    if n == EVEN:
        return [] if rows % size == 0 else [f"rank {q} gave no splits but its {rows} rows do not divide evenly "
                                            f"among {size} ranks: pass splits"]
    if n == NOT_INTS:
        return [f"rank {q} gave splits that are not a 1-D sequence of integers"]
    if n != size:
        return [f"rank {q} gave {n} splits for {size} ranks"]
    if min(splits) < 0:
        return [f"rank {q} gave splits {splits!r} with a negative entry"]
    if sum(splits) != rows:
        return [f"rank {q} gave splits {splits!r} that sum to {sum(splits)}, not to its {rows} rows"]
    return []


def _counted(a, rows, row_bytes):
    """a's bytes with per-rank counts and offsets, as Alltoallv takes them: MPI moves bytes, any dtype goes."""
    counts = [int(n) * row_bytes for n in rows]
    offsets = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64).tolist()
    return [a.reshape(-1).view(np.uint8), counts, offsets, MPI.BYTE]
