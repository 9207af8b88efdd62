"""The categorical columns of TF1's tf.feature_column, and the sequence columns: how a feature becomes ids.

A categorical column gives `ids(features)`, an int Tensor [batch, k] in [0, num_buckets) where -1 marks no id (TF1
drops -1 from an int feature when it makes the sparse ids: ringflow keeps ids dense and masks them instead). A
feature is a Tensor or a SparseTensor, read densely with its missing entries -1 (or ""); one of rank 1 is read as
[batch, 1], as TF1 reads it. A sequence column reads each row of its feature as a sequence of steps.
"""
import collections
import math

from ..framework import dtypes
from ..framework.graph_wrappers import control_dependencies
from ..ops.array_ops import cast, reshape, shape
from ..ops.check_ops import assert_greater_equal, assert_less
from ..ops.core_ops import constant, convert_to_tensor, identity
from ..ops.cross_ops import dense_cross_hashed
from ..ops.cwise_ops import logical_and, logical_or
from ..ops.math_ops import equal, greater_equal, less, not_equal, ones_like, where, zeros_like
from ..ops.reduction_ops import reduce_max
from ..ops.scan_ops import cumsum
from ..ops.shape_ops import expand_dims
from ..ops.sparse_ops import sparse_tensor_to_dense
from ..ops.sparse_tensor import SparseTensor, is_sparse
from ..ops.string_ops import as_string, string_to_hash_bucket_fast
from ..ops.vocabulary_ops import vocabulary_lookup

MISSING_ID = -1


def given(features, key):
    """The feature `key` of the `features` dict as given: a Tensor, an array or a SparseTensor."""
    if key not in features:
        raise ValueError(f"Feature {key!r} is not in the features dictionary (it has {sorted(map(str, features))!r})")
    return features[key]


def feature(features, key):
    """The feature `key` of the `features` dict as a Tensor of rank >= 2 ([batch, ...]); a SparseTensor's missing
    entries read as MISSING_ID (integers), "" (strings) or 0 (weights)."""
    value = given(features, key)
    if is_sparse(value):
        sparse = SparseTensor.from_value(value)
        missing = b"" if sparse.dtype == dtypes.string else MISSING_ID if sparse.dtype.kind in "iu" else 0
        tensor = sparse_tensor_to_dense(sparse, default_value=missing)
        tensor.set_shape(sparse.shape)
    else:
        tensor = convert_to_tensor(value)
    if tensor.shape.ndims is None:
        raise ValueError(f"Feature {key!r} has an unknown rank: give it a static shape ([batch] or [batch, ...])")
    if tensor.shape.ndims == 0:
        raise ValueError(f"Feature {key!r} cannot have rank 0: give one value per example, shape [batch, ...]")
    return expand_dims(tensor, -1) if tensor.shape.ndims == 1 else tensor


class IdentityCategoricalColumn(collections.namedtuple("IdentityCategoricalColumn",
                                                       ["key", "num_buckets", "default_value"])):
    """Integer ids in [0, num_buckets); out of range ones become default_value, or fail the run without one."""

    name = property(lambda self: self.key)

    def ids(self, features):
        values = feature(features, self.key)
        if values.dtype.kind not in "iu":
            raise ValueError(f"Invalid input, not integer: feature {self.key!r} has dtype {values.dtype.name}; "
                             "categorical_column_with_identity needs integer ids")
        values = cast(values, dtypes.int64)
        present = not_equal(values, MISSING_ID)
        if self.default_value is None:
            checked = where(present, values, zeros_like(values))
            message = f"feature {self.key!r}: ids must be in [0, {self.num_buckets})"
            with control_dependencies([assert_less(checked, constant(self.num_buckets, dtypes.int64), message=message),
                                       assert_greater_equal(checked, constant(0, dtypes.int64), message=message)]):
                return identity(values)
        outside = logical_and(present, logical_or(less(values, 0), greater_equal(values, self.num_buckets)))
        return where(outside, zeros_like(values) + self.default_value, values)


class VocabularyListCategoricalColumn(collections.namedtuple(
        "VocabularyListCategoricalColumn", ["key", "vocabulary_list", "dtype", "default_value", "num_oov_buckets"],
        defaults=(0,))):
    """Each value's index in vocabulary_list; a value not in it takes one of num_oov_buckets hash buckets after the
    vocabulary, or default_value (-1: no id). "" (strings) and -1 (integers) are missing values, as in TF1."""

    name = property(lambda self: self.key)
    num_buckets = property(lambda self: len(self.vocabulary_list) + self.num_oov_buckets)

    def ids(self, features):
        values, text = _categorical_values(features, self.key, self.dtype)
        return vocabulary_ids(values, text, list(self.vocabulary_list), self.dtype, self.num_oov_buckets,
                              self.default_value)


def vocabulary_ids(values, text, vocabulary, dtype, num_oov_buckets, default_value):
    """Each value's index in `vocabulary`; another value's FarmHash Fingerprint64 bucket among num_oov_buckets after
    it (TF1's lookup tables hash so), or default_value without them; a missing value ("" or -1) MISSING_ID."""
    words = [_bytes(w) for w in vocabulary] if text else [int(w) for w in vocabulary]
    return vocabulary_lookup(values, words, num_oov_buckets, default_value, b"" if text else MISSING_ID)


def _bytes(word):
    return word if isinstance(word, bytes) else str(word).encode()


def _categorical_values(features, key, dtype):
    """(the feature's tensor, whether it is text), refused where its dtype does not fit the column's, as TF1 does."""
    values = feature(features, key)
    text = dtype == dtypes.string
    if (values.dtype == dtypes.string) != text or (not text and values.dtype.kind not in "iu"):
        raise ValueError(f"Column dtype and SparseTensors dtype must be compatible. key: {key!r}, column "
                         f"dtype: {dtype.name}, tensor dtype: {values.dtype.name}")
    return values, text


class HashedCategoricalColumn(collections.namedtuple("HashedCategoricalColumn", ["key", "hash_bucket_size",
                                                                                  "dtype"])):
    """Each value's FarmHash Fingerprint64 bucket among hash_bucket_size (integers hashed as their decimal text, as
    TF1); "" (strings) and -1 (integers) are missing values."""

    name = property(lambda self: self.key)
    num_buckets = property(lambda self: self.hash_bucket_size)

    def ids(self, features):
        values, text = _categorical_values(features, self.key, self.dtype)
        ids = string_to_hash_bucket_fast(values if text else as_string(values), self.hash_bucket_size)
        missing = equal(values, b"" if text else MISSING_ID)
        return where(missing, zeros_like(ids) + MISSING_ID, ids)


class VocabularyFileCategoricalColumn(collections.namedtuple(
        "VocabularyFileCategoricalColumn", ["key", "vocabulary_file", "vocabulary_size", "num_oov_buckets",
                                            "default_value", "dtype"])):
    """Each value's line number in vocabulary_file (its first vocabulary_size lines); another value takes one of
    num_oov_buckets hash buckets after them (FarmHash Fingerprint64, as TF1's lookup tables), or default_value."""

    name = property(lambda self: self.key)
    num_buckets = property(lambda self: self.vocabulary_size + self.num_oov_buckets)

    def ids(self, features):
        values, text = _categorical_values(features, self.key, self.dtype)
        with open(self.vocabulary_file, "rb") as lines:
            words = [line.rstrip(b"\r\n") for line in lines][:self.vocabulary_size]
        return vocabulary_ids(values, text, words if text else [int(w) for w in words], self.dtype,
                              self.num_oov_buckets, self.default_value)


class WeightedCategoricalColumn(collections.namedtuple("WeightedCategoricalColumn", [
        "categorical_column", "weight_feature_key", "dtype"])):
    """A categorical column whose ids each carry the weight at the same place of feature weight_feature_key: an
    indicator sums them per id, an embedding or linear_model weighs its rows by them."""

    name = property(lambda self: f"{self.categorical_column.name}_weighted_by_{self.weight_feature_key}")
    num_buckets = property(lambda self: self.categorical_column.num_buckets)
    key = property(lambda self: self.categorical_column.key)

    def ids(self, features):
        return self.categorical_column.ids(features)

    def weights(self, features):
        weights = feature(features, self.weight_feature_key)
        if weights.dtype.kind != "f":
            raise ValueError(f"Bad dtype, expected float, got {weights.dtype.name} for weight feature "
                             f"{self.weight_feature_key!r} of {self.name!r}")
        return cast(weights, dtypes.float32)


def id_weights(column, features):
    """The weights of a categorical column's ids ([batch, k] float32), None where each weighs 1."""
    return column.weights(features) if isinstance(column, WeightedCategoricalColumn) else None


class SequenceCategoricalColumn(collections.namedtuple("SequenceCategoricalColumn", ["categorical_column"])):
    """A categorical column read as a sequence: feature [batch, T] (a SparseTensor, its rows' lengths varying) gives
    one id per step, ids [batch, T, 1]; an embedding or indicator column over it gives [batch, T, width]."""

    name = property(lambda self: self.categorical_column.name)
    num_buckets = property(lambda self: self.categorical_column.num_buckets)
    key = property(lambda self: self.categorical_column.key)

    def ids(self, features):
        return expand_dims(self.categorical_column.ids(features), -1)

    def sequence_length(self, features):
        return sequence_length(features, self.key, 1)


class SequenceNumericColumn(collections.namedtuple("SequenceNumericColumn", ["key", "shape", "default_value", "dtype",
                                                                              "normalizer_fn"])):
    """Real values of `shape` per step: feature [batch, T * prod(shape)] as float32 [batch, T, prod(shape)], the
    steps past a row's end default_value."""

    name = property(lambda self: self.key)
    width = property(lambda self: math.prod(self.shape))

    def sequence_dense(self, features, trainable=True):
        values = given(features, self.key)
        if self.normalizer_fn is not None:
            values = self.normalizer_fn(values)
        if is_sparse(values):
            sparse = SparseTensor.from_value(values)
            values = sparse_tensor_to_dense(sparse, default_value=self.default_value)
            values.set_shape(sparse.shape)
        values = cast(values, dtypes.float32)
        batch = values.shape.as_list()[0] if values.shape.ndims else None
        return reshape(values, [shape(values)[0] if batch is None else batch, -1, self.width])

    def sequence_length(self, features):
        return sequence_length(features, self.key, self.width)


def sequence_length(features, key, step_size):
    """int64 [batch]: each row's steps of `step_size` values, to its last value (a dense feature's rows are full)."""
    value = given(features, key)
    if is_sparse(value):
        sparse = SparseTensor.from_value(value)
        present = sparse_tensor_to_dense(SparseTensor(sparse.indices, ones_like(sparse.indices[:, 0]),
                                                      sparse.dense_shape), default_value=0)
    else:
        present = ones_like(feature(features, key), dtype=dtypes.int64)
    present = reshape(present, [shape(present)[0], -1])
    values = reduce_max(cumsum(ones_like(present), axis=1) * present, axis=1)
    return (values + (step_size - 1)) // step_size


class CrossedColumn(collections.namedtuple("CrossedColumn", ["keys", "hash_bucket_size", "hash_key"])):
    """Each example's combinations of values across `keys` (feature names, read as they are, or categorical
    columns, read as their ids; crossed columns among them add their own keys), each hashed into one of
    hash_bucket_size ids as TF1's SparseCross hashes them."""

    name = property(lambda self: "_X_".join(sorted(k if isinstance(k, str) else k.name for k in self.leaf_keys())))
    num_buckets = property(lambda self: self.hash_bucket_size)

    def leaf_keys(self):
        return [leaf for key in self.keys for leaf in (key.leaf_keys() if isinstance(key, CrossedColumn) else [key])]

    def ids(self, features):
        sparse, dense = [], []
        for key in self.leaf_keys():
            values = feature(features, key) if isinstance(key, str) else key.ids(features)
            values = values if values.dtype == dtypes.string else cast(values, dtypes.int64)
            # a column's ids are sparse in TF1, and so is a feature given as a SparseTensor
            (dense if isinstance(key, str) and not is_sparse(features[key]) else sparse).append(values)
        return dense_cross_hashed(sparse, dense, self.hash_bucket_size, self.hash_key)
