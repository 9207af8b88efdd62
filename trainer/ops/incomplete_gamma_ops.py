"""The regularized incomplete gamma and beta functions (tf.math.igamma, igammac, betainc) with TF's gradients, and
the modified Bessel functions of order 0 and 1 (bessel_i0, i1 and their exponentially scaled i0e, i1e).

numpy has none of them and ringflow adds no dependency: they are computed in float64 on the host, vectorized over
the elements. P(a, x) by its power series where x < a + 1 and Q(a, x) by Legendre's continued fraction elsewhere
(modified Lentz), each then giving the other; I_x(a, b) by its continued fraction on the side where it converges;
I_0 and I_1 by their power series up to |x| = 15 and by the Hankel asymptotic expansion beyond, where its smallest
term is below 1e-13. dP/da (TF's IgammaGradA) sums the series differentiated term by term.
"""
import math

import numpy as np

from ..framework.registry import apply_op, host_kernel, infer_broadcast, register
from .core_ops import convert_to_tensor
from .cwise_ops import reciprocal
from .math_ops import equal, exp, ones_like, sign, unbroadcast, where
from .special_ops import digamma_values, lgamma, xlog1py, xlogy

EPS = np.finfo(np.float64).eps
TINY = 1e-300
ITERATIONS = 2000  # continued fractions converge in O(sqrt(max(a, b, x))) steps; this bounds a pathological one
SERIES_BESSEL = 15.0  # above |x| = 15 the Hankel expansion is exact to float64 within its first 40 terms
_lgamma = np.vectorize(lambda v: np.inf if v <= 0 and v == math.floor(v) else math.lgamma(v), otypes=[np.float64])


def _series_p(a, x):
    """P(a, x) by sum x^n / (a (a+1) ... (a+n)), times x^a e^-x / Gamma(a)."""
    term = 1.0 / a
    total = term.copy()
    n = 0
    active = np.ones(a.shape, bool)
    while active.any() and n < 100 * ITERATIONS:
        n += 1
        term = np.where(active, term * x / (a + n), 0.0)
        total = total + term
        active = np.abs(term) > np.abs(total) * EPS
    return total * np.exp(a * np.log(x) - x - _lgamma(a))


def _fraction_q(a, x):
    """Q(a, x) by Legendre's continued fraction (modified Lentz)."""
    b = x + 1.0 - a
    c = np.full(a.shape, 1.0 / TINY)
    d = 1.0 / b
    h = d.copy()
    active = np.ones(a.shape, bool)
    for i in range(1, ITERATIONS):
        an = -i * (i - a)
        b = b + 2.0
        d = an * d + b
        d = np.where(np.abs(d) < TINY, TINY, d)
        c = b + an / c
        c = np.where(np.abs(c) < TINY, TINY, c)
        d = 1.0 / d
        step = d * c
        h = np.where(active, h * step, h)
        active = active & (np.abs(step - 1.0) > EPS)
        if not active.any():
            break
    return np.exp(a * np.log(x) - x - _lgamma(a)) * h


def _gamma_pq(a, x, upper):
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    with np.errstate(all="ignore"):
        use_series = x < a + 1.0
        safe_a, safe_x = np.where(a > 0, a, 1.0), np.where(x > 0, x, 1.0)
        p = np.where(use_series, _series_p(safe_a, np.where(use_series, safe_x, 1.0)), 0.0)
        q = np.where(use_series, 0.0, _fraction_q(safe_a, np.where(use_series, 2.0, safe_x)))
        out = np.where(use_series, 1.0 - p, q) if upper else np.where(use_series, p, 1.0 - q)
        at_zero = 1.0 if upper else 0.0
        out = np.where(x == 0, at_zero, out)
        out = np.where(np.isinf(x) & (x > 0), 1.0 - at_zero, out)
        return np.where((a <= 0) | (x < 0) | np.isnan(a) | np.isnan(x), np.nan, out)


def _igamma_grad_a(a, x):
    """dP(a, x)/da = sum over n of x^(a+n) e^-x / Gamma(a+n+1) * (log x - digamma(a+n+1))."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    with np.errstate(all="ignore"):
        safe_x = np.where(x > 0, x, 1.0)
        log_x = np.log(safe_x)
        psi = digamma_values(a + 1.0)
        log_term = a * log_x - safe_x - _lgamma(a + 1.0)
        total = np.exp(log_term) * (log_x - psi)
        limit = int(np.max(safe_x, initial=0.0) + 40 * np.sqrt(np.max(safe_x, initial=0.0)) + 60)
        for n in range(1, limit):
            log_term = log_term + log_x - np.log(a + n)
            psi = psi + 1.0 / (a + n)
            total = total + np.exp(log_term) * (log_x - psi)
        total = np.where(x == 0, 0.0, total)
        return np.where((a <= 0) | (x < 0), np.nan, total)


def _betacf(a, b, x):
    """The continued fraction of I_x(a, b) (modified Lentz), for x < (a + 1) / (a + b + 2)."""
    c = np.ones(a.shape)
    d = 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / np.where(np.abs(d) < TINY, TINY, d)
    h = d.copy()
    active = np.ones(a.shape, bool)
    for m in range(1, ITERATIONS):
        m2 = 2 * m
        for numerator in (m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)),
                          -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0))):
            d = 1.0 + numerator * d
            d = 1.0 / np.where(np.abs(d) < TINY, TINY, d)
            c = 1.0 + numerator / c
            c = np.where(np.abs(c) < TINY, TINY, c)
            step = d * c
            h = np.where(active, h * step, h)
        active = active & (np.abs(step - 1.0) > EPS)
        if not active.any():
            break
    return h


def _betainc(a, b, x):
    dtype = np.result_type(a, b, x)
    a, b, x = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (a, b, x)))
    with np.errstate(all="ignore"):
        inside = (x > 0) & (x < 1) & (a > 0) & (b > 0)
        sa, sb, sx = np.where(inside, a, 1.0), np.where(inside, b, 1.0), np.where(inside, x, 0.5)
        front = np.exp(_lgamma(sa + sb) - _lgamma(sa) - _lgamma(sb) + sa * np.log(sx) + sb * np.log1p(-sx))
        direct = sx < (sa + 1.0) / (sa + sb + 2.0)
        low = front * _betacf(sa, sb, np.where(direct, sx, 0.5)) / sa
        high = 1.0 - front * _betacf(sb, sa, np.where(direct, 0.5, 1.0 - sx)) / sb
        out = np.where(direct, low, high)
        out = np.where(x == 0, 0.0, np.where(x == 1, 1.0, out))
        bad = (a <= 0) | (b <= 0) | (x < 0) | (x > 1) | np.isnan(a) | np.isnan(b) | np.isnan(x)
        return np.where(bad, np.nan, out).astype(dtype)


def _cast_like(fn):
    return lambda *arrays: fn(*arrays).astype(np.result_type(*arrays))


def _igamma_grad(op, g, upper):
    a, x = op.inputs
    partial_x = exp(-x + xlogy(a - 1.0, x) - lgamma(a))
    partial_a = apply_op("IgammaGradA", [a, x], name="IgammaGradA")
    sign_ = -1.0 if upper else 1.0
    return [unbroadcast(sign_ * partial_a * g, a), unbroadcast(sign_ * partial_x * g, x)]


def _betainc_grad(op, g):
    a, b, x = op.inputs
    log_beta = lgamma(a) + lgamma(b) - lgamma(a + b)
    return [None, None, unbroadcast(exp(xlog1py(b - 1.0, -x) + xlogy(a - 1.0, x) - log_beta) * g, x)]


register("Igamma", kernel=host_kernel(_cast_like(lambda a, x: _gamma_pq(a, x, False))), fresh=True,
         grad=lambda op, g: _igamma_grad(op, g, False))
register("Igammac", kernel=host_kernel(_cast_like(lambda a, x: _gamma_pq(a, x, True))), fresh=True,
         grad=lambda op, g: _igamma_grad(op, g, True))
register("IgammaGradA", kernel=host_kernel(_cast_like(_igamma_grad_a)), fresh=True)
register("Betainc", kernel=host_kernel(_betainc), infer=infer_broadcast, fresh=True, grad=_betainc_grad)


def _floats(what, *values):
    tensors = []
    for v in values:
        t = convert_to_tensor(v, dtype=tensors[0].dtype if tensors else None)
        if t.dtype.name not in ("float32", "float64"):
            raise TypeError(f"{what} takes float32 or float64 tensors, got {t.name!r} of dtype {t.dtype.name}")
        tensors.append(t)
    return tensors


def igamma(a, x, name=None):
    """The regularized lower incomplete gamma function P(a, x), elementwise."""
    return apply_op("Igamma", _floats("igamma", a, x), name=name or "Igamma")


def igammac(a, x, name=None):
    """The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x), elementwise."""
    return apply_op("Igammac", _floats("igammac", a, x), name=name or "Igammac")


def betainc(a, b, x, name=None):
    """The regularized incomplete beta function I_x(a, b), elementwise (a, b, x broadcast)."""
    return apply_op("Betainc", _floats("betainc", a, b, x), name=name or "Betainc")


# -- the modified Bessel functions of order 0 and 1 ---------------------------------------------------------------

def _bessel_scaled(x, order):
    """exp(-|x|) I_order(x) for order 0 or 1."""
    x = np.asarray(x, np.float64)
    ax = np.abs(x)
    with np.errstate(all="ignore"):
        quarter = ax * ax / 4.0
        term = np.where(order == 0, 1.0, ax / 2.0) * np.ones_like(ax)
        total = term.copy()
        for k in range(1, 200):
            term = term * quarter / (k * (k + order))
            total = total + term
            if np.all(term <= total * EPS):
                break
        small = total * np.exp(-ax)
        big_x = np.where(ax > SERIES_BESSEL, ax, SERIES_BESSEL + 1.0)
        term, series = np.ones_like(ax), np.ones_like(ax)
        for k in range(1, 40):
            term = -term * (4.0 * order * order - (2 * k - 1) ** 2) / (k * 8.0 * big_x)
            series = series + term
        large = series / np.sqrt(2.0 * np.pi * big_x)
        out = np.where(ax > SERIES_BESSEL, large, small)
    return np.where(x < 0, -out, out) if order == 1 else out


def _bessel(x, order, scaled):
    out = _bessel_scaled(x, order)
    if not scaled:
        with np.errstate(over="ignore"):
            out = out * np.exp(np.abs(np.asarray(x, np.float64)))
    return out.astype(x.dtype)


register("BesselI0e", kernel=host_kernel(lambda x: _bessel(x, 0, True)), fresh=True,
         grad=lambda op, g: [g * (bessel_i1e(op.inputs[0]) - sign(op.inputs[0]) * op.outputs[0])])
register("BesselI1e", kernel=host_kernel(lambda x: _bessel(x, 1, True)), fresh=True,
         grad=lambda op, g: [g * where(equal(op.inputs[0], 0.0), 0.5 * ones_like(op.inputs[0]),
                                       bessel_i0e(op.inputs[0])
                                       - op.outputs[0] * (sign(op.inputs[0]) + reciprocal(op.inputs[0])))])
register("BesselI0", kernel=host_kernel(lambda x: _bessel(x, 0, False)), fresh=True,
         grad=lambda op, g: [g * bessel_i1(op.inputs[0])])
register("BesselI1", kernel=host_kernel(lambda x: _bessel(x, 1, False)), fresh=True,
         grad=lambda op, g: [g * where(equal(op.inputs[0], 0.0), ones_like(op.inputs[0]),
                                       bessel_i0(op.inputs[0]) - op.outputs[0] / op.inputs[0])])

def bessel_i0(x, name=None):
    """The modified Bessel function of the first kind of order 0, elementwise."""
    return apply_op("BesselI0", _floats("bessel_i0", x), name=name or "BesselI0")


def bessel_i0e(x, name=None):
    """exp(-|x|) * bessel_i0(x), elementwise."""
    return apply_op("BesselI0e", _floats("bessel_i0e", x), name=name or "BesselI0e")


def bessel_i1(x, name=None):
    """The modified Bessel function of the first kind of order 1, elementwise."""
    return apply_op("BesselI1", _floats("bessel_i1", x), name=name or "BesselI1")


def bessel_i1e(x, name=None):
    """exp(-|x|) * bessel_i1(x), elementwise."""
    return apply_op("BesselI1e", _floats("bessel_i1e", x), name=name or "BesselI1e")
