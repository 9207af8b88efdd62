"""`ufunc.at` (unbuffered in-place updates at indices, repeated indices compounding) on host or device arrays.

CuPy implements `at` for add, maximum and minimum only (its scatter kernels). subtract is add of the negated
updates; multiply and divide have no device form, so they run on the host and the result is copied back: one
round trip, which only the rare scatter_mul/scatter_div of a device-resident variable pays.
"""
import numpy as np

from ...framework.registry import get_array_module, to_numpy

DEVICE_AT = {"add", "maximum", "minimum"}  # the ufuncs CuPy gives an `at`


def ufunc_at(name, target, indices, updates):
    """numpy's `<name>.at(target, indices, updates)`, in place, wherever target lives."""
    xp = get_array_module(target)
    if xp is np:
        return getattr(np, name).at(target, indices, updates)
    if name in DEVICE_AT:
        return getattr(xp, name).at(target, indices, updates)
    if name == "subtract":
        return xp.add.at(target, indices, -updates)
    host = target.get()
    getattr(np, name).at(host, indices.get(), to_numpy(updates))
    target[...] = xp.asarray(host)
