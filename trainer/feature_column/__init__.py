"""tf.feature_column (TF1): numeric, bucketized, identity, vocabulary-list and hash-bucket categorical columns,
indicator and embedding columns over them, input_layer, linear_model and make_parse_example_spec. Features are dense
Tensors, so the columns that read sparse ids (vocabulary files, crossed, weighted, shared embeddings, sequence
columns) are not here: naming one raises NotInRingflow saying so."""
from ..unsupported import missing_names
from .feature_column import (bucketized_column, categorical_column_with_hash_bucket, categorical_column_with_identity,
                             categorical_column_with_vocabulary_list, embedding_column, indicator_column, input_layer,
                             linear_model, make_parse_example_spec, numeric_column)

__all__ = ["bucketized_column", "categorical_column_with_hash_bucket", "categorical_column_with_identity",
           "categorical_column_with_vocabulary_list", "embedding_column", "indicator_column", "input_layer",
           "linear_model", "make_parse_example_spec", "numeric_column"]

__getattr__ = missing_names(__name__, have=f"of tf.feature_column only {', '.join(__all__)} are here (dense "
                            "features: no SparseTensor, no hashed ids)")
