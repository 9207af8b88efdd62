"""tf.data.experimental: the TF1 transformations programs apply with Dataset.apply(), AUTOTUNE and the cardinality
constants."""
import numpy as np

from ..framework import dtypes
from ..ops.array_ops import cast
from .dataset import Dataset
from .transforms import AUTOTUNE  # noqa: F401  (tf.data.experimental.AUTOTUNE)

INFINITE_CARDINALITY, UNKNOWN_CARDINALITY = -1, -2  # what TF's cardinality() answers for those datasets


def shuffle_and_repeat(buffer_size, count=None, seed=None):
    """shuffle(buffer_size, seed) then repeat(count), reshuffling each pass: TF1's fused op yields the same."""
    return lambda dataset: dataset.shuffle(buffer_size, seed, reshuffle_each_iteration=True).repeat(count)


def map_and_batch(map_func, batch_size, num_parallel_batches=None, drop_remainder=False, num_parallel_calls=None):
    """map(map_func) then batch(batch_size, drop_remainder), which TF1's fused op yields too."""
    if num_parallel_batches is not None and num_parallel_calls is not None:
        raise ValueError("The `num_parallel_batches` and `num_parallel_calls` arguments are mutually exclusive.")
    return lambda dataset: dataset.map(map_func).batch(batch_size, drop_remainder)


def parallel_interleave(map_func, cycle_length, block_length=1, sloppy=False, buffer_output_elements=None,
                        prefetch_input_elements=None):
    """interleave(map_func, cycle_length, block_length); elements come in the deterministic order whatever
    `sloppy` says (TF1 allows, and does not require, another order when sloppy=True)."""
    return lambda dataset: dataset.interleave(map_func, cycle_length, block_length)


def unbatch():
    """Each element's slices along its first dimension, as separate elements."""
    return Dataset.unbatch


def enumerate_dataset(start=0):
    """(index, element) pairs, the int64 index counting from `start` (Dataset.enumerate, for Dataset.apply)."""
    return lambda dataset: dataset.enumerate(start)


def Counter(start=0, step=1, dtype=dtypes.int64):  # noqa: N802 - TF1's name
    """start, start + step, ... without end, as `dtype` scalars."""
    bound = np.iinfo(np.int64).max if step > 0 else np.iinfo(np.int64).min
    counts = Dataset.range(start, bound, step)
    dtype = dtypes.as_dtype(dtype)
    return counts if dtype == dtypes.int64 else counts.map(lambda n: cast(n, dtype))
