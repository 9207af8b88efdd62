"""The feature columns of TF1's tf.feature_column: what each feature is and how it becomes numbers.

A column is an immutable value (a namedtuple, as TF1's) naming its feature by `key`. Dense columns give
input_layer a float32 Tensor [batch, width] through `dense(features, trainable)`; categorical columns give
`ids(features)`, an int Tensor [batch, k] in [0, num_buckets) where -1 marks no id (TF1 drops -1 from an int
feature when it makes the sparse ids: ringflow keeps ids dense and masks them instead). A feature of rank 1
is read as [batch, 1], as TF1 reads it.
"""
import collections
import math

from ..framework import dtypes
from ..framework.graph_wrappers import control_dependencies
from ..ops.array_ops import cast, one_hot, reshape, shape
from ..ops.check_ops import assert_greater_equal, assert_less
from ..ops.core_ops import constant, convert_to_tensor, identity
from ..ops.cwise_ops import logical_and, logical_or
from ..ops.division_ops import div_no_nan
from ..ops.gather_ops import gather
from ..ops.initializers import truncated_normal_initializer
from ..ops.math_ops import equal, greater_equal, less, maximum, not_equal, sqrt, where, zeros_like
from ..ops.reduction_ops import reduce_sum
from ..ops.shape_ops import expand_dims
from ..ops.string_ops import as_string, string_to_hash_bucket_fast
from ..ops.variables import get_variable

MISSING_ID = -1
COMBINERS = ("mean", "sqrtn", "sum")


def feature(features, key):
    """The feature `key` of the `features` dict as a Tensor of rank >= 2 ([batch, ...])."""
    if key not in features:
        raise ValueError(f"Feature {key!r} is not in the features dictionary (it has {sorted(map(str, features))!r})")
    tensor = convert_to_tensor(features[key])
    if tensor.shape.ndims is None:
        raise ValueError(f"Feature {key!r} has an unknown rank: give it a static shape ([batch] or [batch, ...])")
    if tensor.shape.ndims == 0:
        raise ValueError(f"Feature {key!r} cannot have rank 0: give one value per example, shape [batch, ...]")
    return expand_dims(tensor, -1) if tensor.shape.ndims == 1 else tensor


def flat(tensor, width):
    """`tensor` [batch, ...] as [batch, width]."""
    return reshape(tensor, [shape(tensor)[0], width])


class NumericColumn(collections.namedtuple("NumericColumn", ["key", "shape", "default_value", "dtype",
                                                              "normalizer_fn"])):
    """Real values of `shape` per example, as float32 (after normalizer_fn)."""

    name = property(lambda self: self.key)
    width = property(lambda self: math.prod(self.shape))

    def dense(self, features, trainable=True):
        tensor = feature(features, self.key)
        if self.normalizer_fn is not None:
            tensor = self.normalizer_fn(tensor)
        return flat(cast(tensor, dtypes.float32), self.width)


class BucketizedColumn(collections.namedtuple("BucketizedColumn", ["source_column", "boundaries"])):
    """Each value of a numeric column as the index of its bucket: the count of boundaries <= the value."""

    name = property(lambda self: f"{self.source_column.name}_bucketized")
    num_buckets = property(lambda self: self.source_column.width * (len(self.boundaries) + 1))
    width = num_buckets

    def buckets(self, features):
        values = expand_dims(self.source_column.dense(features), -1)
        above = cast(greater_equal(values, constant(list(self.boundaries), dtypes.float32)), dtypes.int32)
        return reduce_sum(above, axis=-1)  # [batch, source width]

    def dense(self, features, trainable=True):
        return flat(one_hot(self.buckets(features), len(self.boundaries) + 1, dtype=dtypes.float32), self.width)

    def ids(self, features):
        """Element i's bucket b is id i * (len(boundaries) + 1) + b (TF1's numbering)."""
        offsets = constant([i * (len(self.boundaries) + 1) for i in range(self.source_column.width)], dtypes.int32)
        return self.buckets(features) + offsets


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
        "VocabularyListCategoricalColumn", ["key", "vocabulary_list", "dtype", "default_value"])):
    """Each value's index in vocabulary_list; a value not in it becomes default_value (-1: no id). "" (strings) and
    -1 (integers) are missing values, as in TF1."""

    name = property(lambda self: self.key)
    num_buckets = property(lambda self: len(self.vocabulary_list))

    def ids(self, features):
        values, text = _categorical_values(features, self.key, self.dtype)
        matches = equal(expand_dims(values, -1), constant(list(self.vocabulary_list), self.dtype))
        found = reduce_sum(cast(matches, dtypes.int64), axis=-1)
        index = reduce_sum(cast(matches, dtypes.int64) * constant(list(range(self.num_buckets)), dtypes.int64), axis=-1)
        ids = where(equal(found, 0), zeros_like(index) + self.default_value, index)
        missing = equal(values, b"" if text else MISSING_ID)
        return where(missing, zeros_like(ids) + MISSING_ID, ids)


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


class IndicatorColumn(collections.namedtuple("IndicatorColumn", ["categorical_column"])):
    """A categorical column as counts: [batch, num_buckets], entry j the number of the example's ids equal j."""

    name = property(lambda self: f"{self.categorical_column.name}_indicator")
    width = property(lambda self: self.categorical_column.num_buckets)

    def dense(self, features, trainable=True):
        ids = self.categorical_column.ids(features)  # one_hot of MISSING_ID is all zeros
        return reduce_sum(one_hot(ids, self.width, dtype=dtypes.float32), axis=-2)


class EmbeddingColumn(collections.namedtuple("EmbeddingColumn", ["categorical_column", "dimension", "combiner",
                                                                  "initializer", "max_norm", "trainable"])):
    """A categorical column through a learned [num_buckets, dimension] table ("embedding_weights"), each
    example's rows combined by mean, sqrtn (sum / sqrt(count)) or sum; an example without ids gives zeros."""

    name = property(lambda self: f"{self.categorical_column.name}_embedding")
    width = property(lambda self: self.dimension)

    def dense(self, features, trainable=True):
        initializer = self.initializer or truncated_normal_initializer(stddev=1 / math.sqrt(self.dimension))
        table = get_variable("embedding_weights", [self.categorical_column.num_buckets, self.dimension],
                             dtype=dtypes.float32, initializer=initializer, trainable=self.trainable and trainable)
        return combined_rows(table, self.categorical_column.ids(features), self.combiner, self.max_norm)


def combined_rows(table, ids, combiner, max_norm=None):
    """Each example's rows of `table` picked by its ids [batch, k] and combined by mean, sqrtn (sum / sqrt(count))
    or sum: [batch, table width]; MISSING_ID picks nothing, and an example without ids gives zeros."""
    present = cast(not_equal(ids, MISSING_ID), dtypes.float32)
    rows = gather(table, where(equal(present, 1.0), ids, zeros_like(ids)))
    if max_norm is not None:
        norms = sqrt(reduce_sum(rows * rows, axis=-1, keepdims=True))
        rows = rows * (float(max_norm) / maximum(norms, float(max_norm)))  # clipped to max_norm
    total = reduce_sum(rows * expand_dims(present, -1), axis=-2)
    count = reduce_sum(present, axis=-1, keepdims=True)
    if combiner == "sum":
        return total
    return div_no_nan(total, count if combiner == "mean" else sqrt(count))
