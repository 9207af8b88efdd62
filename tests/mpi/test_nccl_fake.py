"""The GPU path under mpiexec -n N (any N, 1 included), through the fake CuPy + NCCL of tests/allreduce:
decisions taken together (NCCL missing on one rank, two ranks on one GPU) and device buckets that average
like numpy, bitwise identical on every rank."""
import io
import sys

import numpy as np
import pytest
from mpi4py import MPI

import allreduce
from tests.allreduce import fake_cupy
from trainer.parallel.averaging import GradientAverager

WORLD = MPI.COMM_WORLD
RANK, SIZE = WORLD.Get_rank(), WORLD.Get_size()
BUSES = tuple(f"0000:{16 * i + 1:02X}:00.0" for i in range(8))


def node_rank():
    node = WORLD.Split_type(MPI.COMM_TYPE_SHARED, key=RANK)
    r = node.Get_rank()
    node.Free()
    return r


def one_gpu_per_rank(monkeypatch):
    """Each rank sees only its own GPU, as with Slurm's --gpus-per-task=1."""
    fake_cupy.clear_launcher(monkeypatch)
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", str(node_rank()))
    return fake_cupy.install(monkeypatch, BUSES)


def test_nccl_missing_on_the_last_rank_fails_every_rank_alike(monkeypatch):
    fake_cupy.clear_launcher(monkeypatch)
    fake_cupy.install(monkeypatch, BUSES, nccl_available=RANK != SIZE - 1)
    with pytest.raises(RuntimeError) as info:
        allreduce.create_communicator("nccl")
    assert f"rank {SIZE - 1}: " in str(info.value) and "nccl.available is False" in str(info.value)
    assert fake_cupy.COUNTS["nccl_calls"] == 0
    messages = WORLD.allgather(str(info.value))
    assert all(m == messages[0] for m in messages)


@pytest.mark.skipif(SIZE == 1, reason="sharing a GPU needs two ranks")
def test_ranks_sharing_a_gpu_are_refused_by_nccl_and_staged_by_auto(monkeypatch):
    fake_cupy.clear_launcher(monkeypatch)
    cp = fake_cupy.install(monkeypatch, BUSES[:1])  # one GPU for the whole node
    with pytest.raises(RuntimeError, match=r"ranks \[0, 1.*share the GPU at PCI bus 0000:01:00.0.*'auto'"):
        allreduce.create_communicator("nccl")
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    c = allreduce.create_communicator("auto")
    assert c.name in ("shm", "ring")
    lines = WORLD.allgather(err.getvalue().splitlines())
    assert sum(len(x) for x in lines) == 1 and "share the GPU" in lines[0][0]
    check_device_average(cp, c)


def test_one_gpu_per_rank_averages_on_the_device(monkeypatch):
    cp = one_gpu_per_rank(monkeypatch)
    c = allreduce.create_communicator("auto")
    assert c.name == "nccl"
    check_device_average(cp, c, no_host_round_trip=True)


def check_device_average(cp, communicator, no_host_round_trip=False):
    shapes, dtypes = [(5, 3), (7,), (0,), (2,)], [np.float32, np.float64, np.float32, np.int64]
    avg = GradientAverager(communicator, shapes, dtypes, [True] * 4, True, weighted=False)
    fused = avg.on_device()
    grads = [cp.asarray(np.full(s, RANK + 1, d)) for s, d in zip(shapes, dtypes)]
    counts = dict(fake_cupy.COUNTS)
    outs = avg(*grads, fused=fused)
    if no_host_round_trip:  # NCCL: nothing crosses to the host, nobody waits
        assert fake_cupy.COUNTS["to_host"] == counts["to_host"]
        assert fake_cupy.COUNTS["host_waits"] == counts["host_waits"]
    for out, shape, dtype in zip(outs, shapes, dtypes):
        host = out.get()
        want = (SIZE + 1) / 2 if np.dtype(dtype).kind == "f" else (SIZE * (SIZE + 1) // 2) // SIZE
        np.testing.assert_array_equal(host, np.full(shape, want, dtype))
        gathered = WORLD.allgather(host.tobytes())
        assert all(g == gathered[0] for g in gathered)
