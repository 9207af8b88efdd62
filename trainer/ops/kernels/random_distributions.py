"""TF's distributions from Philox uint32s (TF's random_distributions.h), so seeded draws equal TF's bit for bit.

A draw of n values reserves 256 blocks per value of the op's stream (TF's ReserveRandomOutputs) and fills
groups of values from consecutive blocks: a float32 group is the four floats of one block, a float64 or int64
group the two of one block. Truncated normals reject, so each group starts 256 blocks per value after the
previous one (TF's FillPhiloxRandom) and takes uint32 pairs in order until it holds its values.
"""
import math

import numpy as np

from . import libm

_PER_VALUE = 256  # blocks TF reserves per output value; do not change: it fixes where every next draw starts
_CHUNK = 1 << 18  # values transformed per pass: a pass's float64 temporaries stay a few MiB


def _wide(dtype):
    return np.dtype(dtype).itemsize == 8


def _fixed_blocks(stream, n, per_block):
    """The uint32s of the blocks a fixed-size draw of n values consumes, flat, after TF's reservation."""
    first = stream.reserve_outputs(n, _PER_VALUE)
    return stream.blocks(first, -(-n // per_block)).reshape(-1)


def unit_float32(bits):
    """TF's Uint32ToFloat: the low 23 bits as the mantissa of a float in [1, 2), minus 1."""
    return ((bits & np.uint32(0x7FFFFF)) | np.uint32(0x3F800000)).view(np.float32) - np.float32(1.0)


def unit_float64(high, low):
    """TF's Uint64ToDouble: 20 bits of `high` and all of `low` as the mantissa of a double in [1, 2), minus 1."""
    mantissa = (high.astype(np.uint64) & np.uint64(0xFFFFF)) << np.uint64(32) | low.astype(np.uint64)
    return (mantissa | np.uint64(1023 << 52)).view(np.float64) - 1.0


def uniform(stream, n, dtype):
    """n floats in [0, 1) (TF's RandomUniform)."""
    if _wide(dtype):
        bits = _fixed_blocks(stream, n, 2)
        return unit_float64(bits[0::2], bits[1::2])[:n]
    return unit_float32(_fixed_blocks(stream, n, 4))[:n].astype(dtype, copy=False)


def uniform_int(stream, n, low, high, dtype):
    """n integers in [low, high) (TF's RandomUniformInt): the raw bits modulo the range, added to low."""
    span = (int(high) - int(low)) % (1 << 64)
    if _wide(dtype):
        bits = _fixed_blocks(stream, n, 2).astype(np.uint64)
        raw = bits[0::2] | bits[1::2] << np.uint64(32)
    else:
        raw = _fixed_blocks(stream, n, 4).astype(np.uint64)
    offset = raw[:n] % np.uint64(span)
    return (offset + np.uint64(int(low) % (1 << 64))).view(np.int64).astype(dtype)  # wraps as TF's SignedAdd


def _box_muller32(x0, x1):
    # TF's BoxMullerFloat: the angle is rounded from double 2*pi times a float, the radius from glibc's logf.
    u1 = np.maximum(unit_float32(x0), np.float32(1.0e-7))
    angle = (2 * math.pi * unit_float32(x1).astype(np.float64)).astype(np.float32)
    radius = np.sqrt(np.float32(-2.0) * libm.logf(u1))
    sin, cos = libm.sincosf(angle)
    return sin * radius, cos * radius


def _box_muller64(x0, x1, x2, x3):
    u1 = np.maximum(unit_float64(x0, x1), 1.0e-7)
    radius = np.sqrt(-2.0 * libm.log(u1))
    sin, cos = libm.sincos(2 * math.pi * unit_float64(x2, x3))
    return sin * radius, cos * radius


def _pairs(bits, wide):
    """Box-Muller values of consecutive uint32s, in TF's order (each pair's sine value, then its cosine)."""
    if wide:
        first, second = _box_muller64(bits[..., 0::4], bits[..., 1::4], bits[..., 2::4], bits[..., 3::4])
    else:
        first, second = _box_muller32(bits[..., 0::2], bits[..., 1::2])
    return np.stack([first, second], axis=-1).reshape(*bits.shape[:-1], -1)


def normal(stream, n, dtype):
    """n standard normal values (TF's RandomStandardNormal)."""
    wide = _wide(dtype)
    bits = _fixed_blocks(stream, n, 2 if wide else 4)
    step = _CHUNK * (4 if wide else 2)  # uint32s per pass, whole Box-Muller pairs
    parts = [_pairs(bits[s:s + step], wide) for s in range(0, len(bits), step)]
    return np.concatenate(parts or [np.empty(0)])[:n].astype(dtype, copy=False)


def truncated_normal(stream, n, dtype):
    """n standard normal values within two standard deviations (TF's TruncatedNormal): out-of-range values are
    rejected and the group draws on from its own span."""
    wide = _wide(dtype)
    group = 2 if wide else 4
    groups = -(-n // group)
    first = stream.reserve_outputs(n, _PER_VALUE)
    step = _CHUNK // group
    parts = [_truncated_groups(stream, first, start, min(step, groups - start), group, wide)
             for start in range(0, groups, step)]
    return np.concatenate(parts or [np.empty(0, dtype)]).reshape(-1)[:n].astype(dtype, copy=False)


def _truncated_groups(stream, first, start, count, group, wide):
    """Groups start .. start + count - 1 of a truncated draw: each begins group * 64 blocks after the one before."""
    stride = group * _PER_VALUE // 4
    first += start * stride
    # A group's first block gives as many values as it needs; most keep them all, the rest take a second block.
    out = _pairs(stream.blocks(first, count, stride), wide)
    short = np.flatnonzero((np.abs(out) >= 2.0).any(axis=1))
    if len(short):
        offsets = short.astype(np.uint64) * np.uint64(stride) + np.uint64(1)
        values = np.concatenate([out[short], _pairs(stream.blocks(first, 0, offsets=offsets), wide)], axis=1)
        kept = np.abs(values) < 2.0
        enough = kept.sum(axis=1) >= group
        taken = kept & (np.cumsum(kept, axis=1) <= group)
        out[short[enough]] = values[enough][taken[enough]].reshape(-1, group)
        for g in short[~enough].tolist():
            out[g] = _one_group(stream, first + g * stride, group, wide)
    return out


def _one_group(stream, start, group, wide):
    values, block = [], 0
    while len(values) < group:
        candidates = _pairs(stream.blocks(start + block, 1).reshape(-1), wide)
        values.extend(v for v in candidates.tolist() if abs(v) < 2.0)
        block += 1
    return values[:group]


def uint32s(stream, count, reserve_blocks=None):
    """`count` raw uint32s in the order TF's SingleSampleAdapter hands them out; the stream moves past
    `reserve_blocks` blocks (by default those the values fill, TF's ReserveSamples32)."""
    blocks = -(-count // 4)
    first = stream.reserve(blocks if reserve_blocks is None else reserve_blocks)
    return stream.blocks(first, blocks).reshape(-1)[:count]


def shuffled_order(stream, n):
    """TF's RandomShuffle order of n rows: a Fisher-Yates pass forward, row i swapped with row i + (the i-th
    uint32 modulo the n - i rows left). Fewer than two rows draw nothing, as in TF."""
    order = np.arange(n)
    if n < 2:
        return order
    picks = (np.arange(n - 1) + uint32s(stream, n - 1) % np.arange(n, 1, -1, dtype=np.uint32)).tolist()
    for i, j in enumerate(picks):
        order[i], order[j] = order[j], order[i]
    return order


def categorical(stream, logits, num_samples):
    """TF's Multinomial on the CPU: per row, a unit double from each uint32 pair times the row's unnormalized
    CDF (exp of the logits less their finite maximum; non-finite logits add nothing), searched from the right.
    The rows take their pairs one after another, as TF's single worker does."""
    batch, classes = logits.shape
    stream_first = stream.reserve_outputs(batch * (-(-num_samples // 4) * 4) * 2, _PER_VALUE)
    count = 2 * batch * num_samples
    bits = stream.blocks(stream_first, -(-count // 4)).reshape(-1)[:count]
    units = unit_float64(bits[0::2], bits[1::2]).reshape(batch, num_samples)
    logits = logits.astype(np.float64)
    finite = np.isfinite(logits)
    top = np.where(finite, logits, -np.inf).max(axis=1, keepdims=True) if classes else np.zeros((batch, 1))
    cdf = np.cumsum(np.where(finite, np.exp(logits - top), 0.0), axis=1)
    out = np.empty((batch, num_samples), np.int64)
    for row in range(batch):
        out[row] = np.searchsorted(cdf[row], units[row] * cdf[row, -1], side="right")
    return out
