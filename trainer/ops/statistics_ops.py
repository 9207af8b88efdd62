"""tf.nn's moment helpers beyond moments: sufficient_statistics, normalize_moments and weighted_moments, built as
TF1's nn_impl builds them (so their values and gradients are TF1's)."""
import numpy as np

from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from .array_ops import cast, shape
from .core_ops import constant, convert_to_tensor
from .cwise_ops import reciprocal, squared_difference
from .division_ops import div_no_nan
from .gather_ops import gather
from .math_ops import square, zeros_like
from .reduction_ops import reduce_prod, reduce_sum
from .shape_ops import squeeze
from .tensor_util import argument_lookup, static_shape


def sufficient_statistics(x, axes, shift=None, keep_dims=None, name=None, keepdims=None):
    """(count, sum of x - shift, sum of (x - shift) ** 2, shift) over `axes`: what normalize_moments needs."""
    keepdims = bool(argument_lookup("keepdims", keepdims, "keep_dims", keep_dims))
    with name_scope(name or "sufficient_statistics"):
        x = convert_to_tensor(x)
        axes = [int(a) for a in np.ravel(axes)]
        known = static_shape(x)
        if known is not None and all(known[a] is not None for a in axes):
            counts = constant(np.array(np.prod([known[a] for a in axes]), dtype=x.dtype), name="count")
        else:
            counts = cast(reduce_prod(gather(shape(x), axes)), x.dtype, name="count")
        if shift is not None:
            shift = convert_to_tensor(shift, dtype=x.dtype)
            m_ss, v_ss = x - shift, squared_difference(x, shift)
        else:
            m_ss, v_ss = x, square(x)
        return (counts, reduce_sum(m_ss, axis=axes, keepdims=keepdims, name="mean_ss"),
                reduce_sum(v_ss, axis=axes, keepdims=keepdims, name="var_ss"), shift)


def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
    """(mean, variance) from sufficient_statistics' count and shifted sums."""
    with name_scope(name or "normalize"):
        divisor = reciprocal(convert_to_tensor(counts), name="divisor")
        shifted_mean = mean_ss * divisor
        mean = shifted_mean if shift is None else shifted_mean + shift
        return mean, variance_ss * divisor - square(shifted_mean)


def weighted_moments(x, axes, frequency_weights, name=None, keep_dims=None, keepdims=None):
    """(mean, variance) of x over `axes`, each element counted `frequency_weights` times (0 where they sum to 0)."""
    keepdims = bool(argument_lookup("keepdims", keepdims, "keep_dims", keep_dims))
    with name_scope(name or "weighted_moments"):
        x = convert_to_tensor(x)
        original = x.dtype
        if x.dtype == dtypes.float16:  # TF1 computes half-precision moments in float32
            x = cast(x, dtypes.float32)
        weights = convert_to_tensor(frequency_weights)
        if weights.dtype != x.dtype:
            weights = cast(weights, x.dtype)
        weighted_sum = reduce_sum(weights * x, axis=axes, keepdims=True)
        total_weight = reduce_sum(weights + zeros_like(x), axis=axes, keepdims=True)
        mean = div_no_nan(weighted_sum, total_weight)
        variance = div_no_nan(reduce_sum(weights * squared_difference(x, mean), axis=axes, keepdims=True),
                              total_weight)
        if not keepdims:
            mean, variance = squeeze(mean, axes), squeeze(variance, axes)
        return cast(mean, original), cast(variance, original)
