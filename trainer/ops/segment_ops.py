"""Segment reductions (rows of data summed or averaged by segment id) and boolean_mask.

Their gradients pick rows back out: a segment sum's gradient gathers g at the ids, and the gather's
gradient is the segment sum again, so each pair of ops is the other's adjoint.
"""
import numpy as np

from ..platform.errors import InvalidArgumentError
from .core_ops import convert_to_tensor
from ..framework.registry import apply_op, get_array_module, register
from .kernels.scatter_at import ufunc_at
from .tensor_util import constant_value, static_shape


def _check_ids(ids, num, what):
    if ids.size and ids.max() >= num:
        raise InvalidArgumentError(f"{what}: segment id {int(ids.max())} is not in [0, {num}): there are "
                                   f"only {num} segments")


def _unsorted_sum(data, ids, num_segments):
    num = int(num_segments)
    _check_ids(ids, num, "unsorted_segment_sum")
    out = get_array_module(data).zeros((num, *data.shape[ids.ndim:]), dtype=data.dtype)
    keep = ids >= 0  # TF1 drops rows with a negative id
    ufunc_at("add", out, ids[keep], data[keep])
    return out


def _sorted_ids(ids):
    if ids.ndim != 1:
        raise InvalidArgumentError(f"segment ids must be a vector, got shape {ids.shape}")
    if ids.size and (ids.min() < 0 or np.any(np.diff(ids) < 0)):
        raise InvalidArgumentError(f"segment ids must be non-negative and sorted, got {ids!r}; use "
                                   "unsorted_segment_sum for ids in any order")
    return int(ids[-1]) + 1 if ids.size else 0


def _segment_sum(data, ids):
    return _unsorted_sum(data, ids, _sorted_ids(ids))


def _counts(ids, num, like):
    counts = np.bincount(ids[ids >= 0].reshape(-1), minlength=num)[:num].astype(like.dtype)
    return np.maximum(counts, 1).reshape((num,) + (1,) * (like.ndim - 1))


def _segment_mean(data, ids):
    total = _segment_sum(data, ids)
    return total / _counts(ids, total.shape[0], total)


def _segment_gather(g, ids):
    """g's rows at ids (zeros where an id is negative): the adjoint of the segment sum."""
    picked = np.take(g, np.maximum(ids, 0), axis=0)
    return np.where((ids >= 0).reshape(ids.shape + (1,) * (g.ndim - 1)), picked, 0).astype(g.dtype, copy=False)


def _segment_mean_grad(g, ids):
    return _segment_gather(g / _counts(ids, g.shape[0], g), ids)


def _segment_infer(data, ids, *num, rows=None):
    d, i = static_shape(data), static_shape(ids)
    if d is None or i is None:
        return [(None, data.dtype)]
    return [((rows, *d[len(i):]), data.dtype)]


def _gather_grad(op, g):
    return [apply_op("SegmentGather", [g, op.inputs[1]]), None] + [None] * (len(op.inputs) - 2)


def _gather_infer(g, ids):
    s, i = static_shape(g), static_shape(ids)
    return [(None if s is None or i is None else i + s[1:], g.dtype)]


register("UnsortedSegmentSum", _unsorted_sum, grad=_gather_grad, fresh=True,
         infer=lambda d, i, n: _segment_infer(d, i, rows=_known(n)))
register("SegmentSum", _segment_sum, infer=_segment_infer, grad=_gather_grad, fresh=True)
register("SegmentMean", _segment_mean, infer=_segment_infer, fresh=True,
         grad=lambda op, g: [apply_op("SegmentMeanGrad", [g, op.inputs[1]]), None])
register("SegmentMeanGrad", _segment_mean_grad, infer=_gather_infer, fresh=True)
register("SegmentGather", _segment_gather, infer=_gather_infer, fresh=True,
         grad=lambda op, gg: [apply_op("UnsortedSegmentSum", [gg, op.inputs[1], _rows(op.inputs[0])]), None])


def _known(n):
    value = constant_value(n)
    return None if value is None else int(value)


def _rows(t):
    rows = (static_shape(t) or (None,))[0]
    if rows is None:
        return apply_op("StridedSlice", [apply_op("Shape", [t])], key=(0,))
    return convert_to_tensor(np.int32(rows))


def _ids(segment_ids, what):
    ids = convert_to_tensor(segment_ids)
    if ids.dtype.kind not in "iu":
        raise TypeError(f"{what} needs integer segment ids, got {ids.name!r} of dtype {ids.dtype.name}")
    return ids


def segment_sum(data, segment_ids, name=None):
    """out[i] = sum of data's rows whose (sorted, non-negative) id is i; ids with no rows give zeros."""
    return apply_op("SegmentSum", [convert_to_tensor(data), _ids(segment_ids, "segment_sum")],
                    name=name or "SegmentSum")


def segment_mean(data, segment_ids, name=None):
    """out[i] = mean of data's rows whose (sorted, non-negative) id is i; ids with no rows give zeros."""
    return apply_op("SegmentMean", [convert_to_tensor(data), _ids(segment_ids, "segment_mean")],
                    name=name or "SegmentMean")


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    """out[i] = sum of data[j...] where segment_ids[j...] == i, for ids in any order (negative ids are dropped);
    segment_ids' shape is a prefix of data's."""
    ids = _ids(segment_ids, "unsorted_segment_sum")
    return apply_op("UnsortedSegmentSum", [convert_to_tensor(data), ids, convert_to_tensor(num_segments)],
                    name=name or "UnsortedSegmentSum")


def _boolean_mask(x, mask, axis):
    if mask.shape != x.shape[axis:axis + mask.ndim]:
        raise InvalidArgumentError(f"boolean_mask: mask of shape {mask.shape} does not match the dims "
                                   f"{x.shape[axis:axis + mask.ndim]} of the tensor of shape {x.shape}")
    flat = x.reshape(x.shape[:axis] + (-1,) + x.shape[axis + mask.ndim:])
    return np.compress(mask.reshape(-1), flat, axis=axis)


def _boolean_mask_grad(g, mask, x, axis):
    out = get_array_module(g).zeros(x.shape[:axis] + (mask.size,) + x.shape[axis + mask.ndim:], dtype=g.dtype)
    index = (slice(None),) * axis + (mask.reshape(-1),)
    out[index] = g
    return out.reshape(x.shape)


def _boolean_mask_infer(x, mask, axis):
    s, m = static_shape(x), static_shape(mask)
    if s is None or m is None:
        return [(None, x.dtype)]
    return [((*s[:axis], None, *s[axis + len(m):]), x.dtype)]


register("BooleanMask", _boolean_mask, infer=_boolean_mask_infer, fresh=True,
         grad=lambda op, g: [apply_op("BooleanMaskGrad", [g, op.inputs[1], op.inputs[0]], **op.attrs), None])
register("BooleanMaskGrad", _boolean_mask_grad, infer=lambda g, m, x, axis: [(x.shape, g.dtype)], fresh=True)


def boolean_mask(tensor, mask, name="boolean_mask", axis=None):
    """The entries of `tensor` where the bool `mask` (matching dims axis..axis+mask.ndim) is true, those dims
    flattened into one of dynamic size."""
    x, mask = convert_to_tensor(tensor), convert_to_tensor(mask)
    if mask.dtype.kind != "b":
        raise TypeError(f"boolean_mask needs a bool mask, got {mask.name!r} of dtype {mask.dtype.name}")
    if mask.ndim is None:
        raise ValueError(f"boolean_mask needs a mask of known rank, got {mask.name!r}")
    if mask.ndim == 0:
        raise ValueError("boolean_mask: the mask cannot be a scalar")
    axis = int(0 if axis is None else constant_value(axis))
    if x.ndim is not None:
        axis %= max(x.ndim, 1)
        if axis + mask.ndim > x.ndim:
            raise ValueError(f"boolean_mask: a mask of rank {mask.ndim} at axis {axis} does not fit {x.name!r} "
                             f"of shape {x.shape}")
        if not x.shape[axis:axis + mask.ndim].is_compatible_with(mask.shape):
            raise ValueError(f"boolean_mask: mask shape {mask.shape} does not match the dims "
                             f"{x.shape[axis:axis + mask.ndim]} of {x.name!r}")
    return apply_op("BooleanMask", [x, mask], name=name or "boolean_mask", axis=axis)
