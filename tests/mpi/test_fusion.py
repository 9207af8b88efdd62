"""FusedAllreduce at the current world size: on "shm" its buckets live in shared memory and are reduced in
place, on the other backends they are numpy arrays reduced with allreduce(out=). Oracles: MPI_Allreduce per
bucket (integer-valued data, so exact in any order), and shm's documented order, rank 0 + rank 1 + ...,
folded here from the gathered inputs."""
import os
import time

import numpy as np
import pytest
from mpi4py import MPI

import allreduce

os.environ.setdefault("RINGFLOW_TIMEOUT", "60")
WORLD = MPI.COMM_WORLD
RANK, N = WORLD.rank, WORLD.size
OPS = ["sum", "mean", "max", "min"]
LAYOUTS = {
    "many small": [((3, 4), np.float32), ((5,), np.float32), ((), np.float32), ((7, 1), np.float32)] * 25,
    "one larger than a bucket": [((9,), np.float32), ((70_001,), np.float32), ((300, 1001), np.float32)],
    "several dtypes": [((2000,), np.float64), ((33,), np.int32), ((30_000,), np.float16), ((17,), np.uint8),
                       ((5, 5), np.int8), ((40_000,), np.float32), ((3,), np.int64), ((9,), np.float64)],
    "zero-size": [((0,), np.float32), ((4, 0), np.int64), ((N - 1,), np.float32), ((0,), np.float32)],
}


@pytest.fixture(scope="module", params=["shm", "ring", "mpi"])
def comm(request):
    return allreduce.create_communicator(request.param)


@pytest.fixture(scope="module")
def reference():
    return allreduce.create_communicator("mpi")


def integers(rng, dtype, shape):
    """Rank-dependent integer values whose sums over 4 ranks fit every dtype exactly."""
    low = 0 if np.dtype(dtype).kind == "u" else -20
    return rng.integers(low, 30, size=shape).astype(dtype)


def same_on_all_ranks(a):
    everyone = WORLD.allgather(a.tobytes())
    return all(b == everyone[0] for b in everyone)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_matches_mpi_allreduce_per_bucket(comm, reference, layout):
    fused = allreduce.FusedAllreduce(comm, LAYOUTS[layout], bucket_bytes=4096)
    rng = np.random.default_rng(100 + RANK)
    try:
        for op in OPS * 2:  # twice: the second round reuses buckets that held a result
            for view in fused.views:
                view[...] = integers(rng, view.dtype, view.shape)
            want = [reference.allreduce(b, op=op) for b in fused.buckets]
            assert fused.allreduce(op=op) is fused.views
            for i, (got, expect) in enumerate(zip(fused.buckets, want)):
                assert got.tobytes() == expect.tobytes(), f"{comm.name} {layout} {op} bucket {i} {got.dtype}"
                assert same_on_all_ranks(got)
    finally:
        fused.close()


def test_shm_sums_in_rank_order_bitwise():
    """Random floats: the result is bitwise (((x0 op x1) op x2) ...) over the ranks, float16 summed in float32."""
    c = allreduce.create_communicator("shm")
    c.fused_piece_bytes = 96 * 1024  # several pieces per bucket, the last one small
    layout = [((70_003,), np.float32), ((30_001,), np.float64), ((20_000,), np.float16), ((11,), np.float32)]
    fused = allreduce.FusedAllreduce(c, layout, bucket_bytes=2**20)
    rng = np.random.default_rng(7 + RANK)
    for op in OPS:
        for view in fused.views:
            view[...] = rng.standard_normal(view.shape) * 100
        inputs = [WORLD.allgather(b.copy()) for b in fused.buckets]
        fused.allreduce(op=op)
        ufunc = {"sum": np.add, "mean": np.add, "max": np.maximum, "min": np.minimum}[op]
        for got, every in zip(fused.buckets, inputs):
            wide = np.float32 if got.dtype == np.float16 else got.dtype.type
            acc = every[0].astype(wide)
            for x in every[1:]:
                acc = ufunc(acc, x.astype(wide))
            if op == "mean":
                acc = acc / wide(N)
            assert got.tobytes() == acc.astype(got.dtype).tobytes(), f"{op} {got.dtype}"
    fused.close()


def test_repeated_steps_never_read_a_rewritten_bucket():
    """The rank that returns first rewrites its bucket at once, its own slice (the one the peers copy from it)
    first, while the others check their result and sleep a little: without the barrier that ends the call, a
    peer still copying from that bucket would mix the next step's values into its result."""
    c = allreduce.create_communicator("shm")
    c.fused_piece_bytes = 2**24  # one piece: the peers' copy is a whole slice, long enough to race with
    fused = allreduce.FusedAllreduce(c, [((2**19,), np.float64)])
    bucket, rng, size = fused.buckets[0], np.random.default_rng(RANK), 2**19
    mine = slice(RANK * size // N, (RANK + 1) * size // N)
    for step in range(24):
        if RANK != step % N or step == 0:
            time.sleep(rng.uniform(0, 2e-4))
            bucket[...] = step * N + RANK
        fused.allreduce(op="sum")
        want = step * N * N + N * (N - 1) / 2  # the sum over r of step * N + r
        if RANK == (step + 1) % N:  # next step's fast rank: a glance at the result, then rewrite at once
            assert bucket[0] == want and bucket[-1] == want, f"step {step}"
            bucket[mine] = (step + 1) * N + RANK
            bucket[...] = (step + 1) * N + RANK
        else:
            np.testing.assert_array_equal(bucket, want, err_msg=f"step {step}")
    fused.close()


@pytest.mark.skipif(N == 1, reason="one rank cannot disagree with itself")
def test_different_layouts_raise_on_every_rank():
    c = allreduce.create_communicator("shm")
    fused = allreduce.FusedAllreduce(c, [((10 + RANK,), np.float32), ((3,), np.float64)])
    with pytest.raises(ValueError, match=r"Shape does not match: \(10, 3\) at rank 0 while \(11, 3\) at rank 1"):
        fused.allreduce(op="sum")
    fused.close()
    np.testing.assert_array_equal(c.allreduce(np.ones(3)), N)  # still usable


@pytest.mark.skipif(N == 1, reason="nobody to wait for")
def test_timeout_names_the_missing_rank(monkeypatch):
    monkeypatch.setenv("RINGFLOW_ABORT_ON_ERROR", "0")  # the abandoned collective must not abort the suite at exit
    c = allreduce.create_communicator("shm", timeout=0.3)
    fused = allreduce.FusedAllreduce(c, [((100_000,), np.float32), ((3,), np.int64)])
    if RANK != 0:  # rank 0 skips the collective
        with pytest.raises(allreduce.CollectiveTimeout, match=r"^step 7's gradient allreduce \(bucket 1 of 2\) "
                                                              r"timed out .* waiting for rank 0\b") as info:
            fused.allreduce(op="sum", what="step 7's gradient allreduce")
        assert info.value.waiting_for == (0,)
        with pytest.raises(RuntimeError, match="unusable"):
            fused.allreduce(op="sum")
    fused.close()


def test_shm_buckets_are_shared_memory_and_single_rank_is_plain():
    c = allreduce.create_communicator("shm")
    fused = allreduce.FusedAllreduce(c, [((5,), np.float32), ((6,), np.int64)])
    assert all(not b.flags.owndata for b in fused.buckets) == (N > 1)  # views of the window when N > 1
    assert all(np.all(b == 0) for b in fused.buckets)
    with pytest.raises(ValueError, match="Unknown reduction op 'prod'"):
        fused.allreduce(op="prod")
    fused.close()
