"""TF's CPU random numbers, bit for bit: the Philox4x32-10 counter generator and the stream a random op owns.

Philox (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11) turns a 64-bit key and a 128-bit
counter into four uint32s by ten rounds of multiply-and-xor, so block i of a stream is computed on its own:
here every block of a draw at once, as numpy arrays. TF's op holds a GuardedPhiloxRandom: the key is the op's
`seed`, the counter's high half its `seed2`, and each run reserves a span of counters and moves past it, so the
second run of an op gives TF's second draw. uint32 products are taken in uint64, whose high half is the mulhi.
"""
import os

import numpy as np

_M = np.array([[0xD2511F53], [0xCD9E8D57]], np.uint64)  # Philox4x32's round multipliers, of words 0 and 2
_W = (0x9E3779B9, 0xBB67AE85)  # the key's increments per round (the golden ratio and sqrt(3) - 1, in 32 bits)
_LOW = np.uint64(0xFFFFFFFF)
_32 = np.uint64(32)
# Blocks per pass: a pass's two [2, n] uint64 arrays (512 KiB) stay in a core's L2 through its 50 numpy calls. One
# core, 229,376 floats (an LSTM's [28, 64, 128] outputs' dropout): 2.5 ms with the four words as uint32 arrays and
# 65,536 blocks a pass (2.5 MiB of temporaries), 1.1 ms at 16,384, 0.93 ms as below; 1 M floats 8.5, 5.2 and 4.4 ms.
_CHUNK = 1 << 14


def philox_blocks(key, counter, count, stride=1, offsets=None):
    """Blocks of four uint32s (a (count, 4) array): Philox4x32-10 of `key` (two uint32s) at the 128-bit counters
    counter, counter + stride, ... (stride 1: the order TF's generator returns them in), or at counter plus each
    of `offsets` (uint64s) when given."""
    count = count if offsets is None else len(offsets)
    out = np.empty((count, 4), np.uint32)
    keys = _round_keys(key)
    for start in range(0, count, _CHUNK):
        n = min(_CHUNK, count - start)
        step = np.arange(start, start + n, dtype=np.uint64) * np.uint64(stride) if offsets is None else \
            np.asarray(offsets[start:start + n], np.uint64)
        _rounds(keys, _counters(counter, step), out[start:start + n])
    return out


def _round_keys(key):
    """Each round's key words, shifted into the high halves of the packed state (_rounds): [2, 1] uint64s."""
    k0, k1, keys = key[0], key[1], []
    for _ in range(10):
        keys.append(np.array([[k0 << 32], [k1 << 32]], np.uint64))
        k0, k1 = (k0 + _W[0]) & 0xFFFFFFFF, (k1 + _W[1]) & 0xFFFFFFFF
    return keys


def _counters(first, offsets):
    """The counters first + offsets as Philox's four words, packed in pairs: [2, n] uint64s, words 0 and 2 in the
    high halves, 1 and 3 in the low."""
    base = np.uint64(first & 0xFFFFFFFFFFFFFFFF)
    lo = offsets + base  # wraps; the carry goes up as TF's Skip does
    hi = np.full(len(offsets), (first >> 64) & 0xFFFFFFFFFFFFFFFF, np.uint64) + (lo < base)
    state = np.empty((2, len(offsets)), np.uint64)
    for row, words in zip(state, (lo, hi)):  # word 0 is the counter's low 32 bits, word 1 the next
        np.left_shift(words, _32, out=row)
        row |= words >> _32
    return state


def _rounds(keys, state, out):
    """Ten rounds on the packed state. A round takes the products p0 = w0 * M0 and p2 = w2 * M1 (in uint64: high
    half the mulhi, low half the mullo), then words (0, 1) become (hi(p2) ^ w1 ^ k0, lo(p2)), i.e. the pair is
    p2 ^ (w1 << 32) ^ (k0 << 32), and (2, 3) likewise from p0, w3 and k1: five numpy calls a round."""
    products = np.empty_like(state)
    swapped = products[::-1]  # p2 on row 0 (words 0, 1), p0 on row 1
    for key in keys:
        np.right_shift(state, _32, out=products)
        products *= _M
        state <<= _32
        state ^= swapped
        state ^= key
    out[:, 0], out[:, 1] = state[0] >> _32, state[0]
    out[:, 2], out[:, 3] = state[1] >> _32, state[1]


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
