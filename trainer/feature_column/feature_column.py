"""tf.feature_column's constructors, with TF1's argument checks; input_layer, which concatenates the dense
columns of a features dict into the [batch, width] input of a model, and linear_model, which sums each column's
product with its weights (TF1 graph semantics)."""
import collections.abc
import math
import numbers

import numpy as np

from ..framework import dtypes
from ..framework.graph_keys import GraphKeys
from ..framework.graph_wrappers import add_to_collections
from ..ops.array_ops import concat
from ..ops.core_ops import identity
from ..ops.initializers import zeros_initializer
from ..ops.math_ops import add_n, matmul
from ..ops.scopes import variable_scope
from ..ops.variables import get_variable, global_variables
from .categorical_columns import (CrossedColumn, HashedCategoricalColumn, IdentityCategoricalColumn, SequenceCategoricalColumn,
                                  VocabularyFileCategoricalColumn, VocabularyListCategoricalColumn,
                                  WeightedCategoricalColumn, id_weights)
from .columns import (COMBINERS, BucketizedColumn, EmbeddingColumn, IndicatorColumn, NumericColumn,
                      SharedEmbeddingColumn, combined_rows, scope_name)
from ..ops.parsing_ops import FixedLenFeature, VarLenFeature

DENSE = (NumericColumn, BucketizedColumn, IndicatorColumn, EmbeddingColumn, SharedEmbeddingColumn)
CATEGORICAL = (IdentityCategoricalColumn, VocabularyListCategoricalColumn, VocabularyFileCategoricalColumn,
               HashedCategoricalColumn, BucketizedColumn, WeightedCategoricalColumn, SequenceCategoricalColumn,
               CrossedColumn)


def _check_key(key):
    if not isinstance(key, str):
        raise ValueError(f"key must be a string, got {type(key).__name__}: {key!r}")


def numeric_column(key, shape=(1,), default_value=None, dtype=dtypes.float32, normalizer_fn=None):
    """Real-valued feature `key` with `shape` values per example, read as float32."""
    _check_key(key)
    shape = (shape,) if isinstance(shape, numbers.Integral) else tuple(shape)
    if not shape or not all(isinstance(d, numbers.Integral) and d > 0 for d in shape):
        raise ValueError(f"numeric_column {key!r}: shape dimensions must be integers greater than 0, got {shape!r}")
    dtype = dtypes.as_dtype(dtype)
    if dtype.kind not in "iuf":
        raise ValueError(f"numeric_column {key!r}: dtype must be convertible to float, got {dtype.name!r}")
    if normalizer_fn is not None and not callable(normalizer_fn):
        raise TypeError(f"numeric_column {key!r}: normalizer_fn must be a callable, got {normalizer_fn!r}")
    if default_value is not None:
        values = np.ravel(np.asarray(default_value, dtype=dtype)).tolist()
        if len(values) not in (1, math.prod(shape)):
            raise ValueError(f"numeric_column {key!r}: default_value {default_value!r} does not fit shape {shape!r}")
        default_value = tuple(values * math.prod(shape) if len(values) == 1 else values)
    return NumericColumn(key, tuple(int(d) for d in shape), default_value, dtype, normalizer_fn)


def bucketized_column(source_column, boundaries):
    """The buckets of a one-dimensional numeric column: (-inf, b0), [b0, b1), ..., [b_last, inf)."""
    if not isinstance(source_column, NumericColumn):
        raise ValueError(f"source_column must be a column made by numeric_column(), got {source_column!r}")
    if len(source_column.shape) > 1:
        raise ValueError(f"source_column must be one-dimensional, got shape {source_column.shape!r}")
    if (not isinstance(boundaries, (list, tuple)) or not boundaries or
            any(a >= b for a, b in zip(boundaries, boundaries[1:]))):
        raise ValueError(f"boundaries must be a sorted list (strictly increasing), got {boundaries!r}")
    return BucketizedColumn(source_column, tuple(float(b) for b in boundaries))


def categorical_column_with_identity(key, num_buckets, default_value=None):
    """Integer feature `key` whose values are their own ids, in [0, num_buckets)."""
    _check_key(key)
    if num_buckets < 1:
        raise ValueError(f"num_buckets {num_buckets!r} < 1, column {key!r}")
    if default_value is not None and not 0 <= default_value < num_buckets:
        raise ValueError(f"default_value {default_value!r} not in range [0, {num_buckets}), column {key!r}")
    return IdentityCategoricalColumn(key, int(num_buckets), default_value)


def categorical_column_with_vocabulary_list(key, vocabulary_list, dtype=None, default_value=-1, num_oov_buckets=0):
    """String (or integer) feature `key` whose ids are the values' indices in vocabulary_list; other values take
    one of num_oov_buckets hash buckets after them, or default_value (-1: no id)."""
    _check_key(key)
    if vocabulary_list is None or len(vocabulary_list) < 1:
        raise ValueError(f"vocabulary_list {vocabulary_list!r} must be non-empty, column_name: {key}")
    if len(set(vocabulary_list)) != len(vocabulary_list):
        raise ValueError(f"Duplicate keys in vocabulary_list {vocabulary_list!r}, column_name: {key}")
    if num_oov_buckets < 0:
        raise ValueError(f"Invalid num_oov_buckets {num_oov_buckets} in {key}.")
    if num_oov_buckets and default_value != -1:
        raise ValueError(f"Can't specify both num_oov_buckets and default_value in {key}.")
    text = all(isinstance(v, (str, bytes)) for v in vocabulary_list)
    if not text and not all(isinstance(v, numbers.Integral) for v in vocabulary_list):
        raise ValueError(f"vocabulary_list {vocabulary_list!r} must hold only strings or only integers, "
                         f"column_name: {key}")
    dtype = dtypes.as_dtype(dtype or (dtypes.string if text else dtypes.int64))
    if (dtype == dtypes.string) != text:
        raise ValueError(f"dtype {dtype.name} does not match vocabulary_list {vocabulary_list!r}, column_name: {key}")
    if default_value != -1 and not 0 <= default_value < len(vocabulary_list):
        raise ValueError(f"default_value {default_value!r} not in range [0, {len(vocabulary_list)}), column {key!r}")
    values = tuple(v.encode() if isinstance(v, str) else v for v in vocabulary_list)
    return VocabularyListCategoricalColumn(key, values, dtype, int(default_value), int(num_oov_buckets))


def categorical_column_with_vocabulary_file(key, vocabulary_file, vocabulary_size=None, num_oov_buckets=0,
                                            default_value=None, dtype=dtypes.string):
    """String (or integer) feature `key` whose ids are the values' line numbers in vocabulary_file (one value a
    line); other values take one of num_oov_buckets hash buckets after the vocabulary, or default_value."""
    _check_key(key)
    if not vocabulary_file:
        raise ValueError(f"Missing vocabulary_file in {key}.")
    try:
        with open(vocabulary_file, "rb") as lines:
            lines_in_file = sum(1 for _ in lines)
    except OSError as error:
        raise ValueError(f"vocabulary_file {vocabulary_file!r} of column {key!r} cannot be read: {error}") from None
    if vocabulary_size is None:
        vocabulary_size = lines_in_file
    if vocabulary_size < 1 or vocabulary_size > lines_in_file:
        raise ValueError(f"Invalid vocabulary_size in {key}: {vocabulary_size!r} (the file has {lines_in_file} lines)")
    if num_oov_buckets < 0:
        raise ValueError(f"Invalid num_oov_buckets {num_oov_buckets} in {key}.")
    if default_value is not None and num_oov_buckets:
        raise ValueError(f"Can't specify both num_oov_buckets and default_value in {key}.")
    dtype = dtypes.as_dtype(dtype)
    if dtype != dtypes.string and dtype.kind not in "iu":
        raise ValueError(f"Invalid dtype {dtype.name} in {key}: give tf.string or an integer dtype")
    return VocabularyFileCategoricalColumn(key, vocabulary_file, int(vocabulary_size), int(num_oov_buckets),
                                           -1 if default_value is None else int(default_value), dtype)


def weighted_categorical_column(categorical_column, weight_feature_key, dtype=dtypes.float32):
    """categorical_column's ids each weighted by the value at the same place of feature weight_feature_key."""
    _check_categorical(categorical_column, "weighted_categorical_column")
    dtype = dtypes.as_dtype(dtype)
    if dtype.kind != "f":
        raise ValueError(f"dtype {dtype.name} is not convertible to float, weight_feature_key: {weight_feature_key}")
    return WeightedCategoricalColumn(categorical_column, weight_feature_key, dtype)


def shared_embedding_columns(categorical_columns, dimension, combiner="mean", initializer=None,
                             shared_embedding_collection_name=None, ckpt_to_load_from=None, tensor_name_in_ckpt=None,
                             max_norm=None, trainable=True):
    """One embedding column per categorical column, all through one table (TF1's v1 form: see
    columns.SharedEmbeddingColumn); the columns need the same number of buckets."""
    columns = list(categorical_columns)
    for column in columns:
        _check_categorical(column, "shared_embedding_columns")
    if not columns or len({c.num_buckets for c in columns}) > 1:
        raise ValueError(f"To use shared_embedding_column, all categorical_columns must have the same number of "
                         f"buckets, given {[(c.name, c.num_buckets) for c in columns]!r}")
    template = embedding_column(columns[0], dimension, combiner, initializer, ckpt_to_load_from, tensor_name_in_ckpt,
                                max_norm, trainable)
    name = shared_embedding_collection_name or "_".join(sorted(c.name for c in columns)) + "_shared_embedding"
    return [SharedEmbeddingColumn(c, template.dimension, combiner, initializer, name, max_norm, trainable)
            for c in columns]


def crossed_column(keys, hash_bucket_size, hash_key=None):
    """The crosses of `keys` (feature names or categorical columns), hashed into hash_bucket_size ids."""
    if not hash_bucket_size or hash_bucket_size < 1:
        raise ValueError(f"hash_bucket_size must be > 1. hash_bucket_size: {hash_bucket_size}")
    if not isinstance(keys, (list, tuple)) or len(keys) < 2:
        raise ValueError(f"keys must be a list with length > 1. Given: {keys!r}")
    for key in keys:
        if not isinstance(key, str) and (not isinstance(key, CATEGORICAL) or isinstance(
                key, (HashedCategoricalColumn, WeightedCategoricalColumn, SequenceCategoricalColumn))):
            raise ValueError(f"Unsupported key type. All keys must be either string, or categorical column except "
                             f"HashedCategoricalColumn (and weighted or sequence ones). Given: {key!r}")
    return CrossedColumn(tuple(keys), int(hash_bucket_size), hash_key)


def categorical_column_with_hash_bucket(key, hash_bucket_size, dtype=dtypes.string):
    """String (or integer) feature `key` whose ids are its values' hash buckets, in [0, hash_bucket_size)."""
    _check_key(key)
    if hash_bucket_size is None:
        raise ValueError(f"hash_bucket_size must be set. key: {key}")
    if hash_bucket_size < 1:
        raise ValueError(f"hash_bucket_size must be at least 1. hash_bucket_size: {hash_bucket_size}, key: {key}")
    dtype = dtypes.as_dtype(dtype)
    if dtype != dtypes.string and dtype.kind not in "iu":
        raise ValueError(f"dtype must be string or integer. dtype: {dtype.name}, column_name: {key}")
    return HashedCategoricalColumn(key, int(hash_bucket_size), dtype)


def _parse_spec(column):
    """{feature key: its FixedLenFeature or VarLenFeature} for one column (a derived column's is its source's)."""
    if isinstance(column, NumericColumn):
        return {column.key: FixedLenFeature(tuple(column.shape), column.dtype, column.default_value)}
    if isinstance(column, BucketizedColumn):
        return _parse_spec(column.source_column)
    if isinstance(column, (IndicatorColumn, EmbeddingColumn, SharedEmbeddingColumn, SequenceCategoricalColumn)):
        return _parse_spec(column.categorical_column)
    if isinstance(column, CrossedColumn):
        spec = {}
        for key in column.leaf_keys():
            spec.update({key: VarLenFeature(dtypes.string)} if isinstance(key, str) else _parse_spec(key))
        return spec
    if isinstance(column, WeightedCategoricalColumn):
        return {**_parse_spec(column.categorical_column), column.weight_feature_key: VarLenFeature(column.dtype)}
    if isinstance(column, IdentityCategoricalColumn):
        return {column.key: VarLenFeature(dtypes.int64)}
    if isinstance(column, (VocabularyListCategoricalColumn, VocabularyFileCategoricalColumn, HashedCategoricalColumn)):
        return {column.key: VarLenFeature(column.dtype)}
    raise ValueError(f"All feature_columns must be FeatureColumn instances. Given: {column!r}")


def make_parse_example_spec(feature_columns):
    """The tf.parse_example features dict the columns read: one spec per feature key (ValueError where two columns
    want one key parsed two ways)."""
    spec = {}
    for column in feature_columns:
        for key, wanted in _parse_spec(column).items():
            if key in spec and spec[key] != wanted:
                raise ValueError(f"feature_columns contain different parse_spec for key {key}. Given {wanted} "
                                 f"and {spec[key]}")
            spec[key] = wanted
    return spec


def _check_categorical(column, what):
    if not isinstance(column, CATEGORICAL):
        raise ValueError(f"{what} takes a categorical column (categorical_column_with_identity, _with_vocabulary_list, "
                         f"_with_vocabulary_file, _with_hash_bucket, bucketized_column, weighted_categorical_column, "
                         f"sequence_categorical_column_with_*), got {column!r}")


def indicator_column(categorical_column):
    """A categorical column as a multi-hot (count) vector of num_buckets entries."""
    _check_categorical(categorical_column, "indicator_column")
    return IndicatorColumn(categorical_column)


def embedding_column(categorical_column, dimension, combiner="mean", initializer=None, ckpt_to_load_from=None,
                     tensor_name_in_ckpt=None, max_norm=None, trainable=True):
    """A categorical column through a learned table of `dimension` wide rows (see columns.EmbeddingColumn)."""
    _check_categorical(categorical_column, "embedding_column")
    if dimension is None or dimension < 1:
        raise ValueError(f"Invalid dimension {dimension!r}: an embedding needs dimension >= 1")
    if combiner not in COMBINERS:
        raise ValueError(f"combiner must be one of {COMBINERS}, got {combiner!r}")
    if initializer is not None and not callable(initializer):
        raise ValueError(f"initializer must be callable if specified, got {initializer!r} "
                         f"(embedding of {categorical_column.name!r})")
    if (ckpt_to_load_from is None) != (tensor_name_in_ckpt is None):
        raise ValueError("Must specify both `ckpt_to_load_from` and `tensor_name_in_ckpt` or none of them.")
    if ckpt_to_load_from is not None:
        raise NotImplementedError("embedding_column(ckpt_to_load_from=...) is not implemented: restore the "
                                  "table's variable with a tf.train.Saver instead")
    return EmbeddingColumn(categorical_column, int(dimension), combiner, initializer, max_norm, trainable)


def _columns(feature_columns, allowed, what):
    if isinstance(feature_columns, DENSE + CATEGORICAL):
        feature_columns = [feature_columns]
    if isinstance(feature_columns, dict) or not isinstance(feature_columns, collections.abc.Iterable):
        raise ValueError(f"Expected feature_columns to be a list of columns, got {feature_columns!r}")
    columns = list(feature_columns)
    if not columns:
        raise ValueError("feature_columns must not be empty")
    for column in columns:
        if not isinstance(column, allowed):
            raise ValueError(f"Items of feature_columns must be {what}. Given: {column!r}")
    names = {}
    for column in columns:
        if column.name in names:
            raise ValueError(f"Duplicate feature column name {column.name!r} for columns {names[column.name]!r} "
                             f"and {column!r}")
        names[column.name] = column
    return sorted(columns, key=lambda c: c.name)


def input_layer(features, feature_columns, weight_collections=None, trainable=True, cols_to_vars=None,
                cols_to_output_tensors=None):
    """The dense `feature_columns` of `features` (a dict of Tensors), each as [batch, its width], concatenated
    in the order of the columns' names (TF1's) into a float32 [batch, total width] Tensor. Variables are made
    under input_layer/<column name>/; cols_to_vars and cols_to_output_tensors, when given, are filled."""
    columns = _columns(feature_columns, DENSE, "dense columns: wrap a categorical column with embedding_column "
                       "or indicator_column")
    outputs = []
    with variable_scope(None, default_name="input_layer", values=list(features.values())):
        for column in columns:
            before = set(global_variables())
            with variable_scope(None, default_name=scope_name(column)):
                output = column.dense(features, trainable)
            made = [v for v in global_variables() if v not in before]
            for variable in made:  # TF1 keeps the columns' variables in MODEL_VARIABLES too
                add_to_collections(list(weight_collections or ()) + [GraphKeys.MODEL_VARIABLES], variable)
            if cols_to_vars is not None:
                cols_to_vars[column] = made
            if cols_to_output_tensors is not None:
                cols_to_output_tensors[column] = output
            outputs.append(output)
        return concat(outputs, 1)


def linear_model(features, feature_columns, units=1, sparse_combiner="sum", weight_collections=None, trainable=True,
                 cols_to_vars=None):
    """The [batch, units] sum of each column times its weights, plus a bias (TF1's linear_model).

    Columns are visited in the order of their names, each under linear_model/<column name>/ with its zero-initialized
    "weights" ([width, units] for a dense column, [num_buckets, units] for a categorical one, whose rows for an
    example's ids are combined by `sparse_combiner`: sum, mean or sqrtn); the bias is linear_model/bias_weights.
    cols_to_vars, when given, maps each column (and "bias") to its variables."""
    if sparse_combiner not in COMBINERS:
        raise ValueError(f"sparse_combiner must be one of {COMBINERS}, got {sparse_combiner!r}")
    columns = _columns(feature_columns, DENSE + CATEGORICAL, "dense or categorical columns")
    weighted_sums = []
    with variable_scope(None, default_name="linear_model", values=list(features.values())):
        for column in columns:
            before = set(global_variables())
            with variable_scope(None, default_name=scope_name(column)):
                weighted_sums.append(_weighted_sum(column, features, units, sparse_combiner, trainable))
            made = [v for v in global_variables() if v not in before]
            for variable in made:  # TF1 keeps the columns' variables in MODEL_VARIABLES too
                add_to_collections(list(weight_collections or ()) + [GraphKeys.MODEL_VARIABLES], variable)
            if cols_to_vars is not None:
                cols_to_vars[column] = made
        bias = get_variable("bias_weights", [units], dtype=dtypes.float32, initializer=zeros_initializer(),
                            trainable=trainable)
        add_to_collections(list(weight_collections or ()) + [GraphKeys.MODEL_VARIABLES], bias)
        if cols_to_vars is not None:
            cols_to_vars["bias"] = [bias]
        return identity(add_n(weighted_sums) + bias, name="weighted_sum")


def _weighted_sum(column, features, units, sparse_combiner, trainable):
    if isinstance(column, SequenceCategoricalColumn):
        raise ValueError(f"In linear_model: categorical_column {column.name!r} must not be of type "
                         "SequenceCategoricalColumn: use a non-sequence categorical_column_with_*")
    categorical = isinstance(column, CATEGORICAL)
    rows = column.num_buckets if categorical else column.width
    weights = get_variable("weights", [rows, units], dtype=dtypes.float32, initializer=zeros_initializer(),
                           trainable=trainable)
    if categorical:
        return combined_rows(weights, column.ids(features), sparse_combiner, weights=id_weights(column, features))
    return matmul(column.dense(features, trainable), weights)


def dense_columns(feature_columns):
    """feature_columns checked to be dense and uniquely named, in the order of their names: how input_layer and
    Keras' DenseFeatures visit them."""
    return _columns(feature_columns, DENSE, "dense columns: wrap a categorical column with embedding_column or "
                    "indicator_column")
