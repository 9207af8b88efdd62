"""tg.math: TF1's tf.math namespace, aliases of the elementwise, reduction and comparison ops (tf.math.special
in special.py)."""
from ..ops.activation_ops import log_sigmoid, softplus
from ..ops.division_ops import div_no_nan as divide_no_nan, truncatediv, truncatemod
from ..ops.trig_ops import acos, acosh, asin, asinh, atan, atan2, atanh, cosh, rint, sinh
from ..ops.array_ops import argmax, argmin
from ..ops.cwise_ops import (ceil, cos, expm1, floor, floordiv, floormod, is_finite, is_inf, is_nan, log1p,
                            logical_and, logical_not, logical_or, logical_xor, mod, reciprocal, round, rsqrt, sin,
                            squared_difference, tan, truediv)
from ..ops.gather_ops import in_top_k, top_k
from ..ops.math_ops import (abs, add, add_n, divide, equal, exp, greater, greater_equal, less, less_equal, log,
                           maximum, minimum, multiply, negative, not_equal, pow, sign, sqrt, square, subtract)
from ..ops.nn_impl import l2_normalize
from ..ops.scan_ops import cumprod, cumsum
from ..ops.segment_ops import segment_mean, segment_sum, unsorted_segment_sum
from ..ops.nn_ops import log_softmax, sigmoid, softmax, tanh
from ..ops.reduction_ops import (count_nonzero, reduce_all, reduce_any, reduce_logsumexp, reduce_max, reduce_mean,
                                reduce_min, reduce_prod, reduce_sum)

__all__ = ["abs", "add", "add_n", "argmax", "argmin", "ceil", "cos", "count_nonzero", "cumprod", "cumsum", "divide", "equal", "exp",
           "expm1", "floor", "floordiv", "floormod", "greater", "greater_equal", "in_top_k", "is_finite", "is_inf",
           "is_nan", "l2_normalize", "less", "less_equal", "log", "log1p", "log_softmax", "logical_and",
           "logical_not", "logical_or", "logical_xor", "maximum", "minimum", "mod", "multiply", "negative",
           "not_equal", "pow", "reciprocal", "reduce_all", "reduce_any", "reduce_logsumexp", "reduce_max",
           "reduce_mean", "reduce_min", "reduce_prod", "reduce_sum", "round", "rsqrt", "segment_mean", "segment_sum", "sigmoid", "sign", "sin",
           "softmax", "softplus", "sqrt", "square", "squared_difference", "subtract", "tan", "tanh", "top_k",
           "truediv", "unsorted_segment_sum"]
__all__ += ["acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cosh", "divide_no_nan", "log_sigmoid", "rint",
            "sinh", "truncatediv", "truncatemod"]

# the special functions, segment reductions and index arithmetic filled in from TF1's tf.math
from ..ops.activation_ops import softsign
from ..ops.check_ops import is_non_decreasing, is_strictly_increasing
from ..ops.division_ops import reciprocal_no_nan, scalar_mul
from ..ops.index_ops import bincount, invert_permutation
from ..ops.reduction_ops import reduce_std, reduce_variance
from ..ops.segment_reduce_ops import (segment_max, segment_min, segment_prod, unsorted_segment_max,
                                     unsorted_segment_mean, unsorted_segment_min, unsorted_segment_prod,
                                     unsorted_segment_sqrt_n)
from ..ops.special_ops import (digamma, erf, erfc, lbeta, lgamma, multiply_no_nan, polygamma, polyval, xdivy, xlogy,
                              zeta)
from ..ops.zero_fraction_ops import zero_fraction

__all__ += ["bincount", "digamma", "erf", "erfc", "invert_permutation", "is_non_decreasing", "is_strictly_increasing",
            "lbeta", "lgamma", "multiply_no_nan", "polygamma", "polyval", "reciprocal_no_nan", "reduce_std",
            "reduce_variance", "scalar_mul", "segment_max", "segment_min", "segment_prod", "softsign",
            "unsorted_segment_max", "unsorted_segment_mean", "unsorted_segment_min", "unsorted_segment_prod",
            "unsorted_segment_sqrt_n", "xdivy", "xlogy", "zero_fraction", "zeta"]

from ..ops.complex_ops import angle, conj, imag, real

__all__ += ["angle", "conj", "imag", "real"]

from ..ops.reduction_ops import cumulative_logsumexp, reduce_euclidean_norm
from ..ops.search_ops import confusion_matrix
from ..ops.shape_functions import accumulate_n
from ..ops.special_ops import erfcinv, erfinv, ndtri, nextafter

__all__ += ["accumulate_n", "confusion_matrix", "cumulative_logsumexp", "erfcinv", "erfinv", "ndtri", "nextafter",
            "reduce_euclidean_norm"]
from ..ops.special_ops import xlog1py

__all__ += ["xlog1py"]
from ..ops.search_ops import approx_max_k, approx_min_k

__all__ += ["approx_max_k", "approx_min_k"]
from ..ops.incomplete_gamma_ops import betainc, bessel_i0, bessel_i0e, bessel_i1, bessel_i1e, igamma, igammac

__all__ += ["bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "betainc", "igamma", "igammac"]
from . import special  # noqa: E402,F401  (tf.math.special)
