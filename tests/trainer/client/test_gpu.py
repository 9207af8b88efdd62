"""device="gpu" on CuPy. Without CuPy and a CUDA GPU only the error message and the fake-CuPy checks run; the
tests marked `gpu` (select them with `pytest -m gpu`) skip with the reason. On a GPU machine they run:
every op against its numpy oracle, a training step of every model, GPU vs CPU training in float64, NCCL at one
rank, two ranks sharing one GPU through the fallback, and a step that makes no host round trip."""
import os
import subprocess
import sys

import numpy as np
import pytest
from mpi4py import MPI

import allreduce
import models
import trainer as tg
from tests.allreduce import fake_cupy
from tests.mpirun import ROOT, find_mpiexec, mpi_env
from tests.trainer.client import test_device_standin as standin
from tests.trainer.client import test_device_training as device_training
from trainer.parallel.averaging import GradientAverager
from trainer.framework.registry import OPS


def gpu_available():
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


GPU = gpu_available()


def needs_gpu(test):
    return pytest.mark.gpu(pytest.mark.skipif(not GPU, reason="needs CuPy and a CUDA GPU")(test))


def nccl_or_skip():
    from cupy.cuda import nccl
    if not getattr(nccl, "available", True):
        pytest.skip("this CuPy has no NCCL (cupy.cuda.nccl.available is False): install the gpu-cuda12/13 extra")


@pytest.mark.skipif(GPU, reason="a GPU is present")
def test_gpu_session_without_cupy_says_what_to_install():
    with pytest.raises(RuntimeError, match=r"device='gpu' needs CuPy and a CUDA GPU .*ringflow\[gpu\]"):
        tg.Session(device="gpu")


def test_unknown_device_is_named():
    with pytest.raises(ValueError, match="Unknown device 'tpu'"):
        tg.Session(device="tpu")


def test_variables_initialize_and_assign_on_fake_cupy(monkeypatch):
    """Assign copies a device value with astype(dtype, order=, copy=), CuPy's documented signature (the fake
    once lacked copy=; a cast to the variable's dtype, float64 -> float32 here, takes that path)."""
    fake_cupy.clear_launcher(monkeypatch)
    cp = fake_cupy.install(monkeypatch)
    with tg.Graph().as_default():
        v = tg.Variable(np.arange(3.0), dtype=tg.float32)
        with tg.Session(device="gpu") as sess:
            sess.run(tg.global_variables_initializer())
            held = sess.variables[v.op]
            assert isinstance(held, cp.ndarray) and held.dtype == np.float32
            np.testing.assert_array_equal(sess.run(v), np.arange(3.0, dtype=np.float32))
            sess.run(tg.variables_initializer([v]))
            assert sess.variables[v.op] is held  # same shape: assigned in place
            v.load(np.ones(3, np.float32), sess)
            np.testing.assert_array_equal(sess.run(v), np.ones(3, np.float32))


def gpu_sessions(ran):
    """Every Session opened inside runs on "gpu" (test_device_standin's rerun, on CuPy); `ran` collects op types."""
    return standin.sessions_on("gpu", ran)


@needs_gpu
def test_op_suite_on_the_gpu_and_every_op_type_ran_there():
    ran = set()
    with gpu_sessions(ran):
        code = pytest.main(["-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                            *[os.path.join(standin.HERE, f) for f in standin.OP_TEST_FILES]])
        for build in standin.CASES:
            standin.run_on(None, build)
    assert code == 0, "an op test failed on the GPU (see the output above)"
    missing = sorted(t for t in set(OPS) - ran - standin.MULTI_RANK_OPS if not standin._registered_by_a_test(t))
    assert not missing, f"op types no test ran on the GPU: {missing}"


def assert_close(cpu, gpu):
    """GPU BLAS sums in another order than the CPU's: equal to float64 rounding, not bitwise."""
    np.testing.assert_allclose(gpu[0], cpu[0], rtol=1e-9, atol=1e-12)
    assert sorted(cpu[1]) == sorted(gpu[1])
    for name in cpu[1]:
        np.testing.assert_allclose(gpu[1][name], cpu[1][name], rtol=1e-9, atol=1e-12, err_msg=name)


@needs_gpu
@pytest.mark.parametrize("name", sorted(device_training.DATA))
def test_a_training_step_of_every_model_on_the_gpu(name):
    assert_close(device_training.train(name, "cpu", steps=1), device_training.train(name, "gpu", steps=1))


@needs_gpu
@pytest.mark.parametrize("optimizer", sorted(device_training.OPTIMIZERS))
def test_gpu_training_equals_cpu_training_in_float64(optimizer):
    cpu = device_training.train("mlp", "cpu", optimizer, steps=5)
    assert cpu[0][-1] != cpu[0][0]  # it trained
    assert_close(cpu, device_training.train("mlp", "gpu", optimizer, steps=5))


@needs_gpu
def test_nccl_allreduce_at_one_rank():
    import cupy
    nccl_or_skip()
    comm = allreduce.create_communicator("nccl", comm=MPI.COMM_SELF)
    x = cupy.arange(10, dtype=cupy.float32) - 3
    for op in ("sum", "mean", "max", "min"):
        out = comm.allreduce(x, op=op)
        assert isinstance(out, cupy.ndarray), op
        np.testing.assert_array_equal(out.get(), x.get(), err_msg=op)  # one rank: every reduction is x
    y = x.copy()
    assert comm.allreduce(y, op="sum", out=y) is y
    ints = cupy.arange(-5, 5, dtype=cupy.int64)
    np.testing.assert_array_equal(comm.allreduce(ints, op="sum").get(), np.arange(-5, 5))
    np.testing.assert_array_equal(comm.allreduce(np.arange(4.0), op="sum"), np.arange(4.0))  # a host array
    shapes, dtypes = [(3, 2), (4,), (5,)], [np.dtype(np.float32), np.dtype(np.float32), np.dtype(np.float64)]
    averager = GradientAverager(comm, shapes, dtypes, [True, False, True], average=True, weighted=False)
    rng = np.random.default_rng(0)
    grads = [rng.standard_normal(shapes[i]).astype(dtypes[i]) for i in (0, 2)]
    outs = averager(*[cupy.asarray(g) for g in grads], fused=averager.on_device())
    assert all(isinstance(o, cupy.ndarray) for o in outs)
    np.testing.assert_array_equal(outs[0].get(), grads[0])
    np.testing.assert_array_equal(outs[1].get(), np.zeros(4, np.float32))  # no gradient: zeros
    np.testing.assert_array_equal(outs[2].get(), grads[1])


SHARED_GPU_SCRIPT = """
import numpy as np
import allreduce
from tests.mpi.test_device_distributed import train, RANK
auto, mpi = allreduce.create_communicator("auto"), allreduce.create_communicator("mpi")
for overlap in (False, True):
    on_gpu, on_cpu = train("gpu", auto, overlap), train("cpu", mpi, overlap)
    for name in on_cpu:
        np.testing.assert_allclose(on_gpu[name], on_cpu[name], rtol=1e-9, atol=1e-12, err_msg=name)
print(f"OK rank {RANK}", flush=True)
"""


@needs_gpu
def test_two_ranks_sharing_one_gpu_fall_back_with_one_warning_and_match_the_cpu(tmp_path):
    mpiexec = find_mpiexec()
    if mpiexec is None:
        pytest.skip("no mpiexec found: install the 'mpich' extra or a system MPI")
    script = tmp_path / "shared_gpu.py"
    script.write_text(SHARED_GPU_SCRIPT)
    proc = subprocess.run([mpiexec, "-n", "2", sys.executable, "-m", "mpi4py", str(script)], cwd=ROOT,
                          env=mpi_env(CUDA_VISIBLE_DEVICES="0"), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    assert sorted(line for line in proc.stdout.splitlines() if line.startswith("OK")) == ["OK rank 0", "OK rank 1"]
    warnings = [line for line in proc.stderr.splitlines() if line.startswith("ringflow warning:")]
    assert len(warnings) == 1 and "share the GPU" in warnings[0] and "pinned host memory" in warnings[0], warnings


def _spy(monkeypatch, owner, name, calls):
    """Count calls of owner.name; False where CuPy's compiled class does not let the attribute be replaced."""
    real = getattr(owner, name)

    def counted(*args, **kwargs):
        calls.append(name)
        return real(*args, **kwargs)
    try:
        monkeypatch.setattr(owner, name, counted)
    except (TypeError, AttributeError):
        return False
    return True


@needs_gpu
def test_a_training_step_makes_no_host_round_trip(monkeypatch):
    import cupy
    calls = []
    if not _spy(monkeypatch, cupy.ndarray, "get", calls):
        pytest.skip("this CuPy's ndarray.get cannot be monkeypatched, so copies to the host cannot be counted")
    for name in ("__float__", "__int__", "__bool__", "item", "tolist"):
        _spy(monkeypatch, cupy.ndarray, name, calls)
    _spy(monkeypatch, cupy, "asnumpy", calls)
    for owner in (cupy.cuda.Stream, cupy.cuda.Event, cupy.cuda.Device):
        _spy(monkeypatch, owner, "synchronize", calls)
    _spy(monkeypatch, cupy.cuda.runtime, "deviceSynchronize", calls)
    task, shape, make_labels = device_training.DATA["mlp"]
    rng = np.random.default_rng(0)
    with tg.Graph().as_default():
        features, labels = tg.placeholder(tg.float64, [None, *shape]), tg.placeholder(tg.int64, [None])
        spec = models.get("mlp")(features, labels, task, hidden=(5, 4))
        step = tg.train.AdamOptimizer(0.01).minimize(spec.loss, global_step=tg.train.get_or_create_global_step())
        with tg.Session(device="gpu") as sess:
            sess.run(tg.global_variables_initializer())
            feed = {features: rng.standard_normal((8, *shape)), labels: make_labels(rng, 8)}
            sess.run(step, feed)  # the first run builds the plan
            calls.clear()
            for _ in range(3):
                sess.run(step, feed)
            assert calls == [], f"a training step waited for or copied from the GPU: {calls}"
            sess.run(spec.loss, feed)
            assert "get" in calls  # the counting works: a fetch copies to the host


def test_nccl_buckets_for_a_session_on_another_device_are_refused_by_name(monkeypatch):
    from types import SimpleNamespace
    from tests.trainer import strict_device
    fake_cupy.clear_launcher(monkeypatch)
    fake_cupy.install(monkeypatch)
    comm = allreduce.create_communicator("nccl", comm=MPI.COMM_WORLD)
    averager = GradientAverager(comm, [(2,)], [np.dtype(np.float64)], [True], average=True, weighted=False)
    session = SimpleNamespace(device=strict_device.use(), to_device=strict_device.to_device,
                              to_host=strict_device.to_host)
    with pytest.raises(ValueError, match=r"the 'nccl' communicator reduces CuPy arrays, but the session runs on "
                                         r"device 'strict' \(rank 0\)"):
        averager.on_device(session)
