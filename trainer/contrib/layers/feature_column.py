"""tf.contrib.layers' feature columns as tf.feature_column's: real_valued_column is numeric_column,
sparse_column_with_hash_bucket and sparse_column_with_keys the hash-bucket and vocabulary-list categorical columns,
weighted_sparse_column, one_hot_column (indicator), embedding_column and bucketized_column their core namesakes;
infer_real_valued_columns reads the columns off the features themselves.

Where contrib differs: a sparse column's own `combiner` (how a linear model sums its ids) is the linear model's
sparse_combiner in core, so only contrib's default "sum" is taken; an embedding's variables are core's
(input_layer/<column>_embedding/embedding_weights).
"""
from ...feature_column.feature_column import (bucketized_column, categorical_column_with_hash_bucket,
                                              categorical_column_with_vocabulary_list, embedding_column,
                                              indicator_column, numeric_column, weighted_categorical_column)
from ...framework import dtypes
from ...ops.core_ops import convert_to_tensor


def real_valued_column(column_name, dimension=1, default_value=None, dtype=dtypes.float32, normalizer=None):
    """`dimension` real values of feature `column_name` per example: tf.feature_column.numeric_column."""
    if dimension is None:
        raise NotImplementedError(f"real_valued_column({column_name!r}, dimension=None): variable-length (sparse) "
                                  "real values are not in ringflow; give the dimension, or use "
                                  "tf.feature_column.weighted_categorical_column")
    if isinstance(default_value, (int, float)) and dimension > 1:
        default_value = [default_value] * dimension
    return numeric_column(column_name, shape=(dimension,), default_value=default_value, dtype=dtype,
                          normalizer_fn=normalizer)


def _sum_only(column_name, combiner):
    if combiner != "sum":
        raise NotImplementedError(f"sparse column {column_name!r}: combiner={combiner!r} is not implemented in "
                                  "ringflow; leave contrib's default 'sum' (core's linear models take "
                                  "sparse_combiner=, embeddings combiner=)")


def sparse_column_with_hash_bucket(column_name, hash_bucket_size, combiner="sum", dtype=dtypes.string,
                                   hash_keys=None):
    """Ids hash(value) % hash_bucket_size: tf.feature_column.categorical_column_with_hash_bucket."""
    _sum_only(column_name, combiner)
    if hash_keys is not None:
        raise NotImplementedError(f"sparse_column_with_hash_bucket({column_name!r}, hash_keys=...) is not "
                                  "implemented in ringflow: leave hash_keys out")
    return categorical_column_with_hash_bucket(column_name, hash_bucket_size, dtype=dtype)


def sparse_column_with_keys(column_name, keys, default_value=-1, combiner="sum", dtype=dtypes.string):
    """Ids by position in `keys`: tf.feature_column.categorical_column_with_vocabulary_list."""
    _sum_only(column_name, combiner)
    return categorical_column_with_vocabulary_list(column_name, keys, dtype=dtype, default_value=default_value)


def weighted_sparse_column(sparse_id_column, weight_column_name, dtype=dtypes.float32):
    """A sparse column's ids weighted by feature weight_column_name: tf.feature_column.weighted_categorical_column."""
    return weighted_categorical_column(sparse_id_column, weight_column_name, dtype=dtype)


def one_hot_column(sparse_id_column):
    """A sparse column as counts per id: tf.feature_column.indicator_column."""
    return indicator_column(sparse_id_column)


def infer_real_valued_columns(features):
    """One real_valued_column per feature (a bare Tensor is the feature ''), as wide as its non-batch dims."""
    if not isinstance(features, dict):
        features = {"": features}
    columns = []
    for key, value in sorted(features.items()):
        value = convert_to_tensor(value)
        dims = value.shape.as_list()[1:]
        if any(d is None for d in dims):
            raise ValueError(f"Feature {key!r} has shape {value.shape.as_list()}: infer_real_valued_columns needs "
                             "every dimension but the batch known")
        if value.dtype.kind not in "iuf":
            raise ValueError(f"Feature {key!r} is {value.dtype.name}: only numeric features make real-valued columns")
        width = 1
        for d in dims:
            width *= d
        columns.append(real_valued_column(key, dimension=width,
                                          dtype=dtypes.float32 if value.dtype.kind == "f" else value.dtype))
    return columns


__all__ = ["bucketized_column", "embedding_column", "infer_real_valued_columns", "one_hot_column",
           "real_valued_column", "sparse_column_with_hash_bucket", "sparse_column_with_keys", "weighted_sparse_column"]
