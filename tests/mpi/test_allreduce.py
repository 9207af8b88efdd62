"""Every allreduce backend at the current world size: closed-form values, agreement with MPI_Allreduce,
bitwise identical results on all ranks, edge lengths, every dtype, mismatched shapes, timeouts."""
import os

import numpy as np
import pytest
from mpi4py import MPI

import allreduce
from tests.mpi.closed_forms import expected, same_on_all_ranks

os.environ.setdefault("RINGFLOW_TIMEOUT", "60")  # a bug that loses a message fails the test, not the launcher
WORLD = MPI.COMM_WORLD
RANK, N = WORLD.rank, WORLD.size
NAMES = ["ring", "mpi", "ps", "shm"]
DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64,
          np.uint8, np.uint16, np.uint32, np.uint64]
SMALL = allreduce.create_communicator("ring").doubling.capacity // 8  # float64 elements at the ring's crossover
LENGTHS = sorted({0, 1, max(N - 1, 1), 7, 1000, SMALL, SMALL + 1, 200_003})


@pytest.fixture(scope="module", params=NAMES)
def comm(request):
    return allreduce.create_communicator(request.param)


@pytest.mark.parametrize("op", ["sum", "mean", "max", "min"])
@pytest.mark.parametrize("length", LENGTHS)
def test_closed_form(comm, op, length):
    for dtype in DTYPES if length < 5000 else [np.float32, np.int64, np.float16]:
        x = np.full(length, RANK + 1, dtype)
        out = comm.allreduce(x, op=op)
        assert out.dtype == dtype and out.shape == x.shape
        np.testing.assert_array_equal(out, expected(op, dtype, length), err_msg=f"{comm.name} {dtype}")
        assert np.all(x == RANK + 1), "input was modified"


@pytest.mark.parametrize("length", LENGTHS)
def test_matches_mpi_and_bitwise_identical(comm, length):
    rng = np.random.default_rng(1234 + RANK)
    reference = allreduce.create_communicator("mpi") if comm.name != "mpi" else comm
    for dtype in [np.float64, np.float32, np.int32, np.uint8]:
        if np.dtype(dtype).kind == "f":
            x = (rng.standard_normal(length) * 100).astype(dtype)
        else:  # no overflow: MPI leaves it to the library (Open MPI's AVX ops saturate 8-bit sums, MPICH wraps)
            x = rng.integers(0, np.iinfo(dtype).max // N + 1, length).astype(dtype)
        for op in ["sum", "max", "min", "mean"]:
            got, want = comm.allreduce(x, op=op), reference.allreduce(x, op=op)
            assert same_on_all_ranks(got), f"{comm.name} {op} {dtype}: ranks differ"
            tol = 1e-6 if dtype == np.float32 else 1e-12
            if np.dtype(dtype).kind == "f":
                np.testing.assert_allclose(got, want, rtol=tol, atol=tol * 100 * N)
            else:
                np.testing.assert_array_equal(got, want)


def test_int_mean_truncates_toward_zero(comm):
    x = np.array([RANK + 1, -(RANK + 1), 2 * RANK], np.int32)
    total = np.array([N * (N + 1) // 2, -N * (N + 1) // 2, N * (N - 1)])
    want = (np.sign(total) * (np.abs(total) // N)).astype(np.int32)
    np.testing.assert_array_equal(comm.allreduce(x, op="mean"), want)


def test_multidim_noncontiguous_and_out_in_place(comm):
    base = np.arange(6 * 8 * 5, dtype=np.float64).reshape(6, 8, 5) + RANK
    view = base[::2, 1:, ::-1]
    want = N * view - RANK * N + N * (N - 1) / 2
    np.testing.assert_array_equal(comm.allreduce(view), want)
    into = np.empty((3, 7, 5), np.float64)[:, :, :]
    assert comm.allreduce(view, out=into) is into
    np.testing.assert_array_equal(into, want)
    comm.allreduce(view, out=view)  # in place through a non-contiguous view
    np.testing.assert_array_equal(base[::2, 1:, ::-1], want)
    np.testing.assert_array_equal(base[1::2], np.arange(240.).reshape(6, 8, 5)[1::2] + RANK)
    big = np.full((300, 700), RANK + 1, np.float32)
    comm.allreduce(big, op="mean", out=big)
    np.testing.assert_array_equal(big, (N + 1) / 2)
    scalar = comm.allreduce(np.float32(RANK), op="max")
    assert scalar.shape == () and scalar == N - 1


def test_float16_reduced_in_wider_type(comm):
    x = np.full(4096, 1024 + RANK, np.float16)  # float16 partial sums would round away the +rank part
    want = np.float16(np.float32(1024) * N + N * (N - 1) / 2)
    np.testing.assert_array_equal(comm.allreduce(x), want)


@pytest.mark.skipif(N == 1, reason="one rank cannot disagree with itself")
@pytest.mark.parametrize("dims", ["shape", "small-vs-large"])
def test_mismatched_shapes_raise_on_every_rank(comm, dims):
    shape = [17 + RANK] * 3 if dims == "shape" else [10 if RANK == 0 else 1_000_000]
    with pytest.raises(ValueError, match="Shape does not match") as info:
        comm.allreduce(np.ones(shape, np.float32))
    assert "at rank 0" in str(info.value) and "at rank 1" in str(info.value)
    np.testing.assert_array_equal(comm.allreduce(np.ones(3)), N)  # still usable


@pytest.mark.skipif(N == 1, reason="one rank cannot disagree with itself")
def test_mismatched_dtype_raises_on_every_rank(comm):
    dtype = np.float32 if RANK == 0 else np.float64
    with pytest.raises(ValueError, match="Dtype does not match: 'float32' at rank 0 while 'float64' at rank 1"):
        comm.allreduce(np.ones(5, dtype))


@pytest.mark.skipif(N == 1, reason="one rank cannot disagree with itself")
@pytest.mark.parametrize("labels", [("metric allreduce", "step 3's gradient allreduce"),
                                    (None, None)])
def test_ranks_in_different_collectives_are_told_which(comm, labels):
    """Rank 0 in a plain allreduce, the others in a fused one of the same shape and op: the error names both
    collectives (by label, else by kind), not a difference of op strings."""
    fused = allreduce.FusedAllreduce(comm, [((10,), np.float32)])
    mine, theirs = [what or default for what, default in zip(labels, ("an allreduce", "a fused allreduce"))]
    others = "rank 1 is" if N == 2 else "ranks " + ", ".join(map(str, range(1, N - 1))) + f" and {N - 1} are"
    want = f"Ranks are in different collectives: rank 0 is in {mine} while {others} in {theirs} (raised at rank {RANK})"
    with pytest.raises(ValueError) as info:
        if RANK == 0:
            comm.allreduce(np.ones(10, np.float32), op="sum", what=labels[0])
        else:
            fused.allreduce(op="sum", what=labels[1])
    assert str(info.value).startswith(want), str(info.value)
    fused.close()
    np.testing.assert_array_equal(comm.allreduce(np.ones(3)), N)  # still usable


@pytest.mark.skipif(N == 1, reason="nobody to wait for")
@pytest.mark.parametrize("name", NAMES)
def test_timeout_names_the_missing_rank(name, monkeypatch):
    monkeypatch.setenv("RINGFLOW_ABORT_ON_ERROR", "0")  # the abandoned collective must not abort the suite at exit
    c = allreduce.create_communicator(name, timeout=0.3)
    if RANK != 0:  # rank 0 skips the collective
        with pytest.raises(allreduce.CollectiveTimeout, match=r"'sizes' timed out at rank \d after 0.3 s waiting "
                                                              r"for rank 0\b") as info:
            c.allreduce(np.ones(10), what="'sizes'")
        assert info.value.waiting_for == (0,) and info.value.what == "'sizes'"
        with pytest.raises(RuntimeError, match="unusable"):
            c.allreduce(np.ones(10))
    WORLD.Barrier()


def test_broadcast_allgather_barrier(comm):
    x = np.arange(12, dtype=np.float16).reshape(3, 4) * (RANK + 1)
    root = N - 1
    np.testing.assert_array_equal(comm.broadcast(x, root=root), np.arange(12).reshape(3, 4) * N)
    gathered = comm.allgather(x)
    assert gathered.shape == (N, 3, 4) and gathered.dtype == np.float16
    for r in range(N):
        np.testing.assert_array_equal(gathered[r], np.arange(12).reshape(3, 4) * (r + 1))
    assert comm.allgather(np.zeros(0)).shape == (N, 0)
    comm.barrier()
    if N > 1:
        with pytest.raises(ValueError, match="Shape does not match"):
            comm.allgather(np.ones(RANK + 1))


def test_allgatherv_and_its_list(comm):
    """Rank r gives r rows (rank 0 none) of value r: closed forms for both the concatenation and the split."""
    x = np.full((RANK, 3), RANK, np.int32)
    joined = comm.allgatherv(x, what="ragged rows")
    want = np.concatenate([np.full((r, 3), r, np.int32) for r in range(N)])
    assert joined.dtype == np.int32 and joined.shape == (N * (N - 1) // 2, 3)
    np.testing.assert_array_equal(joined, want)
    parts = comm.allgatherv_list(x)
    assert [p.shape for p in parts] == [(r, 3) for r in range(N)]
    for r, p in enumerate(parts):
        np.testing.assert_array_equal(p, r)
    assert same_on_all_ranks(joined)
    if N > 1:  # trailing dimensions must agree; only the first may differ
        with pytest.raises(ValueError, match=r"Shape does not match: \(1,\) at rank 0 while \(2,\) at rank 1"):
            comm.allgatherv_list(np.ones((2, RANK + 1)))
        np.testing.assert_array_equal(comm.allreduce(np.ones(3)), N)  # still usable


def test_json_values_between_ranks(comm):
    """Rank r holds a nested value of its own length r (rank 0's list is empty): every rank gets all of them."""
    mine = {"rank": RANK, "items": ["x"] * RANK, "nested": {"half": RANK / 2, "none": None}}
    everyone = comm.allgather_json(mine, what="json values")
    assert everyone == [{"rank": r, "items": ["x"] * r, "nested": {"half": r / 2, "none": None}} for r in range(N)]
    root = N - 1
    assert comm.broadcast_json(mine if RANK == root else "ignored", root=root) == {
        "rank": root, "items": ["x"] * root, "nested": {"half": root / 2, "none": None}}
    assert comm.broadcast_json(None) is None
    with pytest.raises(ValueError, match=rf"root must be a rank in \[0, {N}\), got {N} at rank {RANK}"):
        comm.broadcast_json(1, root=N)


def test_fused_allreduce(comm):
    shapes = [(3, 4), (5,), (), (100,), (2, 2, 2), (0,), (1000,)]
    fused = allreduce.FusedAllreduce(comm, [(s, np.float32) for s in shapes] + [((7,), np.int64)], bucket_bytes=512)
    assert len(fused.buckets) > 2
    for i, v in enumerate(fused.views):
        v[...] = RANK + i
        assert any(np.shares_memory(v, b) for b in fused.buckets) or v.size == 0
    views = fused.allreduce(op="mean")
    for i, v in enumerate(views):
        want = i + (N - 1) / 2 if v.dtype.kind == "f" else (N * i + N * (N - 1) // 2) // N
        np.testing.assert_array_equal(v, want)
    grads = [np.full(s, RANK, np.float32) for s in shapes] + [np.full(7, 1, np.int64)]
    fused.allreduce(grads, op="sum")
    np.testing.assert_array_equal(fused.views[0], N * (N - 1) / 2)
    np.testing.assert_array_equal(fused.views[-1], N)


def test_shm_pieces_and_ring_segments(monkeypatch):
    """Messages spanning many shm slots (both the one- and two-barrier paths) and many ring segments."""
    monkeypatch.setattr(allreduce.shm, "SLOT_BYTES", 64 * 1024 + 8)
    monkeypatch.setattr(allreduce.shm, "PIECE_BYTES_PER_RANK", 64 * 1024 + 8)
    monkeypatch.setattr(allreduce.ring.RingCommunicator, "segment_bytes", 4096 + 8)
    x = np.arange(100_003, dtype=np.float64) + RANK
    want = N * np.arange(100_003) + N * (N - 1) / 2
    for name in ["shm", "ring"]:
        c = allreduce.create_communicator(name)
        for op, expect in [("sum", want), ("mean", want / N), ("max", np.arange(100_003.) + N - 1)]:
            got = c.allreduce(x, op=op)
            np.testing.assert_array_equal(got, expect, err_msg=f"{name} {op}")
            assert same_on_all_ranks(got)


def test_auto_picks_shm_on_one_node_without_gpus():
    try:
        import cupy  # noqa: F401
        pytest.skip("CuPy present: auto may pick nccl")
    except ImportError:
        pass
    c = allreduce.create_communicator("auto")
    assert c.name == "shm" and c.size == N
    np.testing.assert_array_equal(c.allreduce(np.full(5, RANK, np.int32)), N * (N - 1) // 2)
