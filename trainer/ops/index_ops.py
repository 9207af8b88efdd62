"""Index arithmetic: roll (a cyclic shift, undone by its gradient), invert_permutation, setdiff1d, bincount and
meshgrid."""
import collections

import numpy as np

from ..framework.registry import host_kernel
from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from ..framework.registry import apply_op, register
from ..platform.errors import InvalidArgumentError
from .array_ops import cast, reshape
from .core_ops import convert_to_tensor
from .reduction_ops import reduce_max
from .math_ops import ones_like
from .tensor_util import constant_value


def _roll(x, shift, axis):
    if shift.shape != axis.shape:
        raise InvalidArgumentError(f"roll: shift {shift.tolist()} and axis {axis.tolist()} must have one shape")
    if axis.size and (axis.min() < -x.ndim or axis.max() >= x.ndim):
        raise InvalidArgumentError(f"roll: axis {axis.tolist()} is out of range for a tensor of rank {x.ndim}")
    return np.roll(x, tuple(np.ravel(shift)), tuple(np.ravel(axis))) if axis.size else x.copy()


def _invert_permutation(p):
    if p.ndim != 1:
        raise InvalidArgumentError(f"invert_permutation needs a vector, got shape {p.shape}")
    if sorted(p.tolist()) != list(range(p.size)):
        raise InvalidArgumentError(f"invert_permutation: {p.tolist()} is not a permutation of 0..{p.size - 1}")
    out = np.empty_like(p)
    out[p] = np.arange(p.size, dtype=p.dtype)
    return out


def _setdiff1d(x, y, index_dtype):
    keep = ~np.isin(x, y)
    return x[keep], np.flatnonzero(keep).astype(index_dtype)


def _bincount(arr, size, weights, dtype):
    if arr.size and arr.min() < 0:
        raise InvalidArgumentError(f"bincount: input must be non-negative, got {int(arr.min())}")
    flat = arr.reshape(-1)
    keep = flat < size
    counted = np.bincount(flat[keep], weights=None if weights.size == 0 else weights.reshape(-1)[keep],
                          minlength=int(size))[:int(size)]
    return counted.astype(dtype)


register("Roll", kernel=host_kernel(_roll), infer=lambda x, s, a: [(x.shape, x.dtype)], fresh=True,
         grad=lambda op, g: [roll(g, -op.inputs[1], op.inputs[2]), None, None])
register("InvertPermutation", kernel=host_kernel(_invert_permutation), infer=lambda p: [(p.shape, p.dtype)], fresh=True)
register("ListDiff", kernel=host_kernel(_setdiff1d), fresh=True,
         infer=lambda x, y, index_dtype: [((None,), x.dtype), ((None,), index_dtype)])
register("Bincount", kernel=host_kernel(_bincount), fresh=True,
         infer=lambda a, size, w, dtype: [(_known_length(size), dtype)])


def _known_length(size):
    known = constant_value(size)
    return (None if known is None else int(known),)


def roll(input, shift, axis, name=None):  # noqa: A002 - TF1's name
    """`input` shifted cyclically by `shift` along `axis` (each a scalar or a vector of the same length)."""
    x = convert_to_tensor(input)
    shift, axis = convert_to_tensor(shift), convert_to_tensor(axis)
    for what, t in (("shift", shift), ("axis", axis)):
        if t.dtype.kind not in "iu":
            raise TypeError(f"roll needs an integer {what}, got {t.name!r} of dtype {t.dtype.name}")
    if shift.ndim is not None and shift.ndim > 1 or axis.ndim is not None and axis.ndim > 1:
        raise ValueError(f"roll: shift and axis must be scalars or vectors, got shapes {shift.shape}, {axis.shape}")
    return apply_op("Roll", [x, shift, axis], name=name or "Roll")


def invert_permutation(x, name=None):
    """y with y[x[i]] = i, for an int32/int64 vector x holding a permutation of 0..n-1."""
    x = convert_to_tensor(x)
    if x.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"invert_permutation needs an int32 or int64 vector, got {x.name!r} of dtype {x.dtype.name}")
    if x.ndim is not None and x.ndim != 1:
        raise ValueError(f"invert_permutation needs a vector, got {x.name!r} of shape {x.shape}")
    return apply_op("InvertPermutation", [x], name=name or "InvertPermutation")


# TF1's generated op wrapper returns its outputs as this namedtuple (sess.run keeps it, and its repr shows it)
ListDiff = collections.namedtuple("ListDiff", ["out", "idx"])


def setdiff1d(x, y, index_dtype=dtypes.int32, name=None):
    """ListDiff(out, idx): the elements of vector x not in y, in x's order, and their positions in x."""
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, dtype=x.dtype)
    for t in (x, y):
        if t.ndim is not None and t.ndim != 1:
            raise ValueError(f"setdiff1d needs vectors, got {t.name!r} of shape {t.shape}")
    return ListDiff(*apply_op("ListDiff", [x, y], name=name or "ListDiff", index_dtype=dtypes.as_dtype(index_dtype)))


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32, name=None):
    """How often each value 0..n-1 occurs in the non-negative int32 `arr` (summing `weights` when given); n is
    max(arr) + 1, at least `minlength` and at most `maxlength`."""
    with name_scope(name or "bincount"):
        arr = convert_to_tensor(arr)
        if arr.dtype not in (dtypes.int32, dtypes.int64):
            raise TypeError(f"bincount needs an int32 or int64 input, got {arr.name!r} of dtype {arr.dtype.name}")
        size = _bincount_size(arr, minlength, maxlength)
        if weights is not None:
            weights = convert_to_tensor(weights)
            dtype = weights.dtype
        else:
            weights = convert_to_tensor(np.zeros(0, dtypes.as_dtype(dtype)))
        return apply_op("Bincount", [arr, size, weights], dtype=dtypes.as_dtype(dtype))


def _bincount_size(arr, minlength, maxlength):
    """max(arr) + 1 bounded by minlength and maxlength: a constant when all are known (TF folds it, and the output's
    static shape is known), else computed in the graph."""
    known = [constant_value(v) for v in (arr, minlength, maxlength)]
    if all(k is not None for k in known):
        size = int(known[0].max()) + 1 if known[0].size else 0
        size = max(size, 0 if minlength is None else int(known[1]))
        return convert_to_tensor(np.int32(size if maxlength is None else min(size, int(known[2]))))
    size = convert_to_tensor(0) if arr.shape.num_elements() == 0 else cast(reduce_max(arr), dtypes.int32) + 1
    size = apply_op("Maximum", [size, convert_to_tensor(0)])
    if minlength is not None:
        size = apply_op("Maximum", [size, convert_to_tensor(minlength, dtype=dtypes.int32)])
    if maxlength is not None:
        size = apply_op("Minimum", [size, convert_to_tensor(maxlength, dtype=dtypes.int32)])
    return size


def meshgrid(*args, **kwargs):
    """Coordinate arrays from 1-D tensors: indexing="xy" (the default) swaps the first two output dims, "ij" not."""
    indexing, name = kwargs.pop("indexing", "xy"), kwargs.pop("name", "meshgrid")
    if kwargs:
        raise TypeError(f"meshgrid got unexpected keyword arguments {sorted(kwargs)}; it takes indexing and name")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
    with name_scope(name):
        tensors = [convert_to_tensor(a) for a in args]
        n = len(tensors)
        if n == 0:
            return []
        shapes = [[1] * i + [-1] + [1] * (n - i - 1) for i in range(n)]
        if indexing == "xy" and n > 1:
            shapes[0][:2], shapes[1][:2] = [1, -1], [-1, 1]
        columns = [reshape(t, s) for t, s in zip(tensors, shapes)]
        ones = ones_like(columns[0])
        for c in columns[1:]:
            ones = ones * ones_like(c, dtype=ones.dtype)
        return [c * ones for c in columns]
