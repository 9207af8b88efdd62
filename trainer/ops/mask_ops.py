"""Masks, and a value spread over a shape: sequence_mask, matrix_band_part and broadcast_to, built (as TF1 builds
the first) from ops that already have TF1's gradients; the BroadcastTo op is TF's node as graphs TensorFlow
writes (and ringflow's exported gradients) hold it."""
from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from ..framework.registry import get_array_module, register
from .array_ops import cast, shape, zeros
from .core_ops import constant, convert_to_tensor
from .cwise_ops import logical_and, logical_or
from .fill_ops import range as range_
from .math_ops import less, less_equal, maximum, unbroadcast, where, zeros_like
from .reduction_ops import reduce_max
from .tensor_util import constant_value, static_shape


def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool, name=None):
    """mask[i, ..., j] = j < lengths[i, ...]: a row of maxlen (default: the longest length) per length."""
    with name_scope(name or "SequenceMask"):
        lengths = convert_to_tensor(lengths)
        known = constant_value(lengths) if maxlen is None else None
        if known is not None:  # TF1's shape inference folds the longest of constant lengths into the shape
            maxlen = constant(max(int(known.max(initial=0)), 0), lengths.dtype)
        elif maxlen is None:
            maxlen = maximum(reduce_max(lengths), 0)
        maxlen = convert_to_tensor(maxlen)
        if maxlen.ndim not in (None, 0):
            raise ValueError(f"sequence_mask needs a scalar maxlen, got {maxlen.name!r} of shape {maxlen.shape}")
        mask = less(range_(0, maxlen, 1, dtype=maxlen.dtype), cast(lengths[..., None], maxlen.dtype))
        return mask if dtypes.as_dtype(dtype) == dtypes.bool else cast(mask, dtype)


def matrix_band_part(input, num_lower, num_upper, name=None):  # noqa: A002 - TF1's name
    """The band of each innermost matrix: element (m, n) is kept where (num_lower < 0 or m - n <= num_lower) and
    (num_upper < 0 or n - m <= num_upper), zeroed elsewhere (num_lower = 0, num_upper = -1: upper triangle)."""
    with name_scope(name or "MatrixBandPart"):
        x = convert_to_tensor(input)
        if x.ndim is not None and x.ndim < 2:
            raise ValueError(f"matrix_band_part needs a tensor of rank >= 2, got {x.name!r} of shape {x.shape}")
        dims = shape(x)
        rows, cols = range_(dims[-2])[:, None], range_(dims[-1])[None, :]
        lower, upper = (cast(convert_to_tensor(n), dtypes.int32) for n in (num_lower, num_upper))
        keep = logical_and(logical_or(less(lower, 0), less_equal(rows - cols, lower)),
                           logical_or(less(upper, 0), less_equal(cols - rows, upper)))
        return where(keep, x, zeros_like(x))


def broadcast_to(input, shape, name=None):  # noqa: A002 - TF1's name
    """`input` repeated along new and size-1 dimensions to `shape` (numpy broadcasting); its gradient sums back."""
    with name_scope(name or "BroadcastTo"):
        x = convert_to_tensor(input)
        if x.dtype == dtypes.bool:
            return logical_or(x, zeros(shape, dtypes.bool))
        return x + zeros(shape, x.dtype)


def _broadcast_to_infer(x, shape):
    known = constant_value(shape)
    if known is not None:
        return [(tuple(int(d) for d in known), x.dtype)]
    rank = (static_shape(shape) or (None,))[0]
    return [(None if rank is None else (None,) * rank, x.dtype)]


register("BroadcastTo", lambda x, shape: get_array_module(x).broadcast_to(x, tuple(int(d) for d in shape)).copy(),
         infer=_broadcast_to_infer, grad=lambda op, grad: [unbroadcast(grad, op.inputs[0]), None])
