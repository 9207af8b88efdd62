"""Finding positions: searchsorted (per row of a sorted sequence), unravel_index, histogram_fixed_width and its
bins, confusion_matrix, and approx_max_k/approx_min_k (exact, on top_k)."""
import numpy as np

from ..framework.registry import host_kernel
from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from ..framework.registry import apply_op, register
from ..platform.errors import InvalidArgumentError
from .array_ops import cast
from .core_ops import convert_to_tensor
from .gather_nd_ops import scatter_nd
from .gather_ops import top_k
from .math_ops import maximum
from .reduction_ops import reduce_max
from .stack_ops import stack
from .tensor_util import constant_value, static_shape


def _searchsorted(sorted_sequence, values, side, out_type):
    if sorted_sequence.shape[:-1] != values.shape[:-1]:
        raise InvalidArgumentError(f"searchsorted: the leading dims of sorted_sequence {sorted_sequence.shape} and "
                                   f"values {values.shape} must agree")
    rows_s = sorted_sequence.reshape(-1, sorted_sequence.shape[-1])
    rows_v = values.reshape(-1, values.shape[-1])
    out = [np.searchsorted(s, v, side=side) for s, v in zip(rows_s, rows_v)]
    return np.array(out, dtype=out_type).reshape(values.shape)


def _unravel_index(indices, dims):
    size = int(np.prod(dims))
    if indices.size and (indices.min() < 0 or indices.max() >= size):
        raise InvalidArgumentError(f"unravel_index: index out of bounds for dims {dims.tolist()}: every index must "
                                   f"be in [0, {size})")
    return np.array(np.unravel_index(indices, tuple(int(d) for d in dims)), dtype=indices.dtype)


def _histogram_bins(values, value_range, nbins, dtype):
    low, high = float(value_range[0]), float(value_range[1])
    if not high > low:
        raise InvalidArgumentError(f"histogram_fixed_width: value_range must be increasing, got {value_range!r}")
    scaled = (values.astype(np.float64) - low) / (high - low)
    return np.clip(np.floor(scaled * int(nbins)), 0, int(nbins) - 1).astype(dtype)


def _histogram(values, value_range, nbins, dtype):
    bins = _histogram_bins(values, value_range, nbins, dtype)
    return np.bincount(bins.reshape(-1), minlength=int(nbins)).astype(dtype)


register("SearchSorted", kernel=host_kernel(_searchsorted), infer=lambda s, v, side, out_type: [(v.shape, out_type)],
         fresh=True)
register("UnravelIndex", kernel=host_kernel(_unravel_index), fresh=True,
         infer=lambda i, d: [(None if static_shape(d) is None else (static_shape(d)[0], *static_shape(i)), i.dtype)])
register("HistogramFixedWidth", kernel=host_kernel(_histogram), fresh=True,
         infer=lambda v, r, n, dtype: [((None if constant_value(n) is None else int(constant_value(n)),), dtype)])
register("HistogramFixedWidthBins", kernel=host_kernel(_histogram_bins), fresh=True,
         infer=lambda v, r, n, dtype: [(v.shape, dtype)])


def searchsorted(sorted_sequence, values, side="left", out_type=dtypes.int32, name=None):
    """For each value, where it would go in its row of `sorted_sequence` to keep it sorted (the first such place for
    side "left", the last for "right")."""
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    s = convert_to_tensor(sorted_sequence)
    v = convert_to_tensor(values, dtype=s.dtype)
    for t in (s, v):
        if t.ndim == 0:
            raise ValueError(f"searchsorted needs tensors of rank >= 1, got {t.name!r} of shape {t.shape}")
    return apply_op("SearchSorted", [s, v], name=name or "SearchSorted", side=side,
                    out_type=dtypes.as_dtype(out_type))


def unravel_index(indices, dims, name=None):
    """The coordinates in an array of shape `dims` of each flat index: shape [len(dims)] + indices' shape."""
    indices = convert_to_tensor(indices)
    if indices.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"unravel_index needs int32 or int64 indices, got {indices.name!r} of dtype "
                        f"{indices.dtype.name}")
    dims = convert_to_tensor(dims, dtype=indices.dtype)
    return apply_op("UnravelIndex", [indices, dims], name=name or "UnravelIndex")


def _histogram_args(values, value_range, nbins, dtype):
    values = convert_to_tensor(values)
    value_range = convert_to_tensor(value_range, dtype=values.dtype)
    nbins = convert_to_tensor(nbins, dtype=dtypes.int32)
    known = constant_value(nbins)
    if known is not None and int(known) <= 0:
        raise ValueError(f"histogram_fixed_width: nbins must be positive, got {int(known)}")
    return [values, value_range, nbins], dtypes.as_dtype(dtype)


def histogram_fixed_width(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """How many values fall in each of nbins equal bins over value_range (values outside go to the end bins)."""
    inputs, dtype = _histogram_args(values, value_range, nbins, dtype)
    return apply_op("HistogramFixedWidth", inputs, name=name or "HistogramFixedWidth", dtype=dtype)


def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """The bin of histogram_fixed_width that each value falls in, in values' shape."""
    values, value_range = convert_to_tensor(values), convert_to_tensor(value_range)
    if values.dtype != value_range.dtype:  # TF1 converts value_range on its own, then subtracts it from values
        raise TypeError(f"histogram_fixed_width_bins: value_range {value_range.name!r} has dtype "
                        f"{value_range.dtype.name}, values {values.name!r} {values.dtype.name}; give both one dtype")
    inputs, dtype = _histogram_args(values, value_range, nbins, dtype)
    return apply_op("HistogramFixedWidthBins", inputs, name=name or "HistogramFixedWidthBins", dtype=dtype)


def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype=dtypes.int32, name=None):
    """out[i, j] = the number (or summed weights) of examples with label i predicted as j; num_classes defaults to
    the largest label or prediction + 1."""
    with name_scope(name or "confusion_matrix"):
        labels, predictions = convert_to_tensor(labels), convert_to_tensor(predictions)
        labels, predictions = cast(labels, dtypes.int64), cast(predictions, dtypes.int64)
        known = [constant_value(t) for t in (labels, predictions)]
        if num_classes is None and all(k is not None and np.size(k) for k in known):
            num_classes = int(max(np.max(known[0]), np.max(known[1]))) + 1  # TF folds constant inputs
        elif num_classes is None:
            num_classes = maximum(reduce_max(predictions), reduce_max(labels)) + 1
        num_classes = cast(convert_to_tensor(num_classes), dtypes.int64)
        values = (cast(convert_to_tensor(weights), dtype) if weights is not None
                  else apply_op("OnesLike", [cast(labels, dtype)]))
        indices = stack([labels, predictions], axis=1)
        return scatter_nd(indices, values, stack([num_classes, num_classes]))


def _approx_k(operand, k, reduction_dimension, what):
    x = convert_to_tensor(operand)
    if x.ndim is not None and int(reduction_dimension) not in (-1, x.ndim - 1):
        raise NotImplementedError(f"{what} over reduction_dimension={reduction_dimension!r} is not supported in "
                                  "ringflow; transpose that dim to the last one")
    return x


def approx_max_k(operand, k, reduction_dimension=-1, recall_target=0.95, reduction_input_size_override=-1,
                 aggregate_to_topk=True, name=None):
    """(values, indices) of the k largest along the last dim: exact here, as TF's CPU kernel is."""
    return top_k(_approx_k(operand, k, reduction_dimension, "approx_max_k"), k, name=name or "ApproxTopK")


def approx_min_k(operand, k, reduction_dimension=-1, recall_target=0.95, reduction_input_size_override=-1,
                 aggregate_to_topk=True, name=None):
    """(values, indices) of the k smallest along the last dim, smallest first: exact here."""
    values, indices = top_k(-_approx_k(operand, k, reduction_dimension, "approx_min_k"), k, name=name or "ApproxTopK")
    return -values, indices
