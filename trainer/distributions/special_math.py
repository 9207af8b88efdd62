"""The normal CDF and its logarithm, and the Laplace log-CDF, accurate in the tails as TF1's special_math is:
log_ndtr switches to -ndtr(-x) above `upper` and to the asymptotic series below `lower`."""
import math

import numpy as np

from ..ops.cwise_ops import log1p
from ..ops.math_ops import abs, exp, log, maximum, minimum, square, where
from ..ops.special_ops import erf, erfc

HALF_SQRT_2 = 0.5 * math.sqrt(2.0)
# TF1's bounds per dtype: where log(ndtr(x)) loses precision (above) or underflows (below)
LOG_NDTR_BOUNDS = {"float32": (-10.0, 5.0), "float64": (-20.0, 8.0)}
SERIES_ORDER = 3  # TF1's default number of terms of the asymptotic series


def ndtr(x):
    """The standard normal CDF, erf near 0 and erfc in the tails."""
    w = x * HALF_SQRT_2
    z = abs(w)
    y = where(z < HALF_SQRT_2, 1.0 + erf(w), where(w > 0.0, 2.0 - erfc(z), erfc(z)))
    return 0.5 * y


def log_ndtr(x):
    """log(ndtr(x)), without underflow far left nor cancellation far right."""
    lower, upper = LOG_NDTR_BOUNDS[x.dtype.name]
    return where(x > upper, -ndtr(-x), where(x > lower, log(ndtr(maximum(x, lower))),
                                            _log_ndtr_lower(minimum(x, lower))))


def _log_ndtr_lower(x):
    x_2 = square(x)
    log_scale = -0.5 * x_2 - log(-x) - 0.5 * math.log(2.0 * math.pi)
    even, odd, x_2n = 0.0, 0.0, x_2
    for n in range(1, SERIES_ORDER + 1):
        term = float(np.prod(np.arange(2 * n - 1, 0, -2))) / x_2n
        if n % 2:
            odd = odd + term
        else:
            even = even + term
        x_2n = x_2n * x_2
    return log_scale + log(1.0 + even - odd)


def log_cdf_laplace(x):
    """log of the standard Laplace CDF."""
    return where(x < 0.0, x - math.log(2.0), log1p(-0.5 * exp(-abs(x))))
