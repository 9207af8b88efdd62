"""The devices a Session can run its graph on: "cpu" (numpy), "gpu" (CuPy), and any given to register_device.

Separate from session.py because a device is only a pair of transfers (to_device, to_host) and a setup
check; kernels find the array module from the arrays themselves (get_array_module).
"""
import contextlib

import numpy as np

import allreduce
from ..framework import dtypes


def register_device(name, to_device, to_host, setup=None, replace=False):
    """Make `Session(device=name)` run its graph on another array type.

    to_device(value) places a host value (numpy array or scalar) on the device and returns a device array
    as it is; to_host(array) returns a numpy copy of a device array (fetches pass through it at the end of
    a run). Kernels find the device's array module from their inputs (get_array_module), so the device's
    array type must be CuPy or name its module through `__array_namespace__`. `setup()`, where given, runs
    when a session opens (it may raise RuntimeError saying what is missing).
    """
    if name in _DEVICES and not replace:
        raise ValueError(f"Device {name!r} is already registered; pass replace=True to replace it")
    _DEVICES[name] = (to_device, to_host, setup)


_DEFAULT = ["cpu"]  # the device of a Session made without device=


@contextlib.contextmanager
def default_device(name):
    """Sessions made inside the block without device= run on `name` (a registered device): a whole program or
    test suite can move to another device without editing its sessions."""
    device_transfer(name)  # an unknown name fails here, naming the registered ones
    old, _DEFAULT[0] = _DEFAULT[0], name
    try:
        yield name
    finally:
        _DEFAULT[0] = old


def default_device_name():
    return _DEFAULT[0]


def device_transfer(device):
    try:
        to_device, to_host, setup = _DEVICES[device]
    except KeyError:
        raise ValueError(f"Unknown device {device!r}: use one of {sorted(_DEVICES)}") from None
    if setup is not None:
        setup()
    return to_device, to_host


def gpu_count():
    """How many CUDA GPUs CuPy sees from this process (0 without CuPy, a driver or a device)."""
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount()
    except Exception:  # no CuPy, no driver or no device: each means no GPU for this process
        return 0


def gpu_properties(ordinal):
    """GPU `ordinal` as its CUDA driver reports it: {"name", "compute_capability": (major, minor), "pci_bus_id"
    ("0000:00:04.0"), "memory" (bytes)}."""
    import cupy
    props = cupy.cuda.runtime.getDeviceProperties(ordinal)
    name = props["name"]
    return {"name": name.decode() if isinstance(name, bytes) else name,
            "compute_capability": (props["major"], props["minor"]),
            "pci_bus_id": f"{props['pciDomainID']:04x}:{props['pciBusID']:02x}:{props['pciDeviceID']:02x}.0",
            "memory": props["totalGlobalMem"]}


def _same(value):
    return value


def _gpu_setup():
    try:
        import cupy
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:
        raise RuntimeError(f"device='gpu' needs CuPy and a CUDA GPU ({exc}); install ringflow[gpu] "
                           "or use device='cpu'") from None
    # The one answer to "which GPU is mine", shared with the NCCL communicator (allreduce/devices.py).
    allreduce.devices.use_gpu()


def _to_gpu(value):
    import cupy
    # Strings have no GPU representation: they stay host object arrays.
    return value if getattr(value, "dtype", None) == dtypes.string else cupy.asarray(value)


def _to_host(value):
    return value.get() if hasattr(value, "get") and not isinstance(value, np.ndarray) else value


_DEVICES = {"cpu": (_same, _same, None), "gpu": (_to_gpu, _to_host, _gpu_setup)}
