"""TF's CPU random numbers, bit for bit: the Philox4x32-10 counter generator and the stream a random op owns.

Philox (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11) turns a 64-bit key and a 128-bit
counter into four uint32s by ten rounds of multiply-and-xor, so block i of a stream is computed on its own:
here every block of a draw at once, as numpy arrays. TF's op holds a GuardedPhiloxRandom: the key is the op's
`seed`, the counter's high half its `seed2`, and each run reserves a span of counters and moves past it, so the
second run of an op gives TF's second draw. uint32 products are taken in uint64, whose high half is the mulhi.
"""
import os

import numpy as np

_M = (np.uint64(0xD2511F53), np.uint64(0xCD9E8D57))  # Philox4x32's round multipliers
_W = (0x9E3779B9, 0xBB67AE85)  # the key's increments per round (the golden ratio and sqrt(3) - 1, in 32 bits)
_LOW = np.uint64(0xFFFFFFFF)
_32 = np.uint64(32)
_CHUNK = 1 << 16  # blocks per pass: the round's temporaries stay in cache


def philox_blocks(key, counter, count, stride=1, offsets=None):
    """Blocks of four uint32s (a (count, 4) array): Philox4x32-10 of `key` (two uint32s) at the 128-bit counters
    counter, counter + stride, ... (stride 1: the order TF's generator returns them in), or at counter plus each
    of `offsets` (uint64s) when given."""
    count = count if offsets is None else len(offsets)
    out = np.empty((count, 4), np.uint32)
    for start in range(0, count, _CHUNK):
        n = min(_CHUNK, count - start)
        step = np.arange(start, start + n, dtype=np.uint64) * np.uint64(stride) if offsets is None else \
            np.asarray(offsets[start:start + n], np.uint64)
        _rounds(key, _counters(counter, step), out[start:start + n])
    return out


def _counters(first, offsets):
    base = np.uint64(first & 0xFFFFFFFFFFFFFFFF)
    lo = offsets + base  # wraps; the carry goes up as TF's Skip does
    hi = np.full(len(offsets), (first >> 64) & 0xFFFFFFFFFFFFFFFF, np.uint64) + (lo < base)
    return [(lo & _LOW).astype(np.uint32), (lo >> _32).astype(np.uint32), (hi & _LOW).astype(np.uint32),
            (hi >> _32).astype(np.uint32)]


def _rounds(key, counter, out):
    c0, c1, c2, c3 = counter
    p0, p1, high = (np.empty(len(c0), np.uint64) for _ in range(3))
    k0, k1 = key
    for _ in range(10):
        np.multiply(c0, _M[0], out=p0, dtype=np.uint64)
        np.multiply(c2, _M[1], out=p1, dtype=np.uint64)
        c0 = np.right_shift(p1, _32, out=high).astype(np.uint32)
        c0 ^= c1
        c0 ^= np.uint32(k0)
        c2 = np.right_shift(p0, _32, out=high).astype(np.uint32)
        c2 ^= c3
        c2 ^= np.uint32(k1)
        c1, c3 = p1.astype(np.uint32), p0.astype(np.uint32)
        k0, k1 = (k0 + _W[0]) & 0xFFFFFFFF, (k1 + _W[1]) & 0xFFFFFFFF
    out[:, 0], out[:, 1], out[:, 2], out[:, 3] = c0, c1, c2, c3


class PhiloxStream:
    """A random op's generator in one session (TF's GuardedPhiloxRandom): seeded by the op's (seed, seed2),
    both 0 meaning fresh entropy as in TF; `reserve(blocks)` hands out the next span of counters."""

    def __init__(self, seed, seed2):
        seed, seed2 = int(seed or 0), int(seed2 or 0)
        if seed == 0 and seed2 == 0:
            seed, seed2 = (int.from_bytes(os.urandom(8), "little") for _ in range(2))
        self.key = (seed & 0xFFFFFFFF, (seed >> 32) & 0xFFFFFFFF)
        self.counter = (seed2 & 0xFFFFFFFFFFFFFFFF) << 64

    def reserve(self, blocks):
        """The counter the caller starts at; the stream moves `blocks` 128-bit blocks past it."""
        first = self.counter
        self.counter = (first + int(blocks)) % (1 << 128)
        return first

    def reserve_outputs(self, outputs, per_output=256):
        """TF's ReserveRandomOutputs: `per_output` blocks for each output, more than any distribution uses, so
        the span does not depend on how many a rejection sampler consumed."""
        return self.reserve(outputs * per_output)

    def blocks(self, first, count, stride=1, offsets=None):
        """`count` blocks of four uint32s at the counters first, first + stride, ... (or first + each offset)."""
        return philox_blocks(self.key, first % (1 << 128), count, stride, offsets)

    def numpy_generator(self):
        """A numpy Generator seeded from the next block, for the draws TF's own algorithm is not reproduced for."""
        return np.random.default_rng(self.blocks(self.reserve(1), 1)[0].tolist())

    def state(self):
        """The stream's position as JSON-able ints, for checkpoints."""
        return {"key": list(self.key), "counter": self.counter}

    def set_state(self, state):
        self.key, self.counter = tuple(int(k) for k in state["key"]), int(state["counter"])


# TF's stateless ops scramble their seed pair into a key and a counter with one Philox block under this fixed key
# (kSeedMix in TF's stateless_random_ops.cc), so that either seed alone may be weak
_SEED_MIX = (0x3EC8F720, 0x02461E29)


def stateless_stream(seed0, seed1):
    """The stream a stateless op of seed pair (seed0, seed1) draws from, at the start of its counters: the same
    numbers on every run, as TF's StatelessRandom* kernels give them."""
    seed0, seed1 = int(seed0) % (1 << 64), int(seed1) % (1 << 64)
    mix = philox_blocks(_SEED_MIX, seed0 | seed1 << 64, 1)[0].tolist()
    stream = PhiloxStream(1, 1)
    stream.set_state({"key": mix[:2], "counter": (mix[2] | mix[3] << 32) << 64})
    return stream
