"""A CuPy + NCCL stand-in for CPU tests, installed into sys.modules by `install(monkeypatch, ...)`.

Device arrays wrap numpy arrays but, like CuPy's, refuse implicit conversion (np.asarray raises, a numpy
array cannot be assigned into them). Every device->host copy and every host wait is counted in `COUNTS`, so a
test can assert that a step makes no host round trip. The fake NCCL communicator reduces through mpi4py on
MPI.COMM_WORLD. The CUDA runtime honours CUDA_VISIBLE_DEVICES over a list of physical PCI bus ids.
"""
import os
import types

import numpy as np
from mpi4py import MPI

COUNTS = {"to_host": 0, "to_device": 0, "host_waits": 0, "nccl_calls": 0, "groups": 0}
_BY_PTR = {}


def _raw(value):
    if isinstance(value, np.ndarray):
        raise TypeError("Unsupported type <class 'numpy.ndarray'>: a numpy array met a device array")
    return value._a if isinstance(value, ndarray) else value


class _Pointer:
    def __init__(self, a):
        self.ptr = a.__array_interface__["data"][0]
        _BY_PTR[self.ptr] = a


class ndarray:
    __module__ = "cupy._core.core"

    def __init__(self, a):
        self._a = a

    shape = property(lambda self: self._a.shape)
    dtype = property(lambda self: self._a.dtype)
    size = property(lambda self: self._a.size)
    nbytes = property(lambda self: self._a.nbytes)
    ndim = property(lambda self: self._a.ndim)
    flags = property(lambda self: self._a.flags)
    data = property(lambda self: _Pointer(self._a))

    def __array__(self, *args, **kwargs):
        raise TypeError("Implicit conversion to a NumPy array is not allowed. Please use `.get()`")

    def __getitem__(self, key):
        return ndarray(self._a[key])

    def __setitem__(self, key, value):
        self._a[key] = _raw(value)

    def fill(self, value):
        self._a.fill(value)

    def reshape(self, *shape):
        return ndarray(self._a.reshape(*shape))

    def copy(self):
        return ndarray(self._a.copy())

    def astype(self, dtype, order="K", casting=None, subok=None, copy=True):  # CuPy's documented signature
        result = self._a.astype(dtype, order=order, copy=copy)
        return self if result is self._a else ndarray(result)

    def get(self, stream=None, out=None):
        COUNTS["to_host"] += 1
        if out is None:
            return self._a.copy()
        out[...] = self._a
        return out

    def set(self, arr, stream=None):
        COUNTS["to_device"] += 1
        self._a[...] = arr

    def __bool__(self):
        COUNTS["host_waits"] += 1
        return bool(self._a)

    def __float__(self):
        COUNTS["host_waits"] += 1
        return float(self._a)


def _binary(ufunc):
    def method(self, other):
        return ndarray(ufunc(self._a, _raw(other)))
    return method


for _name, _ufunc in [("__add__", np.add), ("__sub__", np.subtract), ("__mul__", np.multiply),
                      ("__truediv__", np.true_divide), ("__floordiv__", np.floor_divide), ("__eq__", np.equal),
                      ("__ne__", np.not_equal)]:
    setattr(ndarray, _name, _binary(_ufunc))


def _module_ufunc(ufunc):
    def fn(*args, out=None):
        result = ufunc(*[_raw(a) for a in args], **({} if out is None else {"out": _raw(out)}))
        return out if out is not None else ndarray(result)
    return fn


def _make_cupy(physical, nccl_available, with_avg):
    cp = types.ModuleType("cupy")
    cp.__version__ = "fake"
    cp.ndarray = ndarray
    cp.float16, cp.float32, cp.float64 = np.float16, np.float32, np.float64
    cp.zeros = lambda shape, dtype=float: ndarray(np.zeros(shape, dtype))
    cp.empty = lambda shape, dtype=float: ndarray(np.empty(shape, dtype))
    cp.empty_like = lambda a: ndarray(np.empty_like(a._a))
    cp.ascontiguousarray = lambda a: ndarray(np.ascontiguousarray(a._a))
    cp.where = lambda c, x, y: ndarray(np.where(_raw(c), _raw(x), _raw(y)))
    for name in ("multiply", "divide", "sign", "abs", "add"):
        setattr(cp, name, _module_ufunc(getattr(np, name)))

    def asarray(value, dtype=None):
        if isinstance(value, ndarray):
            return value if dtype is None else value.astype(dtype)
        COUNTS["to_device"] += 1
        return ndarray(np.array(value, dtype=dtype))
    cp.asarray = asarray

    def asnumpy(a):
        COUNTS["to_host"] += 1
        return a._a.copy()
    cp.asnumpy = asnumpy

    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    buses = list(physical) if visible is None else [physical[int(i)] for i in visible.split(",") if i.strip()]
    current = {"device": 0}
    runtime = types.SimpleNamespace(getDeviceCount=lambda: len(buses), deviceGetPCIBusId=lambda i: buses[i].lower())

    class Device:
        def __init__(self, index=None):
            self.id = current["device"] if index is None else index
            if not 0 <= self.id < len(buses):
                raise RuntimeError(f"cudaErrorInvalidDevice: invalid device ordinal {self.id}")

        def use(self):
            current["device"] = self.id

    class Event:
        def synchronize(self):
            COUNTS["host_waits"] += 1

    class Stream:
        ptr = 0

        def __init__(self, non_blocking=False):
            self.waits = 0

        def record(self, event=None):
            return event or Event()

        def wait_event(self, event):
            self.waits += 1

        def synchronize(self):
            COUNTS["host_waits"] += 1

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return None

    default_stream = Stream()
    nccl = types.ModuleType("cupy.cuda.nccl")
    nccl.available = nccl_available
    for i, name in enumerate(["NCCL_SUM", "NCCL_PROD", "NCCL_MAX", "NCCL_MIN"] + ["NCCL_AVG"] * with_avg):
        setattr(nccl, name, i)
    types_ = ["NCCL_INT8", "NCCL_UINT8", "NCCL_INT32", "NCCL_UINT32", "NCCL_INT64", "NCCL_UINT64", "NCCL_FLOAT16",
              "NCCL_FLOAT32", "NCCL_FLOAT64"]
    for i, name in enumerate(types_):
        setattr(nccl, name, i)

    def get_unique_id():
        if not nccl_available:
            raise RuntimeError("NCCL_ERROR_UNHANDLED_CUDA_ERROR: this CuPy has no NCCL")
        return (7,) * 4
    nccl.get_unique_id = get_unique_id
    nccl.get_version = lambda: 22000

    def group_start():
        COUNTS["groups"] += 1
    nccl.groupStart, nccl.groupEnd = group_start, lambda: None

    class NcclCommunicator:
        def __init__(self, ndev, uid, rank):
            self.world = MPI.COMM_WORLD
            assert (ndev, rank) == (self.world.size, self.world.rank), "the fake NCCL runs on COMM_WORLD"

        def allReduce(self, send, recv, count, datatype, op, stream):
            COUNTS["nccl_calls"] += 1
            src, dst = _BY_PTR[send].reshape(-1)[:count], _BY_PTR[recv].reshape(-1)[:count]
            total = np.empty_like(src)
            mpi_op = {nccl.NCCL_SUM: MPI.SUM, nccl.NCCL_MAX: MPI.MAX, nccl.NCCL_MIN: MPI.MIN}.get(op, MPI.SUM)
            self.world.Allreduce(np.ascontiguousarray(src), total, op=mpi_op)
            if with_avg and op == nccl.NCCL_AVG:
                size = self.world.size
                total = total / size if total.dtype.kind == "f" else np.sign(total) * (np.abs(total) // size)
            dst[...] = total

    nccl.NcclCommunicator = NcclCommunicator
    cuda = types.ModuleType("cupy.cuda")
    cuda.runtime, cuda.Device, cuda.Stream, cuda.Event, cuda.nccl = runtime, Device, Stream, Event, nccl
    cuda.get_current_stream = lambda: default_stream
    cp.cuda = cuda
    cp.current_device = lambda: current["device"]
    cupyx = types.ModuleType("cupyx")
    cupyx.empty_pinned = lambda shape, dtype=float: np.empty(shape, dtype)
    return cp, cuda, nccl, cupyx


def install(monkeypatch, physical=("0000:01:00.0",), nccl_available=True, with_avg=True):
    """Put a fake cupy (GPUs with these PCI bus ids) into sys.modules; returns it. Counters start at 0."""
    cp, cuda, nccl, cupyx = _make_cupy(physical, nccl_available, with_avg)
    for name, module in [("cupy", cp), ("cupy.cuda", cuda), ("cupy.cuda.nccl", nccl), ("cupyx", cupyx)]:
        monkeypatch.setitem(__import__("sys").modules, name, module)
    for key in COUNTS:
        COUNTS[key] = 0
    return cp


def clear_launcher(monkeypatch):
    from allreduce import launcher
    for name in launcher.VARIABLES + ("CUDA_VISIBLE_DEVICES",):
        monkeypatch.delenv(name, raising=False)
