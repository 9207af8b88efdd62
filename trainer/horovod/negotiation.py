"""Horovod's checks before a collective moves data (its coordinator's, horovod/common/controller.cc): every rank
must pass the same dtype, reduce op, shape (for allgather and alltoall, all but the first dimension) and, for a
broadcast, root rank; if not, every rank raises tg.errors.FailedPreconditionError at once, naming the ranks and
their values, and the next matching collective works.

They cost no message of their own: the handshake every collective of the communicator starts with already
exchanges a digest of exactly these (label, shape, dtype, op or root rank), and only when the digests differ do
the ranks exchange the values themselves (allreduce.CollectiveMismatch carries them). So DistributedOptimizer's
fused gradients, whose shapes are static and the same on every rank by construction, pay nothing for them.
"""
import numpy as np

from allreduce.errors import CollectiveMismatch
from ..platform.errors import FailedPreconditionError

FIRST_DIMENSION_FREE = ("allgather", "alltoall")  # their handshakes agree on shape[1:] (Horovod's rule too)


def negotiated(kind, op, collective, *args):
    """collective(*args), Horovod's `kind` of collective run by graph op `op`; ranks that disagree raise
    FailedPreconditionError with Horovod's words, chained to the communicator's CollectiveMismatch."""
    try:
        return collective(*args)
    except CollectiveMismatch as exc:
        raise FailedPreconditionError(op.node_def, op, mismatch(kind, op, exc)) from exc


def mismatch(kind, op, exc):
    """The message for `exc`: the first thing the ranks disagree on, in Horovod's order, rank 0's value against
    the first rank's that differs."""
    calls = exc.signatures
    if len({call[0] for call in calls}) > 1:
        return f"Mismatched collectives: {exc}"
    i = next((i for i in (2, 3, 1) if len({call[i] for call in calls}) > 1), None)  # dtype, op or root, shape
    if i is None:  # only the digests differ: the communicator's words say so
        return str(exc)
    r = next(r for r, call in enumerate(calls) if call[i] != calls[0][i])
    said, what = _disagreement(kind, i, calls[0][i], r, calls[r][i])
    return f"{said} (raised at rank {exc.rank}, in {op.type} op {op.name!r}); every rank must pass the same {what}"


def _disagreement(kind, i, a, r, b):
    """(Horovod's sentence for rank 0's `a` against rank r's `b` in field i of the signature, what must match)."""
    if i == 2:
        return (f"Mismatched data types: rank 0 had type {np.dtype(a).name}, but rank {r} had type "
                f"{np.dtype(b).name}"), "dtype"
    if i == 3 and kind == "broadcast":
        return (f"Mismatched broadcast root ranks: rank 0 specified root rank {a}, but rank {r} specified root rank "
                f"{b}"), "root_rank"
    if i == 3:
        return f"Mismatched {kind} reduce ops: rank 0 asked for {a!r}, but rank {r} for {b!r}", "op"
    head = f"Mismatched {kind} tensor shapes: rank 0 sent a tensor"
    if kind not in FIRST_DIMENSION_FREE:
        return f"{head} of shape {list(a)}, but rank {r} sent a tensor of shape {list(b)}", "shape"
    if len(a) != len(b):  # the handshake compared shape[1:]
        return (f"{head} of rank {len(a) + 1}, but rank {r} sent a tensor of rank {len(b) + 1}",
                "rank (only the first dimension may differ)")
    d = next(d for d in range(len(a)) if a[d] != b[d])
    return (f"{head} with dimension {d + 1} equal to {a[d]}, but rank {r} sent a tensor with dimension {d + 1} "
            f"equal to {b[d]}"), "dimensions but the first"
