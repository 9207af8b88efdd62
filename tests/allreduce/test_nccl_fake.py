"""The GPU path on the CPU, through a fake CuPy + NCCL (fake_cupy.py): GPU choice, NCCL availability, the
device buckets (reduced without a host round trip) and the staged fallback."""
import numpy as np
import pytest
from mpi4py import MPI

import allreduce
from allreduce import devices
from allreduce.nccl import survey
from tests.allreduce import fake_cupy
from trainer.parallel.averaging import GradientAverager

BUSES = ("0000:01:00.0", "0000:41:00.0", "0000:81:00.0")


@pytest.mark.parametrize("env, index, bus", [
    ({}, 0, BUSES[0]),                                                  # alone
    ({"OMPI_COMM_WORLD_RANK": "1", "OMPI_COMM_WORLD_LOCAL_RANK": "1"}, 1, BUSES[1]),
    ({"PMI_RANK": "4", "MPI_LOCALRANKID": "4"}, 1, BUSES[1]),           # 4 % 3 visible
    ({"SLURM_PROCID": "2", "SLURM_LOCALID": "2", "CUDA_VISIBLE_DEVICES": "2"}, 0, BUSES[2]),  # --gpus-per-task=1
    ({"OMPI_COMM_WORLD_RANK": "1", "OMPI_COMM_WORLD_LOCAL_RANK": "1", "CUDA_VISIBLE_DEVICES": "2,0"}, 1,
     BUSES[0]),
])
def test_each_rank_takes_local_rank_modulo_the_visible_gpus(monkeypatch, env, index, bus):
    fake_cupy.clear_launcher(monkeypatch)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    cp = fake_cupy.install(monkeypatch, BUSES)
    assert devices.use_gpu() == index and cp.current_device() == index
    assert devices.bus_id(index) == bus


def test_the_mpi_node_rank_is_used_only_without_a_launcher_variable(monkeypatch):
    fake_cupy.clear_launcher(monkeypatch)
    assert devices.local_rank(node_rank=2) == 2
    monkeypatch.setenv("MV2_COMM_WORLD_RANK", "5")
    monkeypatch.setenv("MV2_COMM_WORLD_LOCAL_RANK", "5")
    assert devices.local_rank(node_rank=2) == 5


def test_no_visible_gpu_names_cuda_visible_devices(monkeypatch):
    fake_cupy.clear_launcher(monkeypatch)
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    fake_cupy.install(monkeypatch, BUSES)
    with pytest.raises(RuntimeError, match="no CUDA device is visible.*CUDA_VISIBLE_DEVICES=''"):
        devices.use_gpu()


def test_ranks_on_one_bus_id_share_a_gpu():
    assert devices.sharing(["A", "B", "A", None]) == [("A", [0, 2])]
    assert devices.sharing(["A", "B", None, None]) == []


def test_cupy_without_nccl_is_refused_before_any_nccl_call(monkeypatch):
    fake_cupy.clear_launcher(monkeypatch)
    fake_cupy.install(monkeypatch, BUSES, nccl_available=False)
    assert survey(MPI.COMM_WORLD)[0] and "built without NCCL" in survey(MPI.COMM_WORLD)[0][0]
    with pytest.raises(RuntimeError, match=r"'nccl' cannot run here: rank 0: .*nccl.available is False.*gpu-cuda1"):
        allreduce.create_communicator("nccl")


def test_auto_warns_once_when_gpus_cannot_use_nccl(monkeypatch, capsys):
    fake_cupy.clear_launcher(monkeypatch)
    fake_cupy.install(monkeypatch, BUSES, nccl_available=False)
    c = allreduce.create_communicator("auto")
    assert c.name in ("shm", "ring")
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "does not use NCCL" in err[0] and "built without NCCL" in err[0]


def test_auto_without_cupy_is_silent(monkeypatch, capsys):
    monkeypatch.setitem(__import__("sys").modules, "cupy", None)
    assert allreduce.create_communicator("auto").name in ("shm", "ring")
    assert capsys.readouterr().err == ""


def averager(cp, communicator, weighted):
    shapes, dtypes = [(3, 2), (4,), (2, 2)], [np.float32, np.float32, np.float64]
    return GradientAverager(communicator, shapes, dtypes, [True, False, True], True, weighted), shapes, dtypes


@pytest.mark.parametrize("weighted", [False, True])
def test_nccl_device_buckets_average_without_a_host_round_trip(monkeypatch, weighted):
    fake_cupy.clear_launcher(monkeypatch)
    cp = fake_cupy.install(monkeypatch, BUSES)
    communicator = allreduce.create_communicator("nccl")
    avg, shapes, dtypes = averager(cp, communicator, weighted)
    fused = avg.on_device()
    assert all(isinstance(b, cp.ndarray) for b in fused.buckets)
    rng = np.random.default_rng(0)
    grads = [rng.standard_normal(shapes[i]).astype(dtypes[i]) for i in (0, 2)]
    weight = [cp.asarray(np.float32(3))] if weighted else []
    device_grads = [cp.asarray(g) for g in grads]
    before = dict(fake_cupy.COUNTS)
    for _ in range(2):
        outs = avg(*weight, *device_grads, fused=fused)
    assert fake_cupy.COUNTS["to_host"] == before["to_host"] and fake_cupy.COUNTS["host_waits"] == before["host_waits"]
    assert fake_cupy.COUNTS["nccl_calls"] - before["nccl_calls"] == 2 * len(fused.buckets)
    assert fake_cupy.COUNTS["groups"] - before["groups"] == 2  # one NCCL group per step
    assert all(isinstance(o, cp.ndarray) for o in outs)
    np.testing.assert_allclose(outs[0].get(), grads[0], rtol=1e-6)  # one rank: the mean is the gradient
    np.testing.assert_array_equal(outs[1].get(), np.zeros(4, np.float32))
    np.testing.assert_allclose(outs[2].get(), grads[1], rtol=1e-12)


def test_staged_buckets_copy_each_bucket_once_each_way(monkeypatch):
    fake_cupy.clear_launcher(monkeypatch)
    cp = fake_cupy.install(monkeypatch, BUSES)
    communicator = allreduce.create_communicator("mpi")
    avg, shapes, dtypes = averager(cp, communicator, False)
    fused = avg.on_device()
    grads = [np.full(shapes[i], i + 1.0, dtypes[i]) for i in (0, 2)]
    device_grads = [cp.asarray(g) for g in grads]
    before = dict(fake_cupy.COUNTS)
    outs = avg(*device_grads, fused=fused)
    n = len(fused.buckets)
    assert n == 2  # one per dtype
    assert fake_cupy.COUNTS["to_host"] - before["to_host"] == n and fake_cupy.COUNTS["to_device"] - before["to_device"] == n
    np.testing.assert_array_equal(outs[0].get(), grads[0])
    np.testing.assert_array_equal(outs[2].get(), grads[1])


def test_a_numpy_gradient_meeting_a_device_bucket_fails_loudly(monkeypatch):
    fake_cupy.clear_launcher(monkeypatch)
    cp = fake_cupy.install(monkeypatch, BUSES)
    avg, shapes, dtypes = averager(cp, allreduce.create_communicator("nccl"), False)
    with pytest.raises(TypeError, match="numpy array met a device array"):
        avg(np.ones(shapes[0], dtypes[0]), cp.zeros(shapes[2], dtypes[2]), fused=avg.on_device())
