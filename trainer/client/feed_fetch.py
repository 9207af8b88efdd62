"""What goes into and comes out of Session.run: fetch structures, fed values, fetched values.

Separate from plan.py because it is the boundary with the caller's Python values: nested fetches flattened
and rebuilt, fed values checked and converted to the tensor's dtype, fetched arrays handed back safely.
"""
import numpy as np

from ..framework import dtypes
from ..framework.operation import Operation
from ..framework.tensor import Tensor, format_shape
from ..ops.core_ops import as_string_array
from ..ops.indexed_slices import IndexedSlices, IndexedSlicesValue
from ..ops.sparse_tensor import SparseTensor, SparseTensorValue
from ..framework.registry import get_array_module, op_def


def feed_check(tensor, to_device):
    dtype, name = tensor.dtype, tensor.name
    shape = None if tensor.shape.ndims is None else tuple(tensor.shape.as_list())
    # An array of the placeholder's dtype and shape (any size where dim 0 is None), as a training loop feeds:
    # passed on after two comparisons instead of the checks below (about 1.5 us a feed).
    exact = dtype.dtype if dtype != dtypes.string else None  # the numpy dtype: `is` is a pointer test
    known = shape if shape is not None and None not in shape else False
    rest = shape[1:] if shape and shape[0] is None and None not in shape[1:] else False

    def check(value):
        if type(value) is np.ndarray and value.dtype is exact and (
                value.shape == known or value.shape[1:] == rest and value.ndim == len(shape)):
            return to_device(value)
        if dtype == dtypes.string:
            value = as_string_array(value)
        elif type(value) is not np.ndarray or value.dtype != dtype:
            if get_array_module(value) is not np:
                return value
            value = as_feed_array(value, dtype, name)
        if shape is not None and value.shape != shape and (
                value.ndim != len(shape) or any(s is not None and s != d for s, d in zip(shape, value.shape))):
            raise ValueError(f"Cannot feed value of shape {format_shape(value.shape)} for Tensor {name!r}, "
                             f"which has shape {format_shape(shape)}")
        return to_device(value)
    return check


def as_feed_array(value, dtype, name):
    """`value` converted to `dtype` as TF1's Session.run does (np.asarray(value, dtype)): floats fed to an
    int placeholder are truncated; a Python int that the dtype cannot hold, or a value numpy cannot convert
    at all (text into numbers), is refused."""
    if isinstance(value, int) and dtype.kind in "iu" and not np.iinfo(dtype).min <= value <= np.iinfo(dtype).max:
        raise TypeError(f"Cannot feed the Python int {value!r} to Tensor {name!r}, which has dtype {dtype.name} "
                        "and cannot hold it: give the placeholder a larger type (e.g. int64)")
    try:
        return np.asarray(value, dtype=dtype)
    except (TypeError, ValueError, OverflowError) as exc:
        kind = value.dtype.name if hasattr(value, "dtype") else type(value).__name__
        raise ValueError(f"Cannot feed value of type {kind} for Tensor {name!r}, which has dtype "
                         f"{dtype.name}: {exc}") from None


def aliases_state(tensor):
    """True when the tensor may share memory with a buffer that outlives the run (or a view of one)."""
    while True:
        d = op_def(tensor.op.type)
        if d.persistent or d.ref_inputs:
            return True
        if not d.view or not tensor.op.inputs:
            return False
        tensor = tensor.op.inputs[0]


def fetch_post(element, session):
    if not isinstance(element, Tensor):
        return None
    if element.dtype == dtypes.string:
        # TF1 returns a scalar string as bytes, and string arrays as object arrays of bytes; indexing one element
        # of an object array (a slice op) already gives the bytes.
        return lambda value: value if isinstance(value, bytes) else value[()] if value.ndim == 0 else value.copy()
    if session.device != "cpu":
        return lambda value: scalar_or(session.to_host(value))  # a new host array: nothing to copy
    if aliases_state(element):
        return lambda value: value[()] if np.ndim(value) == 0 else value.copy()
    return scalar_or


def scalar_or(value):
    """A 0-d value as the numpy scalar TF1's Session.run returns for it (np.float32(3.0), not array(3.0))."""
    return value[()] if np.ndim(value) == 0 else value


def flat_feeds(feed_dict):
    """The feeds with every composite key taken apart as TF1's Session.run does: a tuple of tensors (an
    LSTMStateTuple, a cell's nested state) is fed a value of the same structure, leaf by leaf
    (nest.flatten_dict_items), and a SparseTensor key (a sparse_placeholder) through its three parts, from a
    SparseTensorValue or an (indices, values, dense_shape) tuple."""
    if not any(isinstance(key, (tuple, SparseTensor)) for key in feed_dict):
        return feed_dict
    out = {}
    for key, value in feed_dict.items():
        for leaf, leaf_value in leaf_feeds(key, value):
            if leaf in out:
                raise ValueError(f"Could not flatten dictionary: key {leaf!r} is fed twice (once on its own or "
                                 f"in another tuple of feeds, once in {key!r}): feed each tensor once")
            out[leaf] = leaf_value
    return out


def leaf_feeds(key, value):
    """(tensor, value) pairs of one feed_dict item, composite keys taken apart (see flat_feeds)."""
    if isinstance(key, SparseTensor):
        if not isinstance(value, (tuple, list)) or len(value) != 3:
            raise TypeError(f"A SparseTensor is fed a SparseTensorValue or an (indices, values, dense_shape) "
                            f"tuple, got {type(value).__name__}: {value!r}")
        return list(zip((key.indices, key.values, key.dense_shape), value))
    if not isinstance(key, tuple):
        return [(key, value)]
    if not isinstance(value, (tuple, list)) or len(value) != len(key):
        size = len(value) if isinstance(value, (tuple, list)) else 1
        raise ValueError(f"Could not flatten dictionary. Key had {len(key)} elements, but value had {size} "
                         f"elements. Key: {key!r}, value: {value!r}. A tuple of tensors is fed a tuple (or list) "
                         "of values of the same structure, e.g. the state a previous run fetched")
    return [pair for k, v in zip(key, value) for pair in leaf_feeds(k, v)]


def flatten_fetches(fetches):
    """Leaves of a nested fetch structure, and a function that rebuilds it from their values."""
    if isinstance(fetches, (Tensor, Operation, str)):
        return [fetches], lambda values: values[0]
    if isinstance(fetches, SparseTensor):  # fetched as TF1 does: a SparseTensorValue of its three parts
        return [fetches.indices, fetches.values, fetches.dense_shape], lambda values: SparseTensorValue(*values)
    if isinstance(fetches, IndexedSlices):  # an IndexedSlicesValue, dense_shape None when it has none
        parts = [fetches.values, fetches.indices] + ([] if fetches.dense_shape is None else [fetches.dense_shape])
        return parts, lambda values: IndexedSlicesValue(*values, *([None] * (3 - len(values))))
    if isinstance(fetches, (list, tuple)):
        parts = [flatten_fetches(f) for f in fetches]
        leaves = [leaf for p in parts for leaf in p[0]]
        sizes = [len(p[0]) for p in parts]
        kind = type(fetches)

        def rebuild(values):
            out, start = [], 0
            for (_, rb), n in zip(parts, sizes):
                out.append(rb(values[start:start + n]))
                start += n
            return out if kind is list else (kind(*out) if hasattr(kind, "_fields") else kind(out))
        return leaves, rebuild
    if isinstance(fetches, dict):
        keys = list(fetches)
        leaves, rebuild_list = flatten_fetches([fetches[k] for k in keys])
        return leaves, lambda values: dict(zip(keys, rebuild_list(values)))
    if fetches is None:
        raise TypeError("Fetch argument None is invalid: fetch a Tensor, an Operation or a name")
    raise TypeError(f"Fetch argument {fetches!r} has invalid type {type(fetches).__name__}: fetch a Tensor, "
                    "an Operation, a name string, or a list/tuple/dict of them")
