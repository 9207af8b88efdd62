"""A strict device-array stand-in, so CPU CI catches what would fail on a GPU.

`StrictArray` wraps a numpy array and behaves like a CuPy array where it matters: numpy functions and
ufuncs dispatch to it (NEP 13/18, as CuPy implements them), but it refuses
  * implicit conversion to numpy (`np.asarray(x)` raises TypeError, as CuPy's "use .get()" does),
  * numpy ndarray operands of any rank mixed with it (numpy *scalars* and Python numbers are allowed,
    as CuPy allows them); the one exception is `x[...] = host_array`, which CuPy accepts as a copy,
  * ufunc methods other than `__call__`, `reduce` and `at`, and `at` of ufuncs other than add, maximum and
    minimum (CuPy's scatter kernels).
`xp` is its array module (what `get_array_module(x)` returns, like `cupy`): numpy's namespace whose array
results come back as StrictArrays and whose functions refuse host arrays except `asarray`/`array`.

`use()` registers the device "strict" with trainer.client.session.register_device; `Session(device="strict")`
then runs every op on StrictArrays and hands fetches back as numpy.
"""
import numbers
import types

import numpy as np
from numpy.lib.mixins import NDArrayOperatorsMixin

DEVICE = "strict"
_UFUNC_METHODS = {"__call__", "reduce", "at"}
_AT_UFUNCS = {"add", "maximum", "minimum"}  # the ufuncs CuPy gives an `at` (its scatter kernels)


class StrictArray(NDArrayOperatorsMixin):
    __slots__ = ("_a",)

    def __init__(self, array):
        self._a = array

    def __array__(self, dtype=None, copy=None):
        raise TypeError("Implicit conversion of a StrictArray (a stand-in for a device array) to a numpy "
                        "array is not allowed: a kernel mixed host and device data; use the inputs' array "
                        "module (get_array_module) or session.to_host")

    def __array_namespace__(self, api_version=None):
        return xp

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if method not in _UFUNC_METHODS:
            return NotImplemented
        if method == "at" and ufunc.__name__ not in _AT_UFUNCS:
            raise TypeError(f"{ufunc.__name__}.at on a StrictArray: CuPy has `at` only for "
                            f"{sorted(_AT_UFUNCS)}; use trainer.ops.kernels.scatter_at.ufunc_at")
        out = kwargs.get("out")
        if out is not None:
            kwargs["out"] = tuple(_unwrap(o, ufunc.__name__) for o in out)
        result = getattr(ufunc, method)(*[_unwrap(x, ufunc.__name__) for x in inputs], **kwargs)
        if out is not None and len(out) == 1 and method != "at":
            return out[0]  # like numpy and CuPy, out= returns the very array it was given
        return _wrap(result)

    def __array_function__(self, func, types_, args, kwargs):
        name = func.__name__
        return _wrap(func(*_unwrap_all(args, name), **_unwrap_all(kwargs, name)))

    def __getattr__(self, name):
        if name.startswith("__"):  # numpy probes __array_interface__ & co: a device array has none
            raise AttributeError(name)
        value = getattr(self._a, name)
        if callable(value):
            return lambda *args, **kwargs: _wrap(value(*_unwrap_all(args, name), **_unwrap_all(kwargs, name)))
        return _wrap(value)

    def __getitem__(self, index):
        return _wrap(self._a[_unwrap_all(index, "__getitem__")])

    def __setitem__(self, index, value):
        self._a[_unwrap_all(index, "__setitem__")] = value._a if isinstance(value, StrictArray) else value

    def __len__(self):
        return len(self._a)

    def __iter__(self):
        return (_wrap(x) for x in self._a)

    def __bool__(self):
        return bool(self._a)

    def __float__(self):
        return float(self._a)

    def __int__(self):
        return int(self._a)

    def __index__(self):
        return self._a.__index__()

    def __repr__(self):
        return f"StrictArray({self._a!r})"

    def get(self):
        """The host copy (CuPy's ndarray.get)."""
        return self._a.copy()


def _unwrap(x, where):
    if isinstance(x, StrictArray):
        return x._a
    if isinstance(x, np.ndarray):
        raise TypeError(f"{where}: a numpy array of shape {x.shape} met a StrictArray (a stand-in for a device "
                        "array); CuPy refuses mixing them: build it with the inputs' array module")
    return x


def _unwrap_all(value, where):
    if isinstance(value, (tuple, list)):
        return type(value)(_unwrap_all(v, where) for v in value)
    if isinstance(value, dict):
        return {k: _unwrap_all(v, where) for k, v in value.items()}
    return _unwrap(value, where)


def _wrap(value):
    if isinstance(value, np.ndarray):
        return StrictArray(value)
    if isinstance(value, np.generic) and not isinstance(value, (np.str_, np.bytes_)):
        return StrictArray(np.asarray(value))  # CuPy returns 0-d device arrays, never numpy scalars
    if isinstance(value, tuple):
        return tuple(_wrap(v) for v in value)
    if isinstance(value, list) and value and isinstance(value[0], np.ndarray):
        return [_wrap(v) for v in value]
    return value


class _Namespace(types.SimpleNamespace):
    """A numpy (sub)module seen from the device: array results wrapped, host array arguments refused."""

    def __init__(self, module, host_ok=()):
        super().__init__()
        object.__setattr__(self, "_module", module)
        object.__setattr__(self, "_host_ok", set(host_ok))

    def __getattr__(self, name):
        value = getattr(self._module, name)
        if isinstance(value, types.ModuleType):
            return _Namespace(value)
        if isinstance(value, (type, np.ufunc, numbers.Number)) or not callable(value):
            return value  # dtypes, ufuncs (they dispatch through __array_ufunc__), constants
        if name in self._host_ok:
            return lambda obj, *args, **kwargs: _wrap(value(obj._a if isinstance(obj, StrictArray) else obj,
                                                            *args, **kwargs))
        return lambda *args, **kwargs: _wrap(value(*_unwrap_all(args, name), **_unwrap_all(kwargs, name)))


xp = _Namespace(np, host_ok=("asarray", "array", "ascontiguousarray"))


def to_device(value):
    if isinstance(value, StrictArray):
        return value
    value = np.asarray(value)
    if value.dtype.kind in "OSU":  # strings stay host arrays, as on a GPU
        return value
    return StrictArray(value.copy())


def to_host(value):
    return value.get() if isinstance(value, StrictArray) else value


def use():
    """Register the "strict" device (idempotent); returns its name for Session(device=...)."""
    from trainer.client.devices import register_device
    register_device(DEVICE, to_device, to_host, replace=True)
    return DEVICE
