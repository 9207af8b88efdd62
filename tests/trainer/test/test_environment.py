"""tg.test.main and the machine queries: a TF1 test file (tests/tf1_programs/unmodified/softplus_tests.py) run
unmodified through `python -m trainer.as_tensorflow`, alone and on every rank under mpiexec, passing, and failing
with unittest's status when its gradient is wrong; the GPU queries agree with what CuPy sees."""
import importlib.util
import re
import subprocess
import sys

import pytest

import trainer as tg
from tests.mpirun import ROOT, find_mpiexec, mpi_env

PROGRAM = ROOT / "tests" / "tf1_programs" / "unmodified" / "softplus_tests.py"
TIMEOUT = 120  # seconds; the file runs in about one on a quiet machine
TESTS = 6  # the test methods of softplus_tests.py


def _run(*args, cwd, mpi_ranks=None):
    command = [sys.executable, "-m", "trainer.as_tensorflow", str(PROGRAM), *args]
    if mpi_ranks is not None:
        command = [find_mpiexec(), "-n", str(mpi_ranks), *command]
    done = subprocess.run(command, cwd=cwd, env=mpi_env(), capture_output=True, text=True, timeout=TIMEOUT)
    return done.returncode, done.stdout + done.stderr


def test_a_tf1_test_file_runs_its_tests_and_passes(tmp_path):
    code, out = _run("-v", cwd=tmp_path)
    assert code == 0, out
    assert f"Ran {TESTS} tests" in out and "\nOK" in out
    assert re.search(r"testGradient \(__main__\.SoftplusTest\.testGradient\) \.\.\. ok", out)
    assert "test_session" not in out  # TF's session method is not collected as a test


def test_a_wrong_gradient_fails_the_file_with_unittest_status(tmp_path):
    code, out = _run("--wrong_gradient", cwd=tmp_path)  # a tf.flags flag, parsed by tf.test.main
    assert code == 1, out
    assert "FAIL: testGradient (__main__.SoftplusTest" in out and "FAILED (failures=1)" in out
    assert float(re.search(r"softplus gradient error ([\d.e+-]+)", out).group(1)) > 0.1


@pytest.mark.skipif(find_mpiexec() is None, reason="no mpiexec")
def test_every_rank_runs_the_same_tests_under_mpiexec(tmp_path):
    code, out = _run(cwd=tmp_path, mpi_ranks=2)
    assert code == 0, out
    assert out.count(f"Ran {TESTS} tests") == 2 and out.count("\nOK") == 2


def test_gpu_queries_agree_with_cupy():
    built = importlib.util.find_spec("cupy") is not None
    assert tg.test.is_built_with_cuda() is built and tg.test.is_built_with_gpu_support() is built
    assert tg.test.is_built_with_rocm() is False
    available = tg.test.is_gpu_available()
    assert available is (built and _cupy_device_count() > 0)
    assert tg.test.gpu_device_name() == ("/device:GPU:0" if available else "")
    assert tg.test.is_gpu_available(min_cuda_compute_capability=(99, 0)) is False


def _cupy_device_count():
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount()
    except Exception:  # CuPy without a driver or device
        return 0


def test_the_tensorflow_python_paths_are_tf_test():
    from trainer.python.framework import test_util
    from trainer.python.platform import test
    assert test.TestCase is tg.test.TestCase is test_util.TensorFlowTestCase
    assert test.main is tg.test.main and test.compute_gradient_error is tg.test.compute_gradient_error
    assert test_util.is_gpu_available is tg.test.is_gpu_available
