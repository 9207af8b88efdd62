"""Horovod's words for ranks that disagree (trainer/horovod/negotiation.py), from made-up signatures: no MPI needed.
The ranks themselves disagreeing: tests/mpi/test_horovod_negotiation.py."""
import numpy as np
import pytest

import trainer as tg
from allreduce import CollectiveMismatch
from trainer.horovod.negotiation import mismatch, negotiated

F32, I32 = np.dtype(np.float32).str, np.dtype(np.int32).str


def told(kind, *signatures):
    with tg.Graph().as_default():
        op = tg.constant(1.0, name="x").op
    return mismatch(kind, op, CollectiveMismatch("the communicator's words", signatures, rank=1))


@pytest.mark.parametrize("kind, signatures, expected", [
    ("allreduce", [("a", (17,) * 3, F32, "sum"), ("a", (18,) * 3, F32, "sum")],
     "Mismatched allreduce tensor shapes: rank 0 sent a tensor of shape [17, 17, 17], but rank 1 sent a tensor of "
     "shape [18, 18, 18] (raised at rank 1, in Const op 'x'); every rank must pass the same shape"),
    ("allreduce", [("a", (4,), F32, "sum"), ("a", (5,), F32, "sum"), ("a", (4,), I32, "max")],
     "Mismatched data types: rank 0 had type float32, but rank 2 had type int32"),
    ("allreduce", [("a", (4,), F32, "sum"), ("a", (4,), F32, "mean")],
     "Mismatched allreduce reduce ops: rank 0 asked for 'sum', but rank 1 for 'mean'"),
    ("broadcast", [("a", (4,), F32, 0), ("a", (5,), F32, 1)],
     "Mismatched broadcast root ranks: rank 0 specified root rank 0, but rank 1 specified root rank 1"),
    ("allgather", [("a", (17,), F32, "allgatherv"), ("a", (17, 18), F32, "allgatherv")],
     "Mismatched allgather tensor shapes: rank 0 sent a tensor of rank 2, but rank 1 sent a tensor of rank 3"),
    ("alltoall", [("a", (3, 17), F32, "alltoallv"), ("a", (3, 18), F32, "alltoallv")],
     "Mismatched alltoall tensor shapes: rank 0 sent a tensor with dimension 2 equal to 17, but rank 1 sent a tensor "
     "with dimension 2 equal to 18"),
    ("allreduce", [("hvd.allreduce 'a'", (4,), F32, "sum"), ("hvd.allgather 'b'", (4,), F32, "sum")],
     "Mismatched collectives: the communicator's words"),
])
def test_the_first_disagreement_in_horovods_order_names_the_ranks(kind, signatures, expected):
    assert told(kind, *signatures).startswith(expected)


def test_a_mismatch_becomes_a_failed_precondition_chained_to_the_communicators_error():
    with tg.Graph().as_default():
        op = tg.constant(1.0, name="y").op
    cause = CollectiveMismatch("words", [("a", (1,), F32, "sum"), ("a", (2,), F32, "sum")], rank=0)

    def collective(x):
        raise cause
    with pytest.raises(tg.errors.FailedPreconditionError, match=r"shape \[1\], but rank 1") as caught:
        negotiated("allreduce", op, collective, 1.0)
    assert caught.value.op is op and caught.value.node_def.name == "y" and caught.value.__cause__ is cause
    assert negotiated("allreduce", op, lambda x: x + 1, 1.0) == 2.0
