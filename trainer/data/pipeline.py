"""Input pipeline for data-parallel training.

The training set is read as one endless stream: epoch e is a permutation drawn from (seed, e), identical on
every rank, and the epochs follow each other without a gap, so a global batch may straddle two epochs
(like `shuffle().repeat().batch()` in TF). Global batch k covers stream positions [k·B, (k+1)·B); rank r
takes its slice of it, the B samples split as evenly as possible. Everything follows from (seed, position),
so a run resumed from a checkpoint's position continues with exactly the samples it would have seen.

This is ringflow's own rule for data parallelism, not TF1's `Dataset.shard`: shard(k, i) gives worker i the
elements i, i + k, i + 2k, ... of a dataset, while a Pipeline gives rank r a contiguous block of each global
batch of the stream. The two rules assign samples to ranks differently (README, "tf.data", says which to
use when).
"""
import hashlib
import math

import numpy as np

STATE_KEYS = ("seed", "position", "num_examples")  # what Pipeline.state() writes that restore() needs
FINGERPRINT_ROWS = 64  # rows hashed per array: a few KiB read, whatever the dataset's size


def shard_bounds(batch_size, size, rank):
    """[start, stop) of rank's share of a global batch: the first batch_size % size ranks take one more."""
    if not 0 <= rank < size:
        raise ValueError(f"rank {rank!r} is outside a world of size {size!r}")
    base, extra = divmod(batch_size, size)
    start = rank * base + min(rank, extra)
    return start, start + base + (rank < extra)


def epoch_permutation(seed, epoch, num_examples):
    """The order of the samples in one epoch, the same on every rank."""
    return np.random.default_rng([seed, epoch]).permutation(num_examples)


def steps_for_epochs(epochs, num_examples, batch_size):
    """Optimizer steps needed to stream `epochs` passes over the data."""
    return math.ceil(epochs * num_examples / batch_size)


class Pipeline:
    """Yields this rank's shard of every global batch of `arrays` (equal-length arrays, e.g. (x, y))."""

    def __init__(self, arrays, batch_size, rank=0, size=1, seed=0, shuffle=True):
        self.arrays = tuple(arrays)
        lengths = {len(a) for a in self.arrays}
        if len(lengths) != 1:
            raise ValueError(f"arrays of different lengths {sorted(lengths)!r} cannot be batched together")
        self.num_examples = lengths.pop()
        if self.num_examples == 0:
            raise ValueError("the dataset is empty: there is nothing to train on")
        if batch_size < 1:
            raise ValueError(f"batch size {batch_size!r} must be at least 1")
        if seed < 0:
            raise ValueError(f"seed {seed!r} must be non-negative")
        self.batch_size, self.rank, self.size = batch_size, rank, size
        self.seed, self.shuffle = seed, shuffle
        self.shard = shard_bounds(batch_size, size, rank)
        self.position = 0
        self._cached = (None, None)

    @property
    def epoch(self):
        return self.position // self.num_examples

    def _order(self, epoch):
        if self._cached[0] != epoch:
            order = (epoch_permutation(self.seed, epoch, self.num_examples) if self.shuffle
                     else np.arange(self.num_examples))
            self._cached = (epoch, order)
        return self._cached[1]

    def indices(self, start, stop):
        """Sample indices at stream positions [start, stop)."""
        out, pos = [], start
        while pos < stop:
            epoch, offset = divmod(pos, self.num_examples)
            take = min(stop - pos, self.num_examples - offset)
            out.append(self._order(epoch)[offset:offset + take])
            pos += take
        return np.concatenate(out) if out else np.zeros(0, dtype=np.int64)

    def next_batch(self):
        """This rank's part of the next global batch; advances the stream by the whole global batch."""
        lo, hi = self.shard
        idx = self.indices(self.position + lo, self.position + hi)
        self.position += self.batch_size
        return tuple(a[idx] for a in self.arrays)

    def seek(self, step):
        """Continue from global step `step` (stream position step x batch_size, at any number of ranks): what a
        program whose checkpoints hold only the global step (MonitoredTrainingSession's) calls after a restore."""
        self.position = int(step) * self.batch_size

    def state(self):
        """What a checkpoint needs to continue the stream exactly."""
        return {"seed": self.seed, "position": self.position, "num_examples": self.num_examples,
                "shuffle": self.shuffle}

    def restore(self, state):
        check_state(state)
        if state["num_examples"] != self.num_examples:
            raise ValueError(f"the checkpoint was taken on a dataset of {state['num_examples']!r} samples, "
                             f"this one has {self.num_examples!r}: resume with the same --dataset")
        self.seed, self.shuffle = int(state["seed"]), bool(state.get("shuffle", True))
        self.position = int(state["position"])
        self._cached = (None, None)


def check_state(state):
    """Raise ValueError naming the first key Pipeline.restore() needs that `state` lacks."""
    if not isinstance(state, dict):
        raise ValueError(f"the data position is {state!r}, not a dict with keys {', '.join(STATE_KEYS)}")
    for key in STATE_KEYS:
        if key not in state:
            raise ValueError(f"the data position has no {key!r} key (it has {sorted(state)!r})")


def fingerprint(arrays, rows=FINGERPRINT_ROWS):
    """A cheap digest of equal-length arrays: their shapes, dtypes and `rows` evenly spaced rows of each, so
    two nodes' copies of a dataset can be compared without reading it twice."""
    digest = hashlib.blake2b(digest_size=8)
    for a in arrays:
        a = np.asarray(a)
        digest.update(repr((a.shape, a.dtype.str)).encode())
        if len(a):
            picks = np.unique(np.linspace(0, len(a) - 1, min(rows, len(a))).astype(np.int64))
            digest.update(np.ascontiguousarray(a[picks]).tobytes())
    return digest.hexdigest()


def eval_batches(arrays, batch_size, rank=0, size=1):
    """This rank's even share of the whole dataset, in order, in chunks of at most batch_size."""
    n = len(arrays[0])
    lo, hi = shard_bounds(n, size, rank)
    for start in range(lo, hi, batch_size):
        stop = min(start + batch_size, hi)
        yield tuple(a[start:stop] for a in arrays)

