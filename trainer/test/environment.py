"""What a test asks of its machine and runner (TF1's tf.test.main, get_temp_dir and GPU queries): ringflow's GPU is
CuPy's, so "built with CUDA" means CuPy is installed and "a GPU is available" means CuPy sees a device."""
import atexit
import functools
import importlib.util
import shutil
import tempfile
import unittest

from ..client.devices import default_device_name
from ..platform import app


def main(argv=None):
    """Parse the tf.flags in argv (default sys.argv), then run __main__'s tests with unittest and exit with its
    status. Under mpiexec every rank runs the same tests."""
    app.run(main=lambda remaining: unittest.main(module="__main__", argv=remaining), argv=argv)


@functools.lru_cache(maxsize=None)
def get_temp_dir():
    """A temporary directory for this process's tests, removed when the process exits."""
    path = tempfile.mkdtemp(prefix="tg_test_")
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


def is_built_with_cuda():
    """Whether ringflow can run graphs on CUDA GPUs here (CuPy is installed: `pip install ringflow[gpu]`)."""
    return importlib.util.find_spec("cupy") is not None


def is_built_with_rocm():
    return False


def is_built_with_gpu_support():
    return is_built_with_cuda()


def is_built_with_xla():
    """False: ringflow has no XLA compiler."""
    return False


def is_xla_enabled():
    """False: ringflow has no XLA (TF's tests skip or shorten their XLA-only parts on it)."""
    return False


def is_mkl_enabled():
    """False: ringflow's kernels are numpy's, not oneDNN's."""
    return False


def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None):
    """Whether CuPy sees a GPU (of at least the (major, minor) compute capability, where given)."""
    try:
        import cupy
        count = cupy.cuda.runtime.getDeviceCount()
        capabilities = [cupy.cuda.Device(i).compute_capability for i in range(count)]
    except Exception:  # no CuPy, no driver or no device: each means no GPU for this process
        return False
    if min_cuda_compute_capability is None:
        return count > 0
    # CuPy writes a capability as digits, major first: "86" is (8, 6), "100" is (10, 0)
    return any((int(c[:-1]), int(c[-1])) >= tuple(min_cuda_compute_capability) for c in capabilities)


def gpu_device_name():
    """"/device:GPU:0" when a GPU is available, else ""."""
    return "/device:GPU:0" if is_gpu_available() else ""


def session_device(use_gpu, force_gpu):
    """The device a test session runs on: the GPU when forced (a RuntimeError when there is none, as TF fails to
    place the ops) or when asked for and present, else the default device (the CPU unless the suite moved)."""
    if force_gpu or (use_gpu and is_gpu_available()):
        return "gpu"
    return default_device_name()
