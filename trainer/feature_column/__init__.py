"""tf.feature_column (TF1): numeric, bucketized, identity and vocabulary-list categorical columns, indicator and
embedding columns over them, input_layer and linear_model. Features are dense Tensors (ringflow has no
SparseTensor), and TF1 hashes with FarmHash, so the columns that read sparse ids or hash (vocabulary files, hash
buckets, crossed, weighted, sequence columns) are not here: naming one raises NotInRingflow saying so."""
from ..unsupported import missing_names
from .feature_column import (bucketized_column, categorical_column_with_identity,
                             categorical_column_with_vocabulary_list, embedding_column, indicator_column, input_layer,
                             linear_model, numeric_column)

__all__ = ["bucketized_column", "categorical_column_with_identity", "categorical_column_with_vocabulary_list",
           "embedding_column", "indicator_column", "input_layer", "linear_model", "numeric_column"]

__getattr__ = missing_names(__name__, have=f"of tf.feature_column only {', '.join(__all__)} are here (dense "
                            "features: no SparseTensor, no hashed ids)")
