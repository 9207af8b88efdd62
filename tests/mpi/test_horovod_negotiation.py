"""Ranks that disagree on a Horovod collective (trainer/horovod/negotiation.py) under mpiexec -n N: every rank raises
FailedPreconditionError at once, naming the ranks and their values, and the next matching collective works.

Each rank passes something of its own on purpose (Horovod's `dims = [17 + rank] * 3`); with one rank there is
nobody to disagree with, so these run at N > 1 only.
"""
import time

import numpy as np
import pytest
from mpi4py import MPI

import trainer as tg
import trainer.horovod as hvd
from tests.mpi.horovod_fixtures import backend, fresh_graph  # noqa: F401  (pytest fixtures, autouse)

WORLD = MPI.COMM_WORLD
RANK, SIZE = WORLD.Get_rank(), WORLD.Get_size()
ROOT = SIZE - 1
AT_ONCE_S = 30  # far below RINGFLOW_TIMEOUT (300 s): the ranks must not wait for each other to give up

pytestmark = pytest.mark.skipif(SIZE == 1, reason="one rank always agrees with itself")


def run(fetches):
    with tg.Session() as sess:
        return sess.run(fetches)


def refused(fetches, message):
    """Run fetches, which the ranks disagree on: every rank raises FailedPreconditionError matching message, soon."""
    start = time.perf_counter()
    with pytest.raises(tg.errors.FailedPreconditionError, match=message) as caught:
        run(fetches)
    assert time.perf_counter() - start < AT_ONCE_S
    assert caught.value.op is fetches.op and caught.value.node_def.name == fetches.op.name
    return caught.value


def test_allreduce_of_different_shapes_then_of_the_same():
    error = refused(hvd.allreduce(tg.constant(np.ones([17 + RANK] * 3))),
                    r"Mismatched allreduce tensor shapes: rank 0 sent a tensor of shape \[17, 17, 17\], but rank 1 "
                    r"sent a tensor of shape \[18, 18, 18\] \(raised at rank \d, in HorovodAllreduce op "
                    r"'HorovodAllreduce'\)")
    assert f"raised at rank {RANK}" in error.message
    got = run(hvd.allreduce(tg.constant(np.full([17] * 3, float(RANK))), op=hvd.Sum))
    np.testing.assert_array_equal(got, np.full([17] * 3, SIZE * (SIZE - 1) / 2))


def test_allreduce_of_different_dtypes_or_ops_then_a_matching_one():
    dtype = np.float32 if RANK == 0 else np.int32
    refused(hvd.allreduce(tg.constant(np.ones(3, dtype))),
            "Mismatched data types: rank 0 had type float32, but rank 1 had type int32")
    refused(hvd.allreduce(tg.constant(np.ones(3)), op=hvd.Sum if RANK == 0 else hvd.Max),
            "Mismatched allreduce reduce ops: rank 0 asked for 'sum', but rank 1 for 'max'")
    np.testing.assert_array_equal(run(hvd.allreduce(tg.constant(np.ones(3, np.int32)), op=hvd.Max)), [1, 1, 1])


def test_broadcast_from_different_roots_or_of_different_shapes_then_a_matching_one():
    refused(hvd.broadcast(tg.constant(np.ones(3)), root_rank=RANK),
            "Mismatched broadcast root ranks: rank 0 specified root rank 0, but rank 1 specified root rank 1")
    refused(hvd.broadcast(tg.constant(np.ones([17 + RANK] * 3)), root_rank=ROOT),
            r"Mismatched broadcast tensor shapes: rank 0 sent a tensor of shape \[17, 17, 17\], but rank 1 sent a "
            r"tensor of shape \[18, 18, 18\]")
    got = run(hvd.broadcast(tg.constant(np.full([17] * 3, float(RANK))), root_rank=ROOT))
    np.testing.assert_array_equal(got, np.full([17] * 3, float(ROOT)))


def test_allgather_of_different_trailing_dims_ranks_or_dtypes_then_a_matching_one():
    refused(hvd.allgather(tg.constant(np.ones([2] + [17 + RANK] * 2))),
            "Mismatched allgather tensor shapes: rank 0 sent a tensor with dimension 1 equal to 17, but rank 1 sent a "
            "tensor with dimension 1 equal to 18")
    refused(hvd.allgather(tg.constant(np.ones([2] * (2 + RANK)))),
            "Mismatched allgather tensor shapes: rank 0 sent a tensor of rank 2, but rank 1 sent a tensor of rank 3")
    refused(hvd.allgather(tg.constant(np.ones(2, np.float64 if RANK == 0 else np.float32))),
            "Mismatched data types: rank 0 had type float64, but rank 1 had type float32")
    got = run(hvd.allgather(tg.constant(np.full((17 + RANK, 2), RANK))))  # first dimensions may differ
    np.testing.assert_array_equal(got, np.concatenate([np.full((17 + r, 2), r) for r in range(SIZE)]))


@pytest.mark.skipif(SIZE != 2, reason="two ranks in different kinds of collective find each other; with more, the "
                                      "ranks outside the pair wait for the timeout")
def test_a_rank_in_a_broadcast_while_the_other_is_in_the_gradient_allreduce_then_both_in_the_same():
    """shm agrees on the fused gradient allreduce in shared memory and on a broadcast by MPI messages: a rank in
    each must still not wait for ever (Horovod's coordinator would report the mismatch at once)."""
    v = tg.Variable(np.full(3, float(RANK), np.float32))
    train = hvd.DistributedOptimizer(tg.train.GradientDescentOptimizer(0.5)).minimize(tg.reduce_sum(v * v))
    sync = hvd.broadcast_global_variables(ROOT)
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        sess.run(train)
        start = time.perf_counter()
        with pytest.raises(tg.errors.FailedPreconditionError, match=r"Ranks are in different collectives: rank "
                           r"\d is in (a broadcast|step \d+'s gradient allreduce)( \(its collective #\d+\))? while"):
            sess.run(sync if RANK == 0 else train)
        assert time.perf_counter() - start < AT_ONCE_S
        sess.run(sync)
        sess.run(train)  # the mean gradient of v = ROOT's value, alike on every rank
        np.testing.assert_array_equal(sess.run(v), np.zeros(3, np.float32))
