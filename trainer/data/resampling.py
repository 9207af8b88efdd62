"""tf.data.experimental.rejection_resample: elements kept or dropped at random so that their classes follow a
target distribution, as TF builds it from public dataset transformations.

Each element of class c is accepted with probability a_c = (r_c - m) / (max r - m), r = target / initial and m its
least ratio; with probability m an element is taken as it is instead (m = 1: all of them; m = 0: only accepted
ones), mixed by sample_from_datasets. Without initial_dist the initial distribution is estimated as the data goes,
from class counts over batches of 32 that start at 10 per class. The output is (class, element) pairs.
"""
import numpy as np

from ..framework import dtypes
from ..ops.array_ops import cast, one_hot
from ..ops.core_ops import convert_to_tensor
from ..ops.gather_ops import gather
from ..ops.pad_ops import tile
from ..ops.random_ops import random_uniform
from ..ops.reduction_ops import reduce_max, reduce_min, reduce_sum
from ..ops.shape_ops import expand_dims
from ..ops.stack_ops import stack
from ..ops.tensor_util import constant_value

ESTIMATION_BATCH, SMOOTHING = 32, 10  # TF's: classes counted over batches of 32, from 10 of each class


def _mixing(initial, target):
    """(acceptance probability per class, probability of taking an element as it is)."""
    ratio = target / initial
    high, low = reduce_max(ratio), reduce_min(ratio)
    return (ratio - low) / (high - low), low


def _estimated(target, classes):
    count = target.shape[0]

    def update(seen, batch):
        seen = seen + reduce_sum(one_hot(batch, count, dtype=dtypes.int64), 0)
        dist = cast(seen / reduce_sum(seen), dtypes.float32)
        return seen, tile(expand_dims(dist, 0), [ESTIMATION_BATCH, 1])
    return classes.batch(ESTIMATION_BATCH).scan(np.full([count], SMOOTHING, np.int64), update).unbatch()


def rejection_resample(dataset, class_func, target_dist, initial_dist=None, seed=None):
    """(class, element) pairs of `dataset` resampled so that class_func(element)'s classes follow target_dist
    (Dataset.rejection_resample: the sources it makes are the dataset's static methods, so this module imports no
    Dataset)."""
    target = cast(convert_to_tensor(target_dist, name="target_dist"), dtypes.float32)
    if initial_dist is not None:
        initial = cast(convert_to_tensor(initial_dist, name="initial_dist"), dtypes.float32)
        accept, original = _mixing(initial, target)
        accepts, originals = dataset.from_tensors(accept).repeat(), dataset.from_tensors(original).repeat()
        known = constant_value(original)
    else:
        initials = _estimated(target, dataset.map(class_func))
        mixed = initials.map(lambda initial: _mixing(initial, target))
        accepts, originals, known = mixed.map(lambda a, _: a), mixed.map(lambda _, o: o), None

    def with_class(*element):
        return class_func(*element), element[0] if len(element) == 1 else element

    def probability(accept, *element):
        label, data = with_class(*element)
        return label, gather(accept, label), data
    filtered = (dataset.zip((accepts, dataset)).map(lambda a, e: probability(a, *(e if isinstance(e, tuple)
                                                                                   else (e,))))
                .filter(lambda label, p, data: random_uniform([], seed=seed, dtype=p.dtype) < p)
                .map(lambda label, p, data: (label, data)).prefetch(3))
    if known is not None and known == 1:
        return dataset.map(with_class)
    if known is not None and known == 0:
        return filtered
    return dataset.sample_from_datasets([dataset.map(with_class), filtered],
                                        originals.map(lambda o: stack([o, 1.0 - o])), seed)
