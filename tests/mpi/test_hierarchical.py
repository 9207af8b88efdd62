"""The hierarchical allreduce and the node-ordered ring under pretended node layouts (nodes=, one label per rank):
one node, a rank per node, 2 per node (2x2, and 2+1 at 3 ranks), cyclic placement, uneven nodes. Closed-form
values, agreement with MPI_Allreduce, bitwise identical results, edge lengths, every dtype, mismatches, timeouts.
All ranks really share this machine, so the shared memory within a pretended node works as on a real one."""
import os
import threading
import time

import numpy as np
import pytest
from mpi4py import MPI

import allreduce
import allreduce.hierarchical
from allreduce.topology import Layout
from tests.mpi.closed_forms import expected, same_on_all_ranks

os.environ.setdefault("RINGFLOW_TIMEOUT", "60")  # a bug that loses a message fails the test, not the launcher
WORLD = MPI.COMM_WORLD
RANK, N = WORLD.rank, WORLD.size
DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64,
          np.uint8, np.uint16, np.uint32, np.uint64]
REFERENCE = allreduce.create_communicator("mpi")
CAPACITY = REFERENCE.doubling.capacity  # bytes: larger messages take the hierarchical path, smaller ones doubling
# 0, < size, and lengths not divisible by the ranks, the lanes or the ring: "above" is just past the doubling
# capacity in each dtype's work type (float16 is reduced in float32)
LENGTHS = [0, 1, max(N - 1, 1), 7, "above", 200_003]


def length_of(length, dtype):
    itemsize = 4 if np.dtype(dtype) == np.float16 else np.dtype(dtype).itemsize
    return CAPACITY // itemsize + N + 2 if length == "above" else length


def unique(layouts):
    seen, out = set(), {}
    for name, nodes in layouts.items():
        if tuple(nodes) not in seen:
            seen.add(tuple(nodes))
            out[name] = nodes
    return out


LAYOUTS = unique(ALL_LAYOUTS := {
    "one node": [0] * N,
    "a node per rank": list(range(N)),
    "2 per node": [r // 2 for r in range(N)],  # 2x2 at 4 ranks, 2+1 at 3
    "cyclic": [r % 2 for r in range(N)],  # a b a b: Slurm's cyclic distribution
    "3+1": [0, 0, 0, 1][:N],
    "1+3": [0, 1, 1, 1][:N],  # node 0 alone: its rank joins the ring without shared memory
})


@pytest.fixture(scope="module", params=list(LAYOUTS))
def comm(request):
    return allreduce.BACKENDS["hierarchical"](nodes=LAYOUTS[request.param])


@pytest.mark.parametrize("op", ["sum", "mean", "max", "min"])
@pytest.mark.parametrize("length", LENGTHS)
def test_closed_form(comm, op, length):
    for dtype in DTYPES if length != 200_003 else [np.float32, np.int64, np.float16]:
        x = np.full(length_of(length, dtype), RANK + 1, dtype)
        out = comm.allreduce(x, op=op)
        assert out.dtype == dtype and out.shape == x.shape
        np.testing.assert_array_equal(out, expected(op, dtype, x.size), err_msg=f"{comm.layout} {dtype}")
        assert same_on_all_ranks(out)
        assert np.all(x == RANK + 1), "input was modified"


@pytest.mark.parametrize("length", [N + 1, "above", 50_003])
def test_matches_mpi_and_bitwise_identical(comm, length):
    rng = np.random.default_rng(1234 + RANK)
    reference = REFERENCE
    for dtype in [np.float64, np.float32, np.int32, np.uint8]:
        length = length_of(length, dtype)
        if np.dtype(dtype).kind == "f":
            x = (rng.standard_normal(length) * 100).astype(dtype)
        else:  # no overflow: MPI leaves it to the library
            x = rng.integers(0, np.iinfo(dtype).max // N + 1, length).astype(dtype)
        for op in ["sum", "max", "min", "mean"]:
            got, want = comm.allreduce(x, op=op), reference.allreduce(x, op=op)
            assert same_on_all_ranks(got), f"{comm.layout} {op} {dtype}: ranks differ"
            tol = 1e-6 if dtype == np.float32 else 1e-12
            if np.dtype(dtype).kind == "f":
                np.testing.assert_allclose(got, want, rtol=tol, atol=tol * 100 * N)
            else:
                np.testing.assert_array_equal(got, want)


def test_in_place_multidim_and_int_mean(comm):
    base = np.arange(60 * 80 * 5, dtype=np.float64).reshape(60, 80, 5) + RANK
    want = N * base - RANK * N + N * (N - 1) / 2
    np.testing.assert_array_equal(comm.allreduce(base[::2, 1:, ::-1]), want[::2, 1:, ::-1])
    comm.allreduce(base, out=base)
    np.testing.assert_array_equal(base, want)
    x = np.tile(np.array([RANK + 1, -(RANK + 1), 2 * RANK], np.int32), 20_000)
    total = np.tile(np.array([N * (N + 1) // 2, -N * (N + 1) // 2, N * (N - 1)]), 20_000)
    np.testing.assert_array_equal(comm.allreduce(x, op="mean"), np.sign(total) * (np.abs(total) // N))


def test_float16_reduced_in_wider_type(comm):
    x = np.full(100_000, 1024 + RANK, np.float16)  # float16 partial sums would round away the +rank part
    np.testing.assert_array_equal(comm.allreduce(x), np.float16(np.float32(1024) * N + N * (N - 1) / 2))


@pytest.mark.parametrize("name", list(LAYOUTS))
def test_pieces_and_ring_segments(name, monkeypatch):
    """Messages spanning many shared-memory pieces (the last one a single element) and many ring segments."""
    monkeypatch.setattr(allreduce.hierarchical, "SLOT_BYTES", 64 * 1024)
    monkeypatch.setattr(allreduce.hierarchical.HierarchicalCommunicator, "segment_bytes", 4096 + 8)
    c = allreduce.BACKENDS["hierarchical"](nodes=LAYOUTS[name])
    count = 3 * 8192 + 1
    x = np.arange(count, dtype=np.float64) + RANK
    want = N * np.arange(count) + N * (N - 1) / 2
    for op, expect in [("sum", want), ("mean", want / N), ("max", np.arange(count) + N - 1.0)]:
        got = c.allreduce(x, op=op)
        np.testing.assert_array_equal(got, expect, err_msg=f"{name} {op}")
        assert same_on_all_ranks(got)


@pytest.mark.parametrize("threaded", [True, False])
@pytest.mark.parametrize("name", list(LAYOUTS))
def test_pipelined_pieces_with_and_without_helper_thread(name, threaded, monkeypatch):
    """Many pipelined pieces (three slots rotating, pieces of uneven length), their rings on the helper thread or
    in turn on the caller's, then a message of other pieces on the same windows: equal to MPI_Allreduce."""
    monkeypatch.setattr(allreduce.hierarchical, "THREADED", threaded)
    monkeypatch.setattr(allreduce.hierarchical, "PIECE_BYTES", 8 * 1024)
    monkeypatch.setattr(allreduce.hierarchical, "MIN_PIECE_BYTES", 1024)
    c = allreduce.BACKENDS["hierarchical"](nodes=LAYOUTS[name])
    rng = np.random.default_rng(RANK)
    for count in (7 * 1024 + 5, CAPACITY // 8 + 1, 3 * 1024 + 1):
        x = rng.standard_normal(count)
        want = np.empty_like(x)
        WORLD.Allreduce(x, want)
        got = c.allreduce(x)
        np.testing.assert_allclose(got, want, rtol=1e-12, err_msg=f"{name} {count}")
        assert same_on_all_ranks(got)


@pytest.mark.parametrize("name", list(LAYOUTS))
def test_ring_in_node_order(name):
    """The flat ring under any placement: correct, and its ring crosses between nodes only k times (once per
    link direction), where rank order would cross on every hop under cyclic placement."""
    nodes = LAYOUTS[name]
    c = allreduce.BACKENDS["ring"](nodes=nodes)
    place = WORLD.allgather(c.ring_comm.Get_rank())
    order = sorted(range(N), key=lambda q: place[q])
    crossings = sum(nodes[order[i]] != nodes[order[(i + 1) % N]] for i in range(N))
    assert crossings == (len(set(nodes)) if len(set(nodes)) > 1 else 0), (nodes, order)
    x = np.arange(200_003, dtype=np.float64) * (RANK + 1)
    got = c.allreduce(x)
    np.testing.assert_array_equal(got, np.arange(200_003) * (N * (N + 1) // 2))
    assert same_on_all_ranks(got)


def test_layout_closed_form():
    layout = Layout([0, 1, 0, 1, 2], rank=3, pretended=True)
    assert layout.nodes == 3 and layout.members == [[0, 2], [1, 3], [4]]
    assert layout.node == 1 and layout.local_rank == 1 and layout.ring_order == [0, 2, 1, 3, 4]


def test_broadcast_allgather_and_fused(comm):
    np.testing.assert_array_equal(comm.broadcast(np.arange(5) * (RANK + 1), root=N - 1), np.arange(5) * N)
    np.testing.assert_array_equal(comm.allgather(np.array([RANK])), np.arange(N)[:, None])
    fused = allreduce.FusedAllreduce(comm, [((300, 300), np.float32), ((7,), np.int64)], bucket_bytes=2**20)
    fused.allreduce([np.full((300, 300), RANK, np.float32), np.full(7, 2, np.int64)], op="sum")
    np.testing.assert_array_equal(fused.views[0], N * (N - 1) / 2)
    np.testing.assert_array_equal(fused.views[1], 2 * N)
    fused.close()


@pytest.mark.skipif(N == 1, reason="one rank cannot disagree with itself")
@pytest.mark.parametrize("length", [10, 200_003])
def test_mismatched_shapes_raise_on_every_rank(comm, length):
    with pytest.raises(ValueError, match="Shape does not match") as info:
        comm.allreduce(np.ones(length + RANK, np.float32), what="'weights'")
    assert "at rank 0" in str(info.value) and "at rank 1" in str(info.value) and "'weights'" in str(info.value)
    np.testing.assert_array_equal(comm.allreduce(np.ones(200_003)), N)  # still usable


@pytest.mark.skipif(N == 1, reason="one rank cannot disagree with itself")
def test_ranks_in_different_collectives_are_told_which(comm):
    what = "metric allreduce" if RANK == 0 else "step 3's gradient allreduce"
    with pytest.raises(ValueError, match=r"Ranks are in different collectives: rank 0 is in metric allreduce while "
                                         r"ranks? [\d, and]+ (is|are) in step 3's gradient allreduce"):
        comm.allreduce(np.ones(200_003), what=what)


@pytest.mark.skipif(N == 1, reason="nobody to wait for")
@pytest.mark.parametrize("name", ["2 per node", "cyclic"])
@pytest.mark.parametrize("late", ["before", "inside", "in its ring"])
def test_timeout_names_the_late_rank(name, late, monkeypatch):
    """The last rank arrives late (the others wait in the agreement), or stalls inside the collective after
    the agreement (the others wait at a node barrier or in a ring across nodes): every other rank names it."""
    monkeypatch.setenv("RINGFLOW_ABORT_ON_ERROR", "0")  # the abandoned collective must not abort the suite at exit
    nodes = ALL_LAYOUTS[name]
    c = allreduce.BACKENDS["hierarchical"](nodes=nodes, timeout=1.0)
    layout = Layout(nodes, 0, pretended=True)
    if late == "in its ring" and layout.nodes == 1:
        pytest.skip("one node: no ring across nodes")
    lanes = min(len(ranks) for ranks in layout.members)
    slow = max(q for q in range(N) if layout.members[nodes[q]].index(q) < lanes)  # a rank that adds
    if RANK == slow:
        if late == "before":
            time.sleep(4)
        else:
            calls = []

            alone = len(layout.members[nodes[RANK]]) == 1  # no node to reduce within: every addition is the ring's

            def stalling_add(*args, **kwargs):  # the first addition of the data path (or of its ring) takes 4 s
                in_ring = alone or threading.current_thread().name == "ringflow-ring"
                if not calls and (late == "inside" or in_ring):
                    calls.append(time.sleep(4))
                return np.add(*args, **kwargs)
            monkeypatch.setitem(allreduce.ops.UFUNCS, "sum", stalling_add)
    if RANK == slow:  # it times out too, or, where the messages the others left behind match its own, finishes
        try:
            c.allreduce(np.ones(200_003), what="'gradients'")
        except allreduce.CollectiveTimeout:
            pass
    else:
        with pytest.raises(allreduce.CollectiveTimeout, match=rf"'gradients' timed out at rank {RANK} after 1 s "
                                                              rf"waiting for rank {slow}\b") as info:
            c.allreduce(np.ones(200_003), what="'gradients'")
        assert info.value.waiting_for == (slow,)
        with pytest.raises(RuntimeError, match="unusable"):
            c.allreduce(np.ones(10))
    WORLD.Barrier()


def test_auto_across_nodes_picks_hierarchical(monkeypatch):
    try:
        import cupy  # noqa: F401
        pytest.skip("CuPy present: auto may pick nccl")
    except ImportError:
        pass
    monkeypatch.setenv("RINGFLOW_FAKE_NODES", ",".join("ab"[r % 2] for r in range(N)))
    c = allreduce.create_communicator("auto")
    assert c.name == ("shm" if N == 1 else "hierarchical") and c.size == N
    np.testing.assert_array_equal(c.allreduce(np.full(200_003, RANK, np.int32)), N * (N - 1) // 2)
    monkeypatch.setenv("RINGFLOW_FAKE_NODES", "a")
    if N > 1:
        with pytest.raises(ValueError, match=rf"RINGFLOW_FAKE_NODES='a' must give one node label per rank of "
                                             rf"MPI.COMM_WORLD, {N} in all"):
            allreduce.create_communicator("hierarchical")


def test_bad_nodes_argument_raises_on_every_rank():
    nodes = [0] * (N + 1) if RANK == 0 else [0] * N  # only rank 0 is wrong: every rank must still raise
    with pytest.raises(ValueError, match=rf"nodes= must give one node label per rank, {N} in all, got {N + 1}"):
        allreduce.BACKENDS["hierarchical"](nodes=nodes)
