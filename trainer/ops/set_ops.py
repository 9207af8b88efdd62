"""tf.sets: set operations along the last dimension of dense or sparse tensors (each row of the batch a set), the
result a SparseTensor of each row's members in sorted order, as TF1's set ops give them."""
import numpy as np

from ..framework import dtypes
from ..framework.registry import apply_op, host_kernel, register
from ..platform.errors import InvalidArgumentError
from .core_ops import convert_to_tensor
from .sparse_tensor import SparseTensor, is_sparse

KINDS = (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16, dtypes.string)
OPERATIONS = {"intersection": set.intersection, "union": set.union, "a-b": set.difference,
              "b-a": lambda a, b: b - a}


def _rows(parts, sparse):
    """({batch index: set of members}, batch shape) of a dense array or a sparse tensor's three parts."""
    if not sparse:
        x = parts[0]
        if x.ndim < 2:
            raise InvalidArgumentError(f"Invalid input rank {x.ndim}: a set operation needs rank >= 2 (a batch of "
                                       "sets along the last dimension)")
        flat = x.reshape(-1, x.shape[-1])
        return {index: set(row.tolist()) for index, row in zip(np.ndindex(x.shape[:-1]), flat)}, x.shape[:-1]
    indices, values, shape = parts
    if len(shape) < 2:
        raise InvalidArgumentError(f"Invalid input rank {len(shape)}: a set operation needs rank >= 2")
    rows = {}
    for index, value in zip(map(tuple, indices[:, :-1].tolist()), values.tolist()):
        rows.setdefault(index, set()).add(value)
    return rows, tuple(int(d) for d in shape[:-1])


def _as_sparse(rows, batch_shape, dtype):
    members = [sorted(rows.get(index, ())) for index in np.ndindex(*batch_shape)]
    width = max((len(m) for m in members), default=0)
    indices = [[*index, j] for index, m in zip(np.ndindex(*batch_shape), members) for j in range(len(m))]
    values = np.array([v for m in members for v in m] + [None], dtype=object)[:-1].astype(dtype)
    return (np.array(indices, np.int64).reshape(-1, len(batch_shape) + 1), values,
            np.array([*batch_shape, width], np.int64))


def _set_operation(*arrays, set_operation, a_sparse, b_sparse):
    split = 3 if a_sparse else 1
    a, a_batch = _rows(arrays[:split], a_sparse)
    b, b_batch = _rows(arrays[split:], b_sparse)
    if tuple(a_batch) != tuple(b_batch):
        raise InvalidArgumentError(f"Shapes do not match: the sets of a have batch shape {list(a_batch)}, those of "
                                   f"b {list(b_batch)}")
    dtype = (arrays[1] if a_sparse else arrays[0]).dtype
    out = {index: OPERATIONS[set_operation](a.get(index, set()), b.get(index, set())) for index in np.ndindex(
        *a_batch)}
    return _as_sparse(out, tuple(a_batch), dtype)


def _infer(*inputs, set_operation, a_sparse, b_sparse):
    rank = (inputs[2].shape.as_list()[0] if inputs[2].ndim == 1 else None) if a_sparse else inputs[0].ndim
    values = inputs[1] if a_sparse else inputs[0]
    return [((None, rank), dtypes.int64), ((None,), values.dtype), ((rank,), dtypes.int64)]


register("SetOperation", kernel=host_kernel(_set_operation), infer=_infer)


def _parts(x, what):
    if is_sparse(x):
        sp = SparseTensor.from_value(x)
        return [sp.indices, sp.values, sp.dense_shape], True, sp.dtype
    x = convert_to_tensor(x)
    if x.ndim is not None and x.ndim < 2:
        raise ValueError(f"{what}: a set operation needs a tensor of rank >= 2 (a batch of sets along the last "
                         f"dimension), got {x.name!r} of shape {x.shape}")
    return [x], False, x.dtype


def _operate(a, b, operation, what):
    if is_sparse(a) and not is_sparse(b):  # TF takes the dense operand first
        a, b = b, a
        operation = {"a-b": "b-a", "b-a": "a-b"}.get(operation, operation)
    a_parts, a_sparse, a_dtype = _parts(a, what)
    b_parts, b_sparse, b_dtype = _parts(b, what)
    if a_dtype != b_dtype:
        raise TypeError(f"{what}: the operands' types differ: {a_dtype.name} and {b_dtype.name}")
    if a_dtype not in KINDS:
        raise TypeError(f"{what}: invalid dtype {a_dtype.name}: sets hold integers or strings")
    a_shape, b_shape = a_parts[0].shape, b_parts[0].shape
    if not a_sparse and not b_sparse and a_shape.ndims is not None and b_shape.ndims is not None and \
            not a_shape[:-1].is_compatible_with(b_shape[:-1]):
        raise ValueError(f"{what}: the batch shapes {a_shape[:-1]} and {b_shape[:-1]} of the operands differ: "
                         "every row of a needs its row of b")
    indices, values, shape = apply_op("SetOperation", a_parts + b_parts, name=what, set_operation=operation,
                                      a_sparse=a_sparse, b_sparse=b_sparse)
    return SparseTensor(indices, values, shape)


def set_intersection(a, b, validate_indices=True):
    """The members each row of `a` and `b` (dense or sparse, sets along the last dimension) share."""
    return _operate(a, b, "intersection", "set_intersection")


def set_union(a, b, validate_indices=True):
    """The members of each row of `a` or `b`."""
    return _operate(a, b, "union", "set_union")


def set_difference(a, b, aminusb=True, validate_indices=True):
    """The members of each row of `a` not in `b` (of `b` not in `a` when aminusb is False)."""
    return _operate(a, b, "a-b" if aminusb else "b-a", "set_difference")


def _set_size(indices, values, shape):
    rows, batch = _rows([indices, values, shape], True)
    return np.array([len(rows.get(index, ())) for index in np.ndindex(*batch)], np.int32).reshape(batch)


register("SetSize", kernel=host_kernel(_set_size), infer=lambda i, v, s: [(None, dtypes.int32)])  # TF: rank unknown


def set_size(a, validate_indices=True):
    """The number of distinct members of each row of the SparseTensor `a` (int32, a's batch shape)."""
    if not is_sparse(a):
        raise TypeError(f"Expected `SparseTensor`, got {a!r}: tf.sets.size takes a SparseTensor")
    sp = SparseTensor.from_value(a)
    if sp.dtype not in KINDS:
        raise TypeError(f"Invalid dtype {sp.dtype.name}: sets hold integers or strings")
    return apply_op("SetSize", [sp.indices, sp.values, sp.dense_shape], name="SetSize")
