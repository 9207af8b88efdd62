"""tf.data.experimental: the TF1 transformations programs apply with Dataset.apply(), the readers and ops of
tf.data.experimental, AUTOTUNE and the cardinality constants. Each transformation is the Dataset method of the same
job (TF 2's names), so the two spellings share one implementation."""
from ...framework import dtypes
from ...ops.array_ops import zeros
from ...ops.nest import same_structure
from ...ops.stack_ops import stack
from ...unsupported import missing_names
from . import service  # noqa: F401  (tf.data.experimental.service: TF2's tf.data service, which ringflow lacks)
from .. import consumers
from ..consumers import fold, single_element, write_records
from ..function import DatasetFunction
from ..grouping import GroupByReducerStage
from ..structure import Spec, flatten, pack, to_tensor
from ..csv_readers import CsvDataset, make_csv_dataset  # noqa: F401
from ..dataset import Dataset, stage_of
from ..iterator import make_saveable_from_iterator  # noqa: F401
from ..example_readers import make_batched_features_dataset, parse_example_dataset  # noqa: F401
from ..optional import Optional, get_next_as_optional  # noqa: F401
from ..options import (AutoShardPolicy, AutotuneAlgorithm, AutotuneOptions, DistributeOptions,  # noqa: F401
                      ExternalStatePolicy, OptimizationOptions, SHARD_HINT, ThreadingOptions)
from ..scanning import AssertCardinalityStage
from ..sql import SqlDataset  # noqa: F401
from ..tables import DatasetInitializer, index_table_from_dataset, table_from_dataset  # noqa: F401
from ..stage import INFINITE as INFINITE_CARDINALITY, UNKNOWN as UNKNOWN_CARDINALITY  # noqa: F401
from ..transforms import AUTOTUNE  # noqa: F401  (tf.data.experimental.AUTOTUNE)


def shuffle_and_repeat(buffer_size, count=None, seed=None):
    """shuffle(buffer_size, seed) then repeat(count), reshuffling each pass: TF1's fused op yields the same."""
    return lambda dataset: dataset.shuffle(buffer_size, seed, reshuffle_each_iteration=True).repeat(count)


def map_and_batch(map_func, batch_size, num_parallel_batches=None, drop_remainder=False, num_parallel_calls=None):
    """map(map_func) then batch(batch_size, drop_remainder), which TF1's fused op yields too."""
    if num_parallel_batches is not None and num_parallel_calls is not None:
        raise ValueError("The `num_parallel_batches` and `num_parallel_calls` arguments are mutually exclusive.")
    return lambda dataset: dataset.map(map_func).batch(batch_size, drop_remainder)


map_and_batch_with_legacy_function = map_and_batch  # TF1's legacy tracing gives the same dataset here


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
    """start, start + step, ... without end, as `dtype` scalars (Dataset.counter)."""
    return Dataset.counter(start, step, dtype)


def ignore_errors(log_warning=False):
    """The elements, without those whose map or filter function failed (Dataset.ignore_errors)."""
    return lambda dataset: dataset.ignore_errors(log_warning)


def take_while(predicate):
    """The elements before the first for which predicate(element) is False."""
    return lambda dataset: dataset.take_while(predicate)


def scan(initial_state, scan_func):
    """scan_func(state, element) -> (new_state, output) from initial_state: the outputs (Dataset.scan)."""
    return lambda dataset: dataset.scan(initial_state, scan_func)


def unique():
    """Each element the first time it comes (Dataset.unique)."""
    return lambda dataset: dataset.unique()


def group_by_window(key_func, reduce_func, window_size=None, window_size_func=None):
    """Dataset.group_by_window, for Dataset.apply."""
    return lambda dataset: dataset.group_by_window(key_func, reduce_func, window_size, window_size_func)


def bucket_by_sequence_length(element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes=None,
                              padding_values=None, pad_to_bucket_boundary=False, no_padding=False,
                              drop_remainder=False):
    """Dataset.bucket_by_sequence_length, for Dataset.apply."""
    return lambda dataset: dataset.bucket_by_sequence_length(
        element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes, padding_values,
        pad_to_bucket_boundary, no_padding, drop_remainder)


class Reducer:
    """What group_by_reducer folds each group with: init_func(key) -> state, reduce_func(state, element) -> state,
    finalize_func(state) -> output."""

    def __init__(self, init_func, reduce_func, finalize_func):
        self.init_func, self.reduce_func, self.finalize_func = init_func, reduce_func, finalize_func


def group_by_reducer(key_func, reducer):
    """One element per key_func(element) key: its elements folded by `reducer` (a Reducer)."""
    def apply(dataset):
        stage = stage_of(dataset, "group_by_reducer")
        key = DatasetFunction(key_func, "group_by_reducer()", stage.spec)
        init = DatasetFunction(reducer.init_func, "group_by_reducer()", Spec(None, [()], [dtypes.int64]))
        reduce = fold(reducer.reduce_func, "group_by_reducer()", init.result, stage.spec)
        finalize = DatasetFunction(reducer.finalize_func, "group_by_reducer()", reduce.result)
        return Dataset(GroupByReducerStage(stage, key, init, reduce, finalize))
    return apply


def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=False):
    """The next element of datasets[i] for each int64 scalar i of choice_dataset."""
    return Dataset.choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset)


def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False):
    """Elements of datasets drawn at random, dataset i with probability weights[i] (None: uniform)."""
    return Dataset.sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset)


class RandomDataset(Dataset):
    """int64 scalars drawn uniformly at random, without end."""

    def __init__(self, seed=None, rerandomize_each_iteration=None, name=None):
        super().__init__(stage_of(Dataset.random(seed), "RandomDataset"))


def get_single_element(dataset):
    """The dataset's only element, as tensors (InvalidArgumentError when run if it has none or more)."""
    return single_element(stage_of(dataset, "get_single_element"))


def cardinality(dataset):
    """A scalar int64 tensor: the number of elements, INFINITE_CARDINALITY or UNKNOWN_CARDINALITY."""
    return consumers.cardinality(stage_of(dataset, "cardinality"))


def assert_cardinality(expected_cardinality):
    """The elements, with FailedPreconditionError where there are more or fewer than expected_cardinality; the
    dataset's cardinality() is then expected_cardinality."""
    return lambda dataset: Dataset(AssertCardinalityStage(stage_of(dataset, "assert_cardinality"),
                                                          expected_cardinality))


def from_list(elements, name=None):
    """A dataset of the given elements (each a nested structure of tensors, all alike), in order."""
    if not elements:
        raise ValueError("Invalid `elements`. `elements` should not be empty.")
    parts = [flatten(e) for e in elements]
    structure = parts[0][1]
    for leaves, other in parts:
        if not same_structure(structure, other):
            raise ValueError(f"Invalid `elements`. Every element must have the structure of the first, "
                             f"{elements[0]!r}; got {pack(other, leaves)!r}")
    components = [stack([to_tensor(leaves[i]) for leaves, _ in parts]) for i in range(len(parts[0][0]))]
    return Dataset.from_tensor_slices(pack(structure, components))


def pad_to_cardinality(cardinality, mask_key="valid"):
    """Dict elements, each with mask_key True, then elements of zeros with mask_key False up to `cardinality`
    elements (the input must have a known cardinality not above it)."""
    def apply(dataset):
        types = dataset.output_types
        if not isinstance(types, dict):
            raise ValueError(f"`pad_to_cardinality` requires its input dataset to be a dictionary, got elements of "
                             f"types {types}")
        shapes = dataset.output_shapes
        if not all(s.is_fully_defined() for s in shapes.values()):
            raise ValueError(f"`pad_to_cardinality` needs fully defined element shapes to pad with zeros, got "
                             f"{shapes}")
        filler = {k: zeros(shapes[k], types[k]) for k in types}
        filler[mask_key] = False
        missing = cardinality - consumers.cardinality(stage_of(dataset, "pad_to_cardinality"))
        marked = dataset.map(lambda element: {**element, mask_key: True})
        return marked.concatenate(Dataset.from_tensors(filler).repeat(missing))
    return apply


def rejection_resample(class_func, target_dist, initial_dist=None, seed=None):
    """Dataset.rejection_resample, for Dataset.apply."""
    return lambda dataset: dataset.rejection_resample(class_func, target_dist, initial_dist, seed)


def snapshot(path, compression="AUTO", reader_func=None, shard_func=None):
    """Dataset.snapshot, for Dataset.apply."""
    return lambda dataset: dataset.snapshot(path, compression, reader_func, shard_func)


def dense_to_sparse_batch(batch_size, row_shape):
    """Dataset.sparse_batch, for Dataset.apply."""
    return lambda dataset: dataset.sparse_batch(batch_size, row_shape)


def copy_to_device(target_device, source_device="/cpu:0"):
    """The elements as they are: on a machine without accelerators TF copies them from the CPU to the CPU."""
    return lambda dataset: dataset


def prefetch_to_device(device, buffer_size=None):
    """copy_to_device(device) then prefetch(buffer_size), as TF builds it."""
    return lambda dataset: dataset.apply(copy_to_device(device)).prefetch(buffer_size)


class TFRecordWriter:
    """Writes a dataset of scalar strings as the records of a TFRecord file: write(dataset) is the op."""

    def __init__(self, filename, compression_type=None):
        self._filename, self._compression_type = filename, compression_type

    def write(self, dataset):
        return write_records(stage_of(dataset, "TFRecordWriter.write"), self._filename, self._compression_type)


_ABOVE = {}  # names implemented on a higher floor, registered from there on import


def register_above(name, value):
    """Install a tf.data.experimental name that stands on a higher floor: CheckpointInputPipelineHook saves through
    tf.train's Saver and is a tf.train hook, so trainer.train registers it when imported (`import trainer` does)."""
    _ABOVE[name] = value


_missing = missing_names(__name__, have="ringflow's tf.data.experimental has the transformations, readers and "
                            "ops of TF1 input pipelines", reasons={
                                **dict.fromkeys(["from_variant", "to_variant"],
                                                "a dataset is not a variant tensor of the graph here: pass the "
                                                "Dataset object itself"),
                                **dict.fromkeys(["Structure", "TensorStructure", "SparseTensorStructure",
                                                 "RaggedTensorStructure", "TensorArrayStructure", "DatasetStructure",
                                                 "OptionalStructure", "get_structure"],
                                                "TypeSpecs: a dataset's element is described by output_types, "
                                                "output_shapes and output_classes"),
                                "dense_to_ragged_batch": "ragged tensors",
                                "index_table_from_dataset": "TF2's lookup tables from datasets",
                                "table_from_dataset": "TF2's lookup tables from datasets",
                                "enable_debug_mode": "TF2's eager debug mode",
                                "DatasetInitializer": "TF2's lookup tables from datasets",
                            })


def __getattr__(name):  # noqa: N807  (the module hook's name)
    if name in _ABOVE:
        return _ABOVE[name]
    return _missing(name)
