"""tf.contrib.layers: contrib's layer functions, initializers and regularizers (see layers.py for the defaults), and
its feature columns as tf.feature_column's (feature_column.py)."""
from ...unsupported import missing_names
from .batch_norm import batch_norm
from .feature_column import (bucketized_column, embedding_column, infer_real_valued_columns, one_hot_column,
                             real_valued_column, sparse_column_with_hash_bucket, sparse_column_with_keys,
                             weighted_sparse_column)
from .initializers import variance_scaling_initializer, xavier_initializer, xavier_initializer_conv2d
from .layers import avg_pool2d, convolution2d, dropout, embed_sequence, flatten, fully_connected, linear, max_pool2d
from .optimizers import OPTIMIZER_CLS_NAMES, OPTIMIZER_SUMMARIES, optimize_loss
from .regularizers import apply_regularization, l1_l2_regularizer, l1_regularizer, l2_regularizer, sum_regularizer

conv2d = convolution2d

__all__ = ["OPTIMIZER_CLS_NAMES", "OPTIMIZER_SUMMARIES", "apply_regularization", "avg_pool2d", "batch_norm",
           "bucketized_column", "conv2d", "convolution2d", "dropout", "embed_sequence", "embedding_column",
           "flatten", "fully_connected", "infer_real_valued_columns", "l1_l2_regularizer", "l1_regularizer",
           "l2_regularizer", "linear", "max_pool2d", "one_hot_column", "optimize_loss",
           "real_valued_column", "sparse_column_with_hash_bucket", "sparse_column_with_keys",
           "sum_regularizer", "variance_scaling_initializer", "weighted_sparse_column",
           "xavier_initializer", "xavier_initializer_conv2d"]

__getattr__ = missing_names(__name__, have=f"tf.contrib.layers here has {', '.join(__all__)}")
