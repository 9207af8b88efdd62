"""Clipping values and norms, as TF1 builds them (so the gradients are TF1's too)."""
from ..framework.tensor import Tensor
from ..framework.graph_wrappers import name_scope
from .array_ops import cast
from .core_ops import convert_to_tensor, identity
from .cwise_ops import rsqrt
from .indexed_slices import IndexedSlices, as_slices
from .math_ops import greater, maximum, minimum, ones_like, sqrt, where
from .nn_ops import l2_loss
from .reduction_ops import reduce_sum
from .shape_ops import size
from .stack_ops import stack


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """t with values below clip_value_min raised to it and values above clip_value_max lowered to it."""
    with name_scope(name or "clip_by_value"):
        t = convert_to_tensor(t)
        return maximum(minimum(t, clip_value_max), clip_value_min)


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """t scaled so that its L2 norm over `axes` (all when None) is at most clip_norm."""
    with name_scope(name or "clip_by_norm"):
        t = convert_to_tensor(t)
        squares = reduce_sum(t * t, axis=axes, keepdims=True)
        positive = greater(squares, 0.0)
        # Where the norm is 0, take sqrt of 1 instead: the gradient of sqrt at 0 would be inf.
        norm = where(positive, sqrt(where(positive, squares, ones_like(squares))), squares)
        return identity(t * clip_norm / maximum(norm, clip_norm))


def global_norm(t_list, name=None):
    """sqrt(sum of the squared L2 norms of every tensor in t_list); None entries are skipped."""
    if isinstance(t_list, Tensor) or not isinstance(t_list, (list, tuple)):
        raise TypeError(f"global_norm needs a list or tuple of tensors, got {t_list!r}")
    tensors = [convert_to_tensor(_values(t)) for t in t_list if t is not None]
    if not tensors:
        raise ValueError("global_norm needs at least one tensor that is not None")
    with name_scope(name or "global_norm"):
        half_squares = reduce_sum(stack([l2_loss(t) for t in tensors]))
        return sqrt(half_squares * 2.0)


def _values(t):
    """What TF1 takes the norm of: an IndexedSlices' values, a repeated index's rows each on its own."""
    slices = as_slices(t) if isinstance(t, (Tensor, IndexedSlices)) else None
    return t if slices is None else slices.values


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """(t_list scaled by clip_norm / max(global_norm, clip_norm), global_norm): shrinks all tensors together so
    their global norm is at most clip_norm. None entries stay None."""
    if isinstance(t_list, Tensor) or not isinstance(t_list, (list, tuple)):
        raise TypeError(f"clip_by_global_norm needs a list or tuple of tensors, got {t_list!r}")
    norm = global_norm(t_list) if use_norm is None else convert_to_tensor(use_norm)
    with name_scope(name or "clip_by_global_norm"):
        clip_norm = convert_to_tensor(clip_norm, dtype=norm.dtype)
        scale = clip_norm * minimum(1.0 / norm, 1.0 / clip_norm)
        clipped = [None if t is None else identity(convert_to_tensor(t) * scale) for t in t_list]
    return clipped, norm




def clip_by_average_norm(t, clip_norm, name=None):
    """t scaled so that its L2 norm divided by its number of elements is at most clip_norm (TF1's deprecated op)."""
    with name_scope(name or "clip_by_average_norm"):
        t = convert_to_tensor(t)
        count = cast(size(t), t.dtype)
        inverse_norm = rsqrt(reduce_sum(t * t))
        return identity(t * clip_norm * minimum(inverse_norm * count, 1.0 / clip_norm))
