"""tf.feature_column (TF1): numeric, bucketized, identity, vocabulary-list, vocabulary-file and hash-bucket
categorical columns, weighted ones, indicator, embedding and shared embedding columns over them, the sequence
columns, input_layer, linear_model and make_parse_example_spec. A categorical feature may be a dense Tensor or a
SparseTensor (what parse_example gives for a VarLenFeature); crossed columns hash as TF1's SparseCross."""
from ..unsupported import missing_names
from .feature_column import (bucketized_column, categorical_column_with_hash_bucket, categorical_column_with_identity,
                             categorical_column_with_vocabulary_file, categorical_column_with_vocabulary_list,
                             crossed_column, embedding_column, indicator_column, input_layer, linear_model,
                             make_parse_example_spec, numeric_column, shared_embedding_columns, weighted_categorical_column)
from .sequence_feature_column import (sequence_categorical_column_with_hash_bucket,
                                      sequence_categorical_column_with_identity,
                                      sequence_categorical_column_with_vocabulary_file,
                                      sequence_categorical_column_with_vocabulary_list, sequence_numeric_column)

__all__ = ["bucketized_column", "categorical_column_with_hash_bucket", "categorical_column_with_identity",
           "categorical_column_with_vocabulary_file", "categorical_column_with_vocabulary_list", "crossed_column",
           "embedding_column",
           "indicator_column", "input_layer", "linear_model", "make_parse_example_spec", "numeric_column",
           "sequence_categorical_column_with_hash_bucket", "sequence_categorical_column_with_identity",
           "sequence_categorical_column_with_vocabulary_file", "sequence_categorical_column_with_vocabulary_list",
           "sequence_numeric_column", "shared_embedding_columns", "weighted_categorical_column"]

__getattr__ = missing_names(__name__, have=f"of tf.feature_column only {', '.join(__all__)} are here")
