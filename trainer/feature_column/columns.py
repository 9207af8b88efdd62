"""The feature columns of TF1's tf.feature_column: what each feature is and how it becomes numbers.

A column is an immutable value (a namedtuple, as TF1's) naming its feature by `key`. Dense columns give
input_layer a float32 Tensor [batch, width] through `dense(features, trainable)`, over the categorical columns'
ids (categorical_columns.py) where they wrap one; a sequence column's wrappers give [batch, T, width] through
`sequence_dense`.
"""
import collections
import math

from ..framework import dtypes
from ..framework.graph_wrappers import add_to_collection, get_collection
from ..ops.array_ops import cast, one_hot, reshape, shape
from ..ops.core_ops import constant
from ..ops.division_ops import div_no_nan
from ..ops.gather_ops import gather
from ..ops.initializers import truncated_normal_initializer
from ..ops.math_ops import equal, greater_equal, maximum, not_equal, sqrt, where, zeros_like
from ..ops.reduction_ops import reduce_sum
from ..ops.shape_ops import expand_dims
from ..ops.sparse_tensor import is_sparse
from ..ops.variables import get_variable
from .categorical_columns import MISSING_ID, SequenceCategoricalColumn, feature, id_weights

COMBINERS = ("mean", "sqrtn", "sum")


def flat(tensor, width):
    """`tensor` [batch, ...] as [batch, width]."""
    return reshape(tensor, [shape(tensor)[0], width])


class NumericColumn(collections.namedtuple("NumericColumn", ["key", "shape", "default_value", "dtype",
                                                              "normalizer_fn"])):
    """Real values of `shape` per example, as float32 (after normalizer_fn)."""

    name = property(lambda self: self.key)
    width = property(lambda self: math.prod(self.shape))

    def dense(self, features, trainable=True):
        if is_sparse(features.get(self.key)):
            raise ValueError(f"The corresponding Tensor of numerical column must be a Tensor. SparseTensor is not "
                             f"supported. key: {self.key}: give feature {self.key!r} densely (FixedLenFeature)")
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

def refuse_sequence(column):
    if isinstance(column.categorical_column, SequenceCategoricalColumn):
        raise ValueError(f"In {type(column).__name__} {column.name!r}: categorical_column must not be of type "
                         "SequenceCategoricalColumn. Suggested fix A: If you wish to use input_layer, use a "
                         "non-sequence categorical_column_with_*. Suggested fix B: If you wish to create sequence "
                         "input, use sequence_input_layer (or SequenceFeatures) instead of input_layer.")


class IndicatorColumn(collections.namedtuple("IndicatorColumn", ["categorical_column"])):
    """A categorical column as counts: [batch, num_buckets], entry j the number (or total weight) of the example's
    ids equal j."""

    name = property(lambda self: f"{self.categorical_column.name}_indicator")
    width = property(lambda self: self.categorical_column.num_buckets)

    def dense(self, features, trainable=True):
        refuse_sequence(self)
        return self.sequence_dense(features, trainable)

    def sequence_dense(self, features, trainable=True):
        ids = self.categorical_column.ids(features)  # one_hot of MISSING_ID is all zeros
        hot = one_hot(ids, self.width, dtype=dtypes.float32)
        weights = id_weights(self.categorical_column, features)
        return reduce_sum(hot if weights is None else hot * expand_dims(weights, -1), axis=-2)


class EmbeddingColumn(collections.namedtuple("EmbeddingColumn", ["categorical_column", "dimension", "combiner",
                                                                  "initializer", "max_norm", "trainable"])):
    """A categorical column through a learned [num_buckets, dimension] table ("embedding_weights"), each
    example's rows combined by mean, sqrtn (sum / sqrt(count)) or sum; an example without ids gives zeros."""

    name = property(lambda self: f"{self.categorical_column.name}_embedding")
    width = property(lambda self: self.dimension)

    def dense(self, features, trainable=True):
        refuse_sequence(self)
        return self.sequence_dense(features, trainable)

    def sequence_dense(self, features, trainable=True):
        table = get_variable("embedding_weights", [self.categorical_column.num_buckets, self.dimension],
                             dtype=dtypes.float32, initializer=embedding_initializer(self),
                             trainable=self.trainable and trainable)
        return combined_rows(table, self.categorical_column.ids(features), self.combiner, self.max_norm,
                             id_weights(self.categorical_column, features))


def embedding_initializer(column):
    return column.initializer or truncated_normal_initializer(stddev=1 / math.sqrt(column.dimension))


class SharedEmbeddingColumn(collections.namedtuple("SharedEmbeddingColumn", [
        "categorical_column", "dimension", "combiner", "initializer", "shared_embedding_collection_name", "max_norm",
        "trainable"])):
    """An embedding column whose table it shares with the other columns of its shared_embedding_columns call: the
    first of them to be built makes it ("<its name>/embedding_weights") and keeps it in the graph collection
    shared_embedding_collection_name, where the others find it (TF1's v1 form)."""

    name = property(lambda self: f"{self.categorical_column.name}_shared_embedding")
    width = property(lambda self: self.dimension)
    scope_name = property(lambda self: self.shared_embedding_collection_name)

    def dense(self, features, trainable=True):
        refuse_sequence(self)
        return self.sequence_dense(features, trainable)

    def sequence_dense(self, features, trainable=True):
        shape_ = [self.categorical_column.num_buckets, self.dimension]
        shared = get_collection(self.shared_embedding_collection_name)
        if shared:
            table = shared[0]
            if table.shape.as_list() != shape_:
                raise ValueError(f"Shared embedding {self.shared_embedding_collection_name!r} has shape "
                                 f"{table.shape.as_list()}, {self.name!r} wants {shape_}: give the shared columns "
                                 "the same number of buckets")
        else:
            table = get_variable("embedding_weights", shape_, dtype=dtypes.float32,
                                 initializer=embedding_initializer(self), trainable=self.trainable and trainable)
            add_to_collection(self.shared_embedding_collection_name, table)
        return combined_rows(table, self.categorical_column.ids(features), self.combiner, self.max_norm,
                             id_weights(self.categorical_column, features))


def scope_name(column):
    """The variable scope a column builds in: its name, or a shared table's collection name (TF1's)."""
    return getattr(column, "scope_name", column.name)


def combined_rows(table, ids, combiner, max_norm=None, weights=None):
    """Each example's rows of `table` picked by its ids [batch, k] and combined by mean, sqrtn (sum / sqrt(count))
    or sum: [batch, table width]; MISSING_ID picks nothing, and an example without ids gives zeros. With `weights`
    ([batch, k]) each row counts its weight: mean divides by their sum, sqrtn by the root of their squares' sum."""
    present = cast(not_equal(ids, MISSING_ID), dtypes.float32)
    rows = gather(table, where(equal(present, 1.0), ids, zeros_like(ids)))
    if max_norm is not None:
        norms = sqrt(reduce_sum(rows * rows, axis=-1, keepdims=True))
        rows = rows * (float(max_norm) / maximum(norms, float(max_norm)))  # clipped to max_norm
    if weights is not None:
        present = present * weights
    total = reduce_sum(rows * expand_dims(present, -1), axis=-2)
    if combiner == "sum":
        return total
    if combiner == "mean":
        return div_no_nan(total, reduce_sum(present, axis=-1, keepdims=True))
    return div_no_nan(total, sqrt(reduce_sum(present * present, axis=-1, keepdims=True)))
