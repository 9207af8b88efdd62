"""TF1's sequence feature columns (tf.feature_column.sequence_*, tf.contrib.feature_column): features [batch, T]
whose rows are sequences of varying length (SparseTensors, as VarLenFeature parses them) read step by step, and
sequence_input_layer, which gives a sequence model its input [batch, T, width] and each row's length."""
import numbers

from ..framework import dtypes
from ..framework.graph_wrappers import add_to_collections, control_dependencies
from ..ops.array_ops import concat
from ..ops.check_ops import assert_equal
from ..ops.core_ops import identity
from ..ops.scopes import variable_scope
from ..ops.variables import global_variables
from .categorical_columns import SequenceCategoricalColumn, SequenceNumericColumn
from .columns import EmbeddingColumn, IndicatorColumn, SharedEmbeddingColumn, scope_name
from .feature_column import (categorical_column_with_hash_bucket, categorical_column_with_identity,
                             categorical_column_with_vocabulary_file, categorical_column_with_vocabulary_list,
                             numeric_column)


def sequence_categorical_column_with_identity(key, num_buckets, default_value=None):
    """categorical_column_with_identity read as a sequence of ids."""
    return SequenceCategoricalColumn(categorical_column_with_identity(key, num_buckets, default_value))


def sequence_categorical_column_with_hash_bucket(key, hash_bucket_size, dtype=dtypes.string):
    """categorical_column_with_hash_bucket read as a sequence of ids."""
    return SequenceCategoricalColumn(categorical_column_with_hash_bucket(key, hash_bucket_size, dtype))


def sequence_categorical_column_with_vocabulary_list(key, vocabulary_list, dtype=None, default_value=-1,
                                                     num_oov_buckets=0):
    """categorical_column_with_vocabulary_list read as a sequence of ids."""
    return SequenceCategoricalColumn(categorical_column_with_vocabulary_list(key, vocabulary_list, dtype,
                                                                             default_value, num_oov_buckets))


def sequence_categorical_column_with_vocabulary_file(key, vocabulary_file, vocabulary_size=None, num_oov_buckets=0,
                                                     default_value=None, dtype=dtypes.string):
    """categorical_column_with_vocabulary_file read as a sequence of ids."""
    return SequenceCategoricalColumn(categorical_column_with_vocabulary_file(
        key, vocabulary_file, vocabulary_size, num_oov_buckets, default_value, dtype))


def sequence_numeric_column(key, shape=(1,), default_value=0., dtype=dtypes.float32, normalizer_fn=None):
    """A sequence of real values, `shape` of them per step; steps past a row's end read default_value."""
    column = numeric_column(key, shape, None, dtype, normalizer_fn)
    if not isinstance(default_value, numbers.Real):
        raise ValueError(f"sequence_numeric_column {key!r}: default_value must be a number, got {default_value!r}")
    return SequenceNumericColumn(key, column.shape, float(default_value), column.dtype, normalizer_fn)


def is_sequence_dense(column):
    return isinstance(column, SequenceNumericColumn) or (
        isinstance(column, (EmbeddingColumn, IndicatorColumn, SharedEmbeddingColumn))
        and isinstance(column.categorical_column, SequenceCategoricalColumn))


def sequence_columns(feature_columns):
    """feature_columns checked to be sequence dense columns, uniquely named, in the order of their names."""
    columns = list(feature_columns) if isinstance(feature_columns, (list, tuple)) else [feature_columns]
    if not columns:
        raise ValueError("feature_columns must not be empty")
    for column in columns:
        if not is_sequence_dense(column):
            raise ValueError(f"All feature_columns must be sequence dense columns: sequence_numeric_column, or an "
                             f"embedding_column or indicator_column of a sequence_categorical_column_with_*. "
                             f"Given: {column!r}")
    if len({c.name for c in columns}) != len(columns):
        raise ValueError(f"Duplicate feature column names in {[c.name for c in columns]!r}")
    return sorted(columns, key=lambda c: c.name)


def sequence_length_of(column, features):
    source = column if isinstance(column, SequenceNumericColumn) else column.categorical_column
    return source.sequence_length(features)


def sequence_outputs(features, columns, trainable, made=None):
    """(each column's [batch, T, width] tensor concatenated, the rows' lengths: int64 [batch], the same for every
    column or the run fails), each column built in a variable scope of its name; `made` collects the variables."""
    outputs, lengths = [], []
    for column in columns:
        before = set(global_variables())
        with variable_scope(None, default_name=scope_name(column)):
            outputs.append(column.sequence_dense(features, trainable))
            lengths.append(sequence_length_of(column, features))
        if made is not None:
            made.extend(v for v in global_variables() if v not in before)
    checks = [assert_equal(lengths[0], other, message=f"sequence lengths of {columns[0].name!r} and {column.name!r} "
                           "differ: give the sequence features of one example the same number of steps")
              for column, other in zip(columns[1:], lengths[1:])]
    with control_dependencies(checks):
        return concat(outputs, -1), identity(lengths[0])


def sequence_input_layer(features, feature_columns, weight_collections=None, trainable=True):
    """(input [batch, T, total width], sequence lengths int64 [batch]) of sequence columns, in the order of their
    names, under sequence_input_layer/<column name>/ (tf.contrib.feature_column's, TF 1.15)."""
    columns = sequence_columns(feature_columns)
    made = []
    with variable_scope(None, default_name="sequence_input_layer", values=list(features.values())):
        result = sequence_outputs(features, columns, trainable, made)
    for variable in made:
        add_to_collections(weight_collections or (), variable)
    return result
