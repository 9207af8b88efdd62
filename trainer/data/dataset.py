"""TF1's tf.data.Dataset in graph mode: a pipeline built with the graph, run by the iterator ops of a session.

A Dataset wraps one Stage (stage.py), the last transformation of a tree of them; every method returns a new
Dataset and leaves this one as it is. Arguments are tensors as in TF1 (a Python number becomes a constant);
functions given to map/filter/flat_map/interleave are traced once into the graph (function.py).
"""
import os

import numpy as np

from ..framework.tensor import Tensor
from ..ops.tensor_util import constant_value
from ..framework.random_seed import get_seed
from ..framework import dtypes
from ..ops.array_ops import cast
from ..ops.core_ops import convert_to_tensor
from . import bucketing, consumers, resampling
from . import iterator as _iterator
from .batching import BatchStage, DenseToSparseBatchStage, PaddedBatchStage, UnbatchStage
from .choosing import ChooseStage, RandomStage, SampleStage
from .function import DatasetFunction
from .grouping import GroupByWindowStage, WindowingStage
from .options import OptionsStage, merged_options
from .scanning import IgnoreErrorsStage, ScanStage, TakeWhileStage, UniqueStage
from .sources import (ConcatenateStage, GeneratorStage, ListFilesStage, RangeStage, SliceStage, SparseSliceStage,
                      TensorStage, ZipStage)
from .stage import Stage, WindowStage, captures, scalar
from .structure import Spec, flatten
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

    # --- TF2's names that tf.compat.v1.data.Dataset has too ----------------------------------------------
    @staticmethod
    def list_files(file_pattern, shuffle=None, seed=None, name=None):
        """The names of the files matching file_pattern (a glob, or a vector of them), shuffled unless
        shuffle=False (sorted then); no match raises InvalidArgumentError when read."""
        files = Dataset(ListFilesStage(file_pattern))
        return files if shuffle is False else files.shuffle(np.iinfo(np.int64).max, seed)

    @staticmethod
    def counter(start=0, step=1, dtype=dtypes.int64, name=None):
        """start, start + step, ... without end, as `dtype` scalars (tf.data.experimental.Counter)."""
        bound = np.iinfo(np.int64).max if step > 0 else np.iinfo(np.int64).min
        counts = Dataset.range(start, bound, step)
        dtype = dtypes.as_dtype(dtype)
        return counts if dtype == dtypes.int64 else counts.map(lambda n: cast(n, dtype))

    @staticmethod
    def from_sparse_tensor_slices(sparse_tensor):
        """The rows of a SparseTensor, each an (indices, values, dense_shape) tuple of tensors, as TF's gives them."""
        return Dataset(SparseSliceStage(sparse_tensor))

    @staticmethod
    def random(seed=None, rerandomize_each_iteration=None, name=None):
        """int64 scalars drawn uniformly at random, without end (seeded as TF1's op seeds are)."""
        return Dataset(RandomStage(*get_seed(seed)))

    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
        """The next element of datasets[i] for each int64 scalar i of choice_dataset."""
        stages = [stage_of(d, "choose_from_datasets") for d in datasets]
        return Dataset(ChooseStage(stages, stage_of(choice_dataset, "choose_from_datasets"),
                                   stop_on_empty_dataset))

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                             rerandomize_each_iteration=None):
        """Elements of datasets drawn at random, dataset i with probability weights[i] (None: uniform)."""
        datasets = list(datasets)
        if weights is None:
            weights = [1.0 / len(datasets)] * len(datasets)
        elif isinstance(weights, Dataset):
            weights = weights.map(lambda w: cast(w, dtypes.float64))._stage
        elif not isinstance(weights, Tensor):
            weights = list(weights)
            if len(weights) != len(datasets):
                raise ValueError(f"Invalid `weights`. `weights` should have the same length as `datasets` but got "
                                 f"`len(weights)={len(weights)}` vs. `len(datasets)={len(datasets)}`.")
            kept = [(d, w) for d, w in zip(datasets, weights) if w != 0]  # TF skips a dataset of weight 0
            datasets, weights = [d for d, _ in kept], [w for _, w in kept]
        stages = [stage_of(d, "sample_from_datasets") for d in datasets]
        if not isinstance(weights, Stage):
            weights = convert_to_tensor(weights, dtype=dtypes.float64)
        return Dataset(SampleStage(stages, weights, *get_seed(seed), stop_on_empty_dataset))

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
        return Dataset(ConcatenateStage(self._stage, stage_of(dataset, "concatenate")))

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
        """The elements, kept after the first complete pass: in memory, or in a file when `filename` is given,
        which later iterators and sessions read instead of the input."""
        return Dataset(CacheStage(self._stage, filename))

    def snapshot(self, path, compression="AUTO", reader_func=None, shard_func=None, name=None):
        """The elements, written under the directory `path` by the first complete pass and read from there by
        later ones, in order (a cache file of ringflow's own format, not TF's snapshot files)."""
        if reader_func is not None or shard_func is not None:
            raise NotImplementedError("snapshot(reader_func=..., shard_func=...): ringflow writes one file and reads "
                                      "it in order; leave them None")
        os.makedirs(path, exist_ok=True)
        return Dataset(CacheStage(self._stage, os.path.join(path, "snapshot")))

    def prefetch(self, buffer_size):
        """The elements as they are: they are made when get_next asks, so there is nothing to overlap."""
        return Dataset(PrefetchStage(self._stage, buffer_size))

    def unbatch(self):
        """Each element's slices along its first dimension, as separate elements."""
        return Dataset(UnbatchStage(self._stage))

    def enumerate(self, start=0):
        """(index, element) pairs, the index an int64 counting from `start`."""
        return Dataset.zip((Dataset.range(start, np.iinfo(np.int64).max), self))

    def window(self, size, shift=None, stride=1, drop_remainder=False):
        """Windows of `size` elements, `stride` apart, one starting every `shift` (default size) elements: each an
        element whose components are datasets, for flat_map or interleave to read (e.g. lambda w: w.batch(size))."""
        return Dataset(WindowingStage(self._stage, size, shift, stride, drop_remainder, Dataset))

    def sparse_batch(self, batch_size, row_shape, name=None):
        """batch_size consecutive elements into a SparseTensor of dense shape [batch, *row_shape] (None: the
        largest in the batch), each element's entries at its row (tf.data.experimental.dense_to_sparse_batch)."""
        return Dataset(DenseToSparseBatchStage(self._stage, batch_size, row_shape))

    def scan(self, initial_state, scan_func, name=None):
        """scan_func(state, element) -> (new_state, output) over the elements from initial_state: the outputs."""
        return Dataset(ScanStage(self._stage, initial_state, scan_func))

    def take_while(self, predicate, name=None):
        """The elements before the first for which predicate(element) is False."""
        return Dataset(TakeWhileStage(self._stage, DatasetFunction(predicate, "take_while()", self._stage.spec)))

    def unique(self, name=None):
        """Each element (int32, int64 or string) the first time it comes."""
        return Dataset(UniqueStage(self._stage))

    def ignore_errors(self, log_warning=False, name=None):
        """The elements, without those whose map or filter function failed."""
        return Dataset(IgnoreErrorsStage(self._stage))

    def group_by_window(self, key_func, reduce_func, window_size=None, window_size_func=None, name=None):
        """Windows of up to window_size elements of one key_func(element) key, each turned into a dataset by
        reduce_func(key, window dataset), whose elements are the output."""
        if (window_size is None) == (window_size_func is None):
            raise ValueError("Either the `window_size` argument or the `window_size_func` argument must be "
                             "specified.")
        spec = self._stage.spec
        key = Spec(None, [()], [dtypes.int64])
        window = WindowStage(spec)
        reduce = DatasetFunction(lambda k: reduce_func(k, Dataset(window)), "group_by_window()", key,
                                 finish=_dataset_result("group_by_window()"))
        sizes = None if window_size_func is None else DatasetFunction(window_size_func, "group_by_window()", key)
        size = None if window_size is None else scalar(window_size, dtypes.int64, "window_size")
        return Dataset(GroupByWindowStage(self._stage, DatasetFunction(key_func, "group_by_window()", spec),
                                          reduce, window, size, sizes))

    def bucket_by_sequence_length(self, element_length_func, bucket_boundaries, bucket_batch_sizes,
                                  padded_shapes=None, padding_values=None, pad_to_bucket_boundary=False,
                                  no_padding=False, drop_remainder=False, name=None):
        """Elements batched (padded) with those of similar length: bucket i holds lengths in
        [bucket_boundaries[i-1], bucket_boundaries[i]) and batches bucket_batch_sizes[i] of them."""
        return bucketing.bucket_by_sequence_length(self, element_length_func, bucket_boundaries, bucket_batch_sizes,
                                                   padded_shapes, padding_values, pad_to_bucket_boundary,
                                                   no_padding, drop_remainder)

    def rejection_resample(self, class_func, target_dist, initial_dist=None, seed=None, name=None):
        """(class, element) pairs resampled at random so that class_func(element)'s classes follow target_dist
        (initial_dist: the data's, estimated as it goes when None)."""
        return resampling.rejection_resample(self, class_func, target_dist, initial_dist, seed)

    def reduce(self, initial_state, reduce_func, name=None):
        """reduce_func(state, element) folded over the elements from initial_state: the final state."""
        return consumers.reduce(self._stage, initial_state, reduce_func)

    def get_single_element(self, name=None):
        """The dataset's only element, as tensors (InvalidArgumentError when run if it has none or more)."""
        return consumers.single_element(self._stage)

    def cardinality(self):
        """A scalar int64 tensor: the number of elements, INFINITE_CARDINALITY (-1) or UNKNOWN_CARDINALITY (-2)."""
        return consumers.cardinality(self._stage)

    def with_options(self, options, name=None):
        """This dataset with `options` (tf.data.Options) merged into its own; they are kept, not acted on."""
        return Dataset(OptionsStage(self._stage, options))

    def options(self):
        """The tf.data.Options set on this dataset and its inputs, merged."""
        return merged_options(self._stage)

    def filter_with_legacy_function(self, predicate):
        """filter(predicate): TF1's legacy tracing and the current one give the same dataset here."""
        return self.filter(predicate)

    def map_with_legacy_function(self, map_func, num_parallel_calls=None, deterministic=None):
        """map(map_func): TF1's legacy tracing and the current one give the same dataset here."""
        return self.map(map_func, num_parallel_calls)

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


def stage_of(dataset, what):
    """The stage a Dataset wraps; TypeError naming `what` for anything else."""
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
    return _iterator.make_one_shot_iterator(stage_of(dataset, "make_one_shot_iterator"))


def make_initializable_iterator(dataset, shared_name=None):
    """tf.compat.v1.data.make_initializable_iterator(dataset, shared_name=None)."""
    return _iterator.make_initializable_iterator(stage_of(dataset, "make_initializable_iterator"), shared_name)
