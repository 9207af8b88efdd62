"""The other segment reductions: max, min and prod (sorted and unsorted), and the unsorted mean and sqrt_n.

Empty segments hold what TF1's do: in the unsorted forms the reduction's identity (the dtype's lowest value for max,
its highest for min, 1 for prod, 0 for the mean and sqrt_n), in the sorted ones 0 (1 for prod). Max and min send
the gradient to the rows that attain the extreme, shared equally between ties, as TF1's _SegmentMinOrMaxGrad does.
"""
import numpy as np

from ..framework.registry import host_kernel
from ..framework.graph_wrappers import name_scope
from ..framework.registry import apply_op, get_array_module, register
from ..platform.errors import InvalidArgumentError
from .array_ops import cast
from .core_ops import convert_to_tensor
from .gather_ops import gather
from .kernels.scatter_at import ufunc_at
from .math_ops import divide, equal, maximum, ones_like, sqrt, where, zeros_like
from .segment_ops import segment_sum, unsorted_segment_sum
from .shape_ops import expand_dims
from .tensor_util import constant_value, static_shape

REDUCERS = {"Max": "maximum", "Min": "minimum", "Prod": "multiply"}


def _identity(kind, dtype):
    if kind == "Prod":
        return np.ones((), dtype)
    info = np.finfo(dtype) if np.dtype(dtype).kind == "f" else np.iinfo(dtype)
    return np.array(info.min if kind == "Max" else info.max, dtype)


def _reduce(kind, data, ids, num):
    if ids.size and ids.max() >= num:
        raise InvalidArgumentError(f"segment id {int(ids.max())} is not in [0, {num}): there are only {num} "
                                   "segments")
    out = get_array_module(data).full((num, *data.shape[ids.ndim:]), _identity(kind, data.dtype))
    keep = ids >= 0
    ufunc_at(REDUCERS[kind], out, ids[keep], data[keep])
    return out


def _sorted_count(ids):
    if ids.ndim != 1:
        raise InvalidArgumentError(f"segment ids must be a vector, got shape {ids.shape}")
    if ids.size and (ids.min() < 0 or np.any(np.diff(ids) < 0)):
        raise InvalidArgumentError(f"segment ids must be non-negative and sorted, got {ids!r}; use the "
                                   "unsorted_segment_* form for ids in any order")
    return int(ids[-1]) + 1 if ids.size else 0


def _sorted_reduce(kind, data, ids):
    """The sorted form: TF1 gives an empty segment 0 for max and min (1 for prod), not the unsorted identity."""
    num = _sorted_count(ids)
    out = _reduce(kind, data, ids, num)
    if kind != "Prod":
        empty = np.bincount(ids, minlength=num) == 0
        out[empty] = 0
    return out


def _infer(data, ids, *num):
    d, i = static_shape(data), static_shape(ids)
    rows = None
    if num:
        known = constant_value(num[0])
        rows = None if known is None else int(known)
    return [(None if d is None or i is None else (rows, *d[len(i):]), data.dtype)]


def _gather_rows(g, ids):
    """g's rows at ids, zeros where an id is negative (rows an unsorted reduction drops)."""
    picked = gather(g, maximum(ids, zeros_like(ids)))
    valid = ids >= 0
    for _ in range((g.ndim or 1) - 1):
        valid = expand_dims(valid, -1)
    return where(valid, picked, zeros_like(picked))


def _extreme_grad(sorted_ids):
    def grad(op, g):
        data, ids = op.inputs[:2]
        chosen = equal(data, _gather_rows(op.outputs[0], ids))
        counts = _sum(cast(chosen, g.dtype), ids, op.inputs[2:], sorted_ids)
        share = _gather_rows(divide(g, maximum(counts, ones_like(counts))), ids)
        return [where(chosen, share, zeros_like(share)), None] + [None] * (len(op.inputs) - 2)
    return grad


def _prod_grad(sorted_ids):
    def grad(op, g):
        data, ids = op.inputs[:2]
        is_zero = equal(data, zeros_like(data))
        zeros = _sum(cast(is_zero, g.dtype), ids, op.inputs[2:], sorted_ids)
        safe = where(is_zero, ones_like(data), data)
        product_of_others = where(is_zero, _gather_rows(_prod(safe, ids, op.inputs[2:], sorted_ids), ids),
                                  _gather_rows(op.outputs[0], ids) / safe)
        lone_zero = _gather_rows(zeros, ids) <= 1.0
        others = where(is_zero, where(lone_zero, product_of_others, zeros_like(data)),
                       product_of_others)
        return [others * _gather_rows(g, ids), None] + [None] * (len(op.inputs) - 2)
    return grad


def _sum(x, ids, num, sorted_ids):
    return segment_sum(x, ids) if sorted_ids else unsorted_segment_sum(x, ids, num[0])


def _prod(x, ids, num, sorted_ids):
    return apply_op("SegmentProd", [x, ids]) if sorted_ids else apply_op("UnsortedSegmentProd", [x, ids, num[0]])


for _kind in REDUCERS:
    register(f"Segment{_kind}", kernel=host_kernel(lambda data, ids, kind=_kind: _sorted_reduce(kind, data, ids)),
             infer=_infer, fresh=True, grad=_prod_grad(True) if _kind == "Prod" else _extreme_grad(True))
    register(f"UnsortedSegment{_kind}",
             kernel=host_kernel(lambda data, ids, num, kind=_kind: _reduce(kind, data, ids, int(num))),
             infer=_infer, fresh=True, grad=_prod_grad(False) if _kind == "Prod" else _extreme_grad(False))


def _checked(data, segment_ids, what):
    data, ids = convert_to_tensor(data), convert_to_tensor(segment_ids)
    if ids.dtype.kind not in "iu":
        raise TypeError(f"{what} needs integer segment ids, got {ids.name!r} of dtype {ids.dtype.name}")
    if data.dtype.kind not in "iuf":
        raise TypeError(f"{what} needs real numbers, got {data.name!r} of dtype {data.dtype.name}")
    return data, ids


def _sorted_builder(kind):
    def build(data, segment_ids, name=None):
        data, ids = _checked(data, segment_ids, f"segment_{kind.lower()}")
        return apply_op(f"Segment{kind}", [data, ids], name=name or f"Segment{kind}")
    build.__name__ = build.__qualname__ = f"segment_{kind.lower()}"
    build.__doc__ = (f"out[i] = {kind.lower()} of data's rows whose (sorted, non-negative) id is i; an id with no "
                     "rows holds the reduction's identity.")
    return build


def _unsorted_builder(kind):
    def build(data, segment_ids, num_segments, name=None):
        data, ids = _checked(data, segment_ids, f"unsorted_segment_{kind.lower()}")
        num = convert_to_tensor(num_segments)
        return apply_op(f"UnsortedSegment{kind}", [data, ids, num], name=name or f"UnsortedSegment{kind}")
    build.__name__ = build.__qualname__ = f"unsorted_segment_{kind.lower()}"
    build.__doc__ = (f"out[i] = {kind.lower()} of data[j...] where segment_ids[j...] == i, ids in any order "
                     "(negative ids dropped); an id with no rows holds the reduction's identity.")
    return build


segment_max, segment_min, segment_prod = (_sorted_builder(k) for k in REDUCERS)
unsorted_segment_max, unsorted_segment_min, unsorted_segment_prod = (_unsorted_builder(k) for k in REDUCERS)


def _unsorted_count(data, ids, num_segments):
    ones = ones_like(ids, dtype=data.dtype)
    counts = unsorted_segment_sum(ones, ids, num_segments)
    for _ in range((data.ndim or 1) - (ids.ndim or 1)):
        counts = expand_dims(counts, -1)
    return maximum(counts, ones_like(counts))


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    """The mean of each segment's rows (0 for an empty segment), ids in any order."""
    with name_scope(name or "UnsortedSegmentMean"):
        data, ids = _checked(data, segment_ids, "unsorted_segment_mean")
        return unsorted_segment_sum(data, ids, num_segments) / _unsorted_count(data, ids, num_segments)


def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
    """Each segment's sum divided by the square root of its number of rows (0 for an empty segment)."""
    with name_scope(name or "UnsortedSegmentSqrtN"):
        data, ids = _checked(data, segment_ids, "unsorted_segment_sqrt_n")
        return unsorted_segment_sum(data, ids, num_segments) / sqrt(_unsorted_count(data, ids, num_segments))
