"""Lookup tables filled from a dataset (tf.data.experimental's DatasetInitializer, table_from_dataset and
index_table_from_dataset): the dataset's (key, value) pairs are folded into two vectors by Dataset.reduce when the
table is initialized, and a KeyValueTensorInitializer fills the table with them."""
import numpy as np

from ..framework import dtypes
from ..ops.array_ops import concat, reshape
from ..ops.core_ops import convert_to_tensor
from ..ops.lookup_ops import KeyValueTensorInitializer, StaticHashTable, StaticVocabularyTable
from .dataset import Dataset


class DatasetInitializer(KeyValueTensorInitializer):
    """Fills a table with the (key, value) scalar pairs of a dataset."""

    def __init__(self, dataset):
        types = dataset.output_types
        if not isinstance(dataset, Dataset) or not isinstance(types, tuple) or len(types) != 2:
            raise ValueError(f"DatasetInitializer needs a dataset of (key, value) pairs, got {dataset!r}")
        empty = tuple(convert_to_tensor(np.array([], dtype=object if t == dtypes.string else np.dtype(t)), dtype=t)
                      for t in types)
        keys, values = dataset.reduce(empty, lambda state, pair: tuple(
            concat([s, reshape(x, [1])], 0) for s, x in zip(state, pair)))
        super().__init__(keys, values)


def table_from_dataset(dataset=None, num_oov_buckets=0, vocab_size=None, default_value=None, hasher_spec=None,
                       key_dtype=None, value_dtype=None, name=None):
    """A table of the dataset's first vocab_size (key, value) pairs; other keys map to default_value, or to one of
    num_oov_buckets buckets past the values."""
    if dataset is None:
        raise ValueError("`dataset` must be specified.")
    if getattr(hasher_spec, "hasher", "fasthash") != "fasthash":
        raise NotImplementedError(f"hasher_spec={hasher_spec!r} is not available in ringflow: out-of-vocabulary keys "
                                  "are bucketed by FarmHash Fingerprint64 (TF's FastHashSpec, the default)")
    if vocab_size is not None:
        dataset = dataset.take(vocab_size)
    init = DatasetInitializer(dataset)
    if num_oov_buckets:
        return StaticVocabularyTable(init, num_oov_buckets, name=name)
    return StaticHashTable(init, default_value, name=name)


def index_table_from_dataset(dataset=None, num_oov_buckets=0, vocab_size=None, default_value=-1, hasher_spec=None,
                             key_dtype=dtypes.string, name=None):
    """A table from each key of the dataset to its position (int64); other keys map to default_value, or to one
    of num_oov_buckets buckets past the positions."""
    if dataset is None:
        raise ValueError("`dataset` must be specified.")
    return table_from_dataset(dataset.enumerate().map(lambda i, key: (key, i)), num_oov_buckets, vocab_size,
                              default_value, hasher_spec, key_dtype, name=name)
