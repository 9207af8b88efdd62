"""tf.feature_column (TF1): numeric, bucketized and identity-categorical columns, indicator and embedding
columns over them, and input_layer. Features are dense Tensors (ringflow has no SparseTensor), so the columns
that read strings or sparse ids (vocabulary, hash bucket, crossed, weighted, sequence columns) and linear_model
are not here: naming one raises NotInRingflow saying so."""
from ..unsupported import NotInRingflow
from .feature_column import (bucketized_column, categorical_column_with_identity, embedding_column,
                             indicator_column, input_layer, numeric_column)

__all__ = ["bucketized_column", "categorical_column_with_identity", "embedding_column", "indicator_column",
           "input_layer", "numeric_column"]


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotInRingflow(f"tf.feature_column.{name} is not available in ringflow: of tf.feature_column only "
                        f"{', '.join(__all__)} are (dense features: no SparseTensor, string or hashed ids)")
