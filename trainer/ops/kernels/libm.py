"""The C library's log and sin/cos as TF's Box-Muller calls them, rounding for rounding, on numpy arrays.

TF's normal draws go through logf and sincosf (float32) or log and sincos (float64) of glibc. numpy's own
float32 functions round differently in about one value in a hundred, so float32 is glibc's algorithm (Szabolcs
Nagy's logf and sincosf, glibc 2.28 on) redone in float64 arrays with its tables. On FMA machines glibc fuses
multiply-adds; the two whose single rounding shows in the float32 result (sincosf's range reduction, logf's
z / c - 1) are split here so that they round once too, the others differ from glibc's far below float32's
rounding (no value of a million Box-Muller draws differs). float64 calls the C library itself through Python's
math module, one value at a time (float64 draws are rare and small).
"""
import math

import numpy as np

# logf: log(x) = log1p(z / c - 1) + log(c) + k ln2, c from a 16-entry table by the top mantissa bits.
_LOGF_INVC = np.array([float.fromhex(h) for h in (
    "0x1.661ec79f8f3bep+0", "0x1.571ed4aaf883dp+0", "0x1.49539f0f010bp+0", "0x1.3c995b0b80385p+0",
    "0x1.30d190c8864a5p+0", "0x1.25e227b0b8eap+0", "0x1.1bb4a4a1a343fp+0", "0x1.12358f08ae5bap+0",
    "0x1.0953f419900a7p+0", "0x1p+0", "0x1.e608cfd9a47acp-1", "0x1.ca4b31f026aap-1",
    "0x1.b2036576afce6p-1", "0x1.9c2d163a1aa2dp-1", "0x1.886e6037841edp-1", "0x1.767dcf5534862p-1")])
_LOGF_LOGC = np.array([float.fromhex(h) for h in (
    "-0x1.57bf7808caadep-2", "-0x1.2bef0a7c06ddbp-2", "-0x1.01eae7f513a67p-2", "-0x1.b31d8a68224e9p-3",
    "-0x1.6574f0ac07758p-3", "-0x1.1aa2bc79c81p-3", "-0x1.a4e76ce8c0e5ep-4", "-0x1.1973c5a611cccp-4",
    "-0x1.252f438e10c1ep-5", "0x0p+0", "0x1.aa5aa5df25984p-5", "0x1.c5e53aa362eb4p-4",
    "0x1.526e57720db08p-3", "0x1.bc2860d22477p-3", "0x1.1058bc8a07ee1p-2", "0x1.4043057b6ee09p-2")])
_LN2 = float.fromhex("0x1.62e42fefa39efp-1")
_LOGF_POLY = [float.fromhex(h) for h in ("-0x1.00ea348b88334p-2", "0x1.5575b0be00b6ap-2", "-0x1.ffffef20a4123p-2")]

# sincosf: 2/pi scaled by 2^24, pi/2, and the cosine and sine polynomials.
_HPI_INV = float.fromhex("0x1.45F306DC9C883p+23")
_HPI = float.fromhex("0x1.921FB54442D18p0")
_COS = [float.fromhex(h) for h in ("0x1p0", "-0x1.ffffffd0c621cp-2", "0x1.55553e1068f19p-5",
                                   "-0x1.6c087e89a359dp-10", "0x1.99343027bf8c3p-16")]
_HIGH_BITS = np.uint64(0xFFFFFFFFF8000000)  # a double's sign, exponent and top 26 mantissa bits
_SIN = [float.fromhex(h) for h in ("-0x1.555545995a603p-3", "0x1.1107605230bc4p-7", "-0x1.994eb3774cf24p-13")]


def _split(value):
    """value as hi + lo, hi keeping 26 significant bits: small integers and float32s times hi are exact."""
    hi = float((np.array(value).view(np.uint64) & _HIGH_BITS).view(np.float64))
    return hi, value - hi


def _abstop12(x):
    return (np.asarray(x, np.float32).view(np.uint32) >> np.uint32(20)) & np.uint32(0x7FF)


_HPI_HI, _HPI_LO = _split(_HPI)
_TOP_PIO4, _TOP_TINY = (_abstop12(np.float32(v)) for v in (math.pi / 4, 2.0 ** -12))


def logf(x):
    """glibc's logf of positive normal float32s."""
    ix = np.asarray(x, np.float32).view(np.uint32)
    tmp = ix - np.uint32(0x3F330000)
    i = (tmp >> np.uint32(19)) % np.uint32(16)
    k = (tmp.view(np.int32) >> np.int32(23)).astype(np.float64)
    z = (ix - (tmp & np.uint32(0xFF800000))).view(np.float32).astype(np.float64)
    invc = _LOGF_INVC[i]
    hi = (invc.view(np.uint64) & _HIGH_BITS).view(np.float64)
    r = (z * hi - 1.0) + z * (invc - hi)  # z * invc - 1 rounded once, as the fused multiply-subtract does
    y0 = _LOGF_LOGC[i] + k * _LN2
    r2 = r * r
    a0, a1, a2 = _LOGF_POLY
    y = a1 * r + a2
    y = a0 * r2 + y
    y = y * r2 + (y0 + r)
    return y.astype(np.float32)


def sincosf(x):
    """glibc's sincosf of float32s in [0, 120) (its one-step range reduction): (sin, cos) as float32 arrays."""
    x32 = np.asarray(x, np.float32)
    top, x = _abstop12(x32), x32.astype(np.float64)
    n = ((x * _HPI_INV).astype(np.int32) + 0x800000) >> 24
    n[top < _TOP_PIO4] = 0
    turns = n.astype(np.float64)
    r = (x - turns * _HPI_HI) - turns * _HPI_LO  # x - n * pi/2 rounded once, as the fused multiply-subtract does
    # glibc negates the argument (quadrants 1, 2) and takes a negated cosine table (quadrants 2, 3); both
    # polynomials are odd or even in their inputs, so negating their results afterwards is exact and the same.
    x2 = r * r
    x3, x4 = x2 * r, x2 * x2
    sine = (r + x3 * _SIN[0]) + (x3 * x2) * (_SIN[1] + x2 * _SIN[2])
    cosine = ((_COS[0] + x2 * _COS[1]) + x4 * _COS[2]) + (x4 * x2) * (_COS[3] + x2 * _COS[4])
    quadrant = n & 3
    sine[(quadrant == 1) | (quadrant == 2)] *= -1.0
    cosine[quadrant >= 2] *= -1.0
    swap = (n & 1).astype(bool)
    sin, cos = np.where(swap, cosine, sine).astype(np.float32), np.where(swap, sine, cosine).astype(np.float32)
    tiny = top < _TOP_TINY
    sin[tiny], cos[tiny] = x32[tiny], 1.0
    return sin, cos


def log(x):
    """The C library's double log, value by value."""
    return np.array([math.log(v) for v in np.asarray(x, np.float64).ravel().tolist()]).reshape(np.shape(x))


def sincos(x):
    """The C library's double sin and cos, value by value."""
    flat = np.asarray(x, np.float64).ravel().tolist()
    return (np.array([math.sin(v) for v in flat]).reshape(np.shape(x)),
            np.array([math.cos(v) for v in flat]).reshape(np.shape(x)))
