"""TF1's tf.data.Dataset in graph mode: a pipeline built with the graph, run by the iterator ops of a session.

A Dataset wraps one Stage (stage.py), the last transformation of a tree of them; every method returns a new
Dataset and leaves this one as it is. Arguments are tensors as in TF1 (a Python number becomes a constant);
functions given to map/filter/flat_map/interleave are traced once into the graph (function.py).
"""
import numpy as np

from ..framework.tensor import Tensor
from ..ops.tensor_util import constant_value
from ..framework.random_seed import get_seed
from . import iterator as _iterator
from .batching import BatchStage, PaddedBatchStage, UnbatchStage
from .function import DatasetFunction
from .sources import ConcatenateStage, GeneratorStage, RangeStage, SliceStage, TensorStage, ZipStage
from .stage import captures
from .structure import flatten
from .transforms import (AUTOTUNE, CacheStage, FilterStage, InterleaveStage, MapStage, PrefetchStage, RepeatStage,
                         ShardStage, ShuffleStage, SkipStage, TakeStage)


class _Nested:
    """What a flat_map/interleave function returned: the dataset, read through the tensors it captured."""

    def __init__(self, dataset):
        self.stage, self.spec = dataset._stage, dataset._stage.spec


class Dataset:
    """A sequence of elements, each a nested structure (tuple, dict) of tensors of fixed dtypes (TF1's DatasetV1)."""

    def __init__(self, stage):
        self._stage = stage

    # --- sources -----------------------------------------------------------------------------------
    @staticmethod
    def from_tensors(tensors):
        """A dataset of one element, `tensors`."""
        return Dataset(TensorStage(tensors))

    @staticmethod
    def from_tensor_slices(tensors):
        """A dataset of the slices of `tensors` along their first dimension (a list is one tensor, as in TF1)."""
        return Dataset(SliceStage(tensors))

    @staticmethod
    def from_generator(generator, output_types, output_shapes=None, args=None):
        """A dataset of the elements `generator(*args)` yields, converted to output_types; called again for
        each pass over the dataset."""
        return Dataset(GeneratorStage(generator, output_types, output_shapes, args))

    @staticmethod
    def range(*args):
        """int64 elements as Python's range(stop), range(start, stop) or range(start, stop, step)."""
        return Dataset(RangeStage(*args))

    @staticmethod
    def zip(datasets):
        """Elements of a (nested tuple/dict) structure of datasets side by side, until the shortest ends."""
        leaves, structure = flatten(datasets)
        if not leaves:
            raise ValueError(f"Dataset.zip() needs at least one dataset, got {datasets!r}")
        for d in leaves:
            if not isinstance(d, Dataset):
                raise TypeError("The argument to `Dataset.zip()` must be a nested structure of `Dataset` objects"
                                + (". Nested structures do not support Python lists; please use a tuple instead."
                                   if isinstance(d, list) else f", got {d!r}."))
        return Dataset(ZipStage(structure, [d._stage for d in leaves]))

    # --- transformations ---------------------------------------------------------------------------
    def concatenate(self, dataset):
        """This dataset's elements, then `dataset`'s (same structure and types)."""
        return Dataset(ConcatenateStage(self._stage, _stage_of(dataset, "concatenate")))

    def map(self, map_func, num_parallel_calls=None):
        """map_func(element) for each element, in order (num_parallel_calls is accepted; elements are mapped
        one at a time, which gives TF1's order)."""
        return Dataset(MapStage(self._stage, DatasetFunction(map_func, "Dataset.map()", self._stage.spec)))

    def filter(self, predicate):
        """The elements for which predicate(element), a scalar bool tensor, is True."""
        return Dataset(FilterStage(self._stage, DatasetFunction(predicate, "Dataset.filter()", self._stage.spec)))

    def flat_map(self, map_func):
        """The elements of the dataset map_func returns for each element, one dataset after another."""
        return self._interleave(map_func, 1, 1, "Dataset.flat_map()")

    def interleave(self, map_func, cycle_length=AUTOTUNE, block_length=1, num_parallel_calls=None):
        """The elements of the datasets map_func returns, cycle_length of them at a time, block_length
        elements from each in turn (AUTOTUNE: the number of CPUs, as in TF1; num_parallel_calls is accepted
        and the order is TF1's deterministic one)."""
        return self._interleave(map_func, cycle_length, block_length, "Dataset.interleave()")

    def _interleave(self, map_func, cycle_length, block_length, name):
        function = DatasetFunction(map_func, name, self._stage.spec, finish=_dataset_result(name))
        return Dataset(InterleaveStage(self._stage, function, cycle_length, block_length))

    def batch(self, batch_size, drop_remainder=False):
        """batch_size consecutive elements stacked into one; the batch dimension is None unless drop_remainder."""
        return Dataset(BatchStage(self._stage, batch_size, drop_remainder))

    def padded_batch(self, batch_size, padded_shapes, padding_values=None, drop_remainder=False):
        """Batches whose components are padded to padded_shapes (-1/None: the longest in the batch)."""
        return Dataset(PaddedBatchStage(self._stage, batch_size, padded_shapes, padding_values, drop_remainder))

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=None):
        """Elements drawn uniformly from a buffer of buffer_size, refilled from the input (TF1's shuffle)."""
        if isinstance(seed, Tensor):
            known = constant_value(seed)
            if known is None:
                raise NotImplementedError(f"Dataset.shuffle(seed={seed.name!r}): a seed known only when the graph "
                                          "runs is not supported; give a Python int (or a constant)")
            seed = int(known)
        seed, seed2 = get_seed(seed)
        reshuffle = True if reshuffle_each_iteration is None else bool(reshuffle_each_iteration)
        return Dataset(ShuffleStage(self._stage, buffer_size, seed, seed2, reshuffle))

    def repeat(self, count=None):
        """The elements `count` times over (None or -1: forever)."""
        return Dataset(RepeatStage(self._stage, count))

    def take(self, count):
        """At most the first `count` elements (-1: all)."""
        return Dataset(TakeStage(self._stage, count))

    def skip(self, count):
        """All but the first `count` elements (-1: none)."""
        return Dataset(SkipStage(self._stage, count))

    def shard(self, num_shards, index):
        """Every num_shards-th element starting at `index`: worker `index` of `num_shards` reads elements
        index, index + num_shards, ... (round robin, not contiguous blocks)."""
        return Dataset(ShardStage(self._stage, num_shards, index))

    def cache(self, filename=""):
        """The elements, kept in memory after the first complete pass."""
        return Dataset(CacheStage(self._stage, filename))

    def prefetch(self, buffer_size):
        """The elements as they are: they are made when get_next asks, so there is nothing to overlap."""
        return Dataset(PrefetchStage(self._stage, buffer_size))

    def unbatch(self):
        """Each element's slices along its first dimension, as separate elements."""
        return Dataset(UnbatchStage(self._stage))

    def enumerate(self, start=0):
        """(index, element) pairs, the index an int64 counting from `start`."""
        return Dataset.zip((Dataset.range(start, np.iinfo(np.int64).max), self))

    def apply(self, transformation_func):
        """transformation_func(self), which must return a Dataset."""
        dataset = transformation_func(self)
        if not isinstance(dataset, Dataset):
            raise TypeError(f"`transformation_func` must return a Dataset. Got {dataset!r}.")
        return dataset

    # --- iterators ---------------------------------------------------------------------------------
    def make_one_shot_iterator(self):
        """An iterator that initializes itself (the dataset may not capture placeholders or variables)."""
        return _iterator.make_one_shot_iterator(self._stage)

    def make_initializable_iterator(self, shared_name=None):
        """An iterator whose `.initializer` must run first (and may run again to restart it)."""
        return _iterator.make_initializable_iterator(self._stage, shared_name)

    def __iter__(self):
        raise RuntimeError("__iter__() is only supported inside of tf.function or when eager execution is enabled: "
                           "in graph mode, make an iterator (make_one_shot_iterator()) and run its get_next()")

    # --- structure ---------------------------------------------------------------------------------
    @property
    def output_types(self):
        return self._stage.spec.output_types()

    @property
    def output_shapes(self):
        return self._stage.spec.output_shapes()

    @property
    def output_classes(self):
        return self._stage.spec.output_classes()

    def __repr__(self):
        return f"<DatasetV1Adapter {self._stage.spec!r}>"


def _stage_of(dataset, what):
    if not isinstance(dataset, Dataset):
        raise TypeError(f"Dataset.{what}() needs a Dataset, got {dataset!r}")
    return dataset._stage


def _dataset_result(name):
    def finish(result):
        if not isinstance(result, Dataset):
            raise TypeError(f"`map_func` passed to {name} must return a `Dataset` object. Got {result!r}")
        return captures(result._stage), _Nested(result)
    return finish


def get_output_types(dataset_or_iterator):
    """The nested structure of dtypes of a Dataset's or Iterator's elements."""
    return dataset_or_iterator.output_types


def get_output_shapes(dataset_or_iterator):
    """The nested structure of TensorShapes of a Dataset's or Iterator's elements."""
    return dataset_or_iterator.output_shapes


def get_output_classes(dataset_or_iterator):
    """The nested structure of classes (tg.Tensor) of a Dataset's or Iterator's elements."""
    return dataset_or_iterator.output_classes


def make_one_shot_iterator(dataset):
    """tf.compat.v1.data.make_one_shot_iterator(dataset)."""
    return _iterator.make_one_shot_iterator(_stage_of(dataset, "make_one_shot_iterator"))


def make_initializable_iterator(dataset, shared_name=None):
    """tf.compat.v1.data.make_initializable_iterator(dataset, shared_name=None)."""
    return _iterator.make_initializable_iterator(_stage_of(dataset, "make_initializable_iterator"), shared_name)
