"""The special functions of tf.math: erf and erfc, the gamma family (lgamma, digamma, polygamma, zeta), and the
zero-safe products and quotients (xlogy, xdivy, multiply_no_nan), each with TF1's gradient.

numpy has no special functions and ringflow adds no dependency: erf, erfc and lgamma map the standard library's
over the array, and the Hurwitz zeta (polygamma's core) is Euler-Maclaurin summation, good to float64 precision.
"""
import math

import numpy as np

from ..framework.registry import host_kernel
from ..framework.registry import infer_same, register
from .core_ops import convert_to_tensor
from .math_ops import binary_builder, equal, exp, unary_builder, unbroadcast, where
from .math_ops import ones_like, zeros_like
from .reduction_ops import reduce_sum

TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
# Bernoulli numbers B_2j / (2j)! for Euler-Maclaurin; 8 terms with N = 9 shifted terms reach float64 precision.
ZETA_TERMS = [1 / 12, -1 / 720, 1 / 30240, -1 / 1209600, 1 / 47900160, -691 / 1307674368000, 1 / 74724249600,
              -3617 / 10670622842880000]
ZETA_SHIFT = 9


def mapped(fn):
    """`fn` of one float applied to every element, in the array's dtype."""
    ufunc = np.frompyfunc(fn, 1, 1)
    return lambda x: np.asarray(ufunc(x.astype(np.float64)), np.float64).astype(x.dtype) if x.size else x.copy()


def _hurwitz_zeta(s, q):
    """sum over k >= 0 of (q + k) ** -s, for s > 1 and q > 0 (nan elsewhere, inf at s == 1), elementwise."""
    s, q = np.broadcast_arrays(np.asarray(s, np.float64), np.asarray(q, np.float64))
    with np.errstate(all="ignore"):
        total = sum((q + k) ** -s for k in range(ZETA_SHIFT))
        a = q + ZETA_SHIFT
        total = total + a ** (1 - s) / (s - 1) + 0.5 * a ** -s
        rising, power = s.copy(), a ** (-s - 1)
        for j, term in enumerate(ZETA_TERMS):
            total = total + term * rising * power
            rising = rising * (s + 2 * j + 1) * (s + 2 * j + 2)
            power = power / (a * a)
    total = np.where(s == 1, np.inf, total)
    return np.where((s < 1) | (q <= 0), np.nan, total)


def digamma_values(x):
    """psi(x) = d/dx lgamma(x): reflection below 1/2, recurrence up to 10, then the asymptotic series."""
    z = np.asarray(x, np.float64)
    with np.errstate(all="ignore"):
        reflect = z < 0.5
        y = np.where(reflect, 1.0 - z, z)
        shift = np.zeros_like(y)
        while np.any(y < 10):
            small = y < 10
            shift = shift - np.where(small, 1.0 / y, 0.0)
            y = np.where(small, y + 1.0, y)
        inv2 = 1.0 / (y * y)
        series = np.log(y) - 0.5 / y - inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 * (1 / 252 - inv2 * (
            1 / 240 - inv2 * (1 / 132)))))
        out = series + shift
        out = np.where(reflect, out - np.pi / np.tan(np.pi * z), out)
        out = np.where((z <= 0) & (z == np.floor(z)), np.nan, out)
    return out.astype(np.asarray(x).dtype)


def _polygamma(n, x):
    """psi^(n)(x) = (-1)^(n+1) n! zeta(n+1, x) for integer n >= 1, digamma for n == 0."""
    n64 = np.asarray(n, np.float64)
    sign = np.where(np.mod(n64, 2) == 0, -1.0, 1.0)
    factorial = np.vectorize(lambda k: math.gamma(k + 1) if k >= 0 else np.nan, otypes=[np.float64])(n64)
    out = sign * factorial * _hurwitz_zeta(n64 + 1, x)
    out = np.where(n64 == 0, digamma_values(np.broadcast_to(np.asarray(x, np.float64), out.shape)), out)
    out = np.where((n64 < 0) | (n64 != np.floor(n64)), np.nan, out)
    return out.astype(np.asarray(x).dtype)


def _not_zero(x):
    return where(equal(x, zeros_like(x)), zeros_like(x), ones_like(x))


def _xlogy_grad(op, g):
    x, y = op.inputs
    return [unbroadcast(g * xlogy(_not_zero(x), y), x), unbroadcast(g * xdivy(x, y), y)]


def _xdivy_grad(op, g):
    x, y = op.inputs
    return [unbroadcast(g * xdivy(_not_zero(x), y), x), unbroadcast(g * xdivy(-x, y * y), y)]


def _mul_no_nan_grad(op, g):
    x, y = op.inputs
    return [unbroadcast(multiply_no_nan(g, y), x), unbroadcast(multiply_no_nan(x, g), y)]


def _zero_where(condition, value):
    with np.errstate(all="ignore"):
        return np.where(condition, np.zeros((), value.dtype), value).astype(value.dtype, copy=False)


register("Erf", kernel=host_kernel(mapped(math.erf)), infer=infer_same, fresh=True,
         grad=lambda op, g: [g * TWO_OVER_SQRT_PI * exp(-op.inputs[0] * op.inputs[0])])
register("Erfc", kernel=host_kernel(mapped(math.erfc)), infer=infer_same, fresh=True,
         grad=lambda op, g: [g * -TWO_OVER_SQRT_PI * exp(-op.inputs[0] * op.inputs[0])])
register("Lgamma", kernel=host_kernel(mapped(lambda v: math.lgamma(v) if v > 0 or v != math.floor(v) else math.inf)),
         infer=infer_same, fresh=True, grad=lambda op, g: [g * digamma(op.inputs[0])])
register("Digamma", kernel=host_kernel(digamma_values), infer=infer_same, fresh=True,
         grad=lambda op, g: [g * polygamma(ones_like(op.inputs[0]), op.inputs[0])])
register("Zeta", kernel=host_kernel(lambda x, q: _hurwitz_zeta(x, q).astype(x.dtype)), fresh=True,
         grad=lambda op, g: [None, unbroadcast(g * -op.inputs[0] * zeta(op.inputs[0] + 1.0, op.inputs[1]),
                                               op.inputs[1])])
register("Polygamma", kernel=host_kernel(_polygamma), fresh=True,
         grad=lambda op, g: [None, unbroadcast(g * polygamma(op.inputs[0] + 1.0, op.inputs[1]), op.inputs[1])])
register("Xlogy", kernel=host_kernel(lambda x, y: _zero_where(x == 0, x * np.log(y))), fresh=True, grad=_xlogy_grad)
register("Xdivy", kernel=host_kernel(lambda x, y: _zero_where(x == 0, x / y)), fresh=True, grad=_xdivy_grad)
register("Xlog1py", kernel=host_kernel(lambda x, y: _zero_where(x == 0, x * np.log1p(y))), fresh=True,
         grad=lambda op, g: [unbroadcast(g * xlog1py(_not_zero(op.inputs[0]), op.inputs[1]), op.inputs[0]),
                             unbroadcast(g * xdivy(op.inputs[0], op.inputs[1] + 1.0), op.inputs[1])])
register("MulNoNan", kernel=host_kernel(lambda x, y: _zero_where(y == 0, x * y)), fresh=True, grad=_mul_no_nan_grad)

erf = unary_builder("Erf", "The error function 2/sqrt(pi) * integral from 0 to x of exp(-t**2), elementwise.")
erfc = unary_builder("Erfc", "The complementary error function 1 - erf(x), elementwise.")
lgamma = unary_builder("Lgamma", "log |Gamma(x)| elementwise.")
digamma = unary_builder("Digamma", "psi(x), the derivative of lgamma, elementwise.")
zeta = binary_builder("Zeta", "zeta", "The Hurwitz zeta function: sum over k >= 0 of (q + k) ** -x, elementwise.")
polygamma = binary_builder("Polygamma", "polygamma", "The a-th derivative of digamma at x, elementwise.")
xlogy = binary_builder("Xlogy", "xlogy", "x * log(y) elementwise, 0 where x is 0.")
xdivy = binary_builder("Xdivy", "xdivy", "x / y elementwise, 0 where x is 0.")
xlog1py = binary_builder("Xlog1py", "xlog1py", "x * log1p(y) elementwise, 0 where x is 0.")
multiply_no_nan = binary_builder("MulNoNan", "multiply_no_nan", "x * y elementwise, 0 where y is 0 (even if x "
                                 "is nan or inf).")


def lbeta(x, name=None):
    """log |Beta(x)| over the last axis, sum(lgamma(x)) - lgamma(sum(x)); 0 for an empty last axis, as TF1's."""
    x = convert_to_tensor(x)
    return reduce_sum(lgamma(x), axis=-1) - lgamma(reduce_sum(x, axis=-1))


def polyval(coeffs, x, name=None):
    """coeffs[0] * x**(n-1) + ... + coeffs[n-1], by Horner's rule (0 for no coefficients)."""
    x = convert_to_tensor(x)
    if not isinstance(coeffs, (list, tuple)):
        raise ValueError(f"polyval needs a list of coefficients, got {type(coeffs).__name__}: pass a Python list")
    total = zeros_like(x)
    for c in coeffs:
        total = c + total * x
    return total


def _erfinv(y):
    """The inverse of erf: Giles' single-precision approximation, then two Newton steps on the exact erf."""
    z = np.asarray(y, np.float64)
    with np.errstate(all="ignore"):
        w = -np.log((1.0 - z) * (1.0 + z))
        central = w - 2.5
        p = 2.81022636e-08
        for c in (3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
                  -0.00417768164, 0.246640727, 1.50140941):
            p = c + p * central
        tail = np.sqrt(np.maximum(w, 5.0)) - 3.0
        q = -0.000200214257
        for c in (0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613, 0.00943887047,
                  1.00167406, 2.83297682):
            q = c + q * tail
        x = np.where(w < 5.0, p, q) * z
        erf_of = np.frompyfunc(math.erf, 1, 1)
        for _ in range(2):
            inside = np.isfinite(x)
            err = np.where(inside, np.asarray(erf_of(np.where(inside, x, 0.0)), np.float64) - z, 0.0)
            x = np.where(inside, x - err / (TWO_OVER_SQRT_PI * np.exp(-x * x)), x)
        x = np.where(z == 1, np.inf, np.where(z == -1, -np.inf, x))
        return np.where(np.abs(z) > 1, np.nan, x).astype(np.asarray(y).dtype)


register("Erfinv", kernel=host_kernel(_erfinv), infer=infer_same, fresh=True,
         grad=lambda op, g: [g * (math.sqrt(math.pi) / 2) * exp(op.outputs[0] * op.outputs[0])])
register("Ndtri", kernel=host_kernel(lambda p: (math.sqrt(2) * _erfinv(2 * p.astype(np.float64) - 1)).astype(p.dtype)),
         infer=infer_same,
         fresh=True, grad=lambda op, g: [g * math.sqrt(2 * math.pi) * exp(op.outputs[0] * op.outputs[0] / 2.0)])
register("NextAfter", kernel=host_kernel(lambda x1, x2: np.nextafter(x1, x2)), fresh=True)

erfinv = unary_builder("Erfinv", "The inverse of erf, elementwise (inf at 1, nan beyond).")
ndtri = unary_builder("Ndtri", "The inverse of the standard normal CDF, elementwise.")
nextafter = binary_builder("NextAfter", "nextafter", "The next representable value after x1 toward x2, "
                           "elementwise (no gradient).")


def erfcinv(x, name=None):
    """The inverse of erfc, elementwise: -ndtri(x / 2) / sqrt(2)."""
    x = convert_to_tensor(x)
    return ndtri(x * 0.5) * (-1.0 / math.sqrt(2.0))
