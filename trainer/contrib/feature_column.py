"""tf.contrib.feature_column (TF 1.15): the sequence columns, the same objects as tf.feature_column's, and
sequence_input_layer."""
from ..feature_column.sequence_feature_column import (sequence_categorical_column_with_hash_bucket,
                                                      sequence_categorical_column_with_identity,
                                                      sequence_categorical_column_with_vocabulary_file,
                                                      sequence_categorical_column_with_vocabulary_list,
                                                      sequence_input_layer, sequence_numeric_column)
from ..unsupported import missing_names

__all__ = ["sequence_categorical_column_with_hash_bucket", "sequence_categorical_column_with_identity",
           "sequence_categorical_column_with_vocabulary_file", "sequence_categorical_column_with_vocabulary_list",
           "sequence_input_layer", "sequence_numeric_column"]

__getattr__ = missing_names(__name__, have=f"tf.contrib.feature_column here has {', '.join(__all__)}")
