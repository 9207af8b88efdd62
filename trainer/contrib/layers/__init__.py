"""tf.contrib.layers: contrib's layer functions, initializers and regularizers (see layers.py for the defaults)."""
from ...unsupported import missing_names
from .batch_norm import batch_norm
from .feature_column import infer_real_valued_columns, real_valued_column
from .initializers import variance_scaling_initializer, xavier_initializer, xavier_initializer_conv2d
from .layers import avg_pool2d, convolution2d, dropout, embed_sequence, flatten, fully_connected, linear, max_pool2d
from .optimizers import OPTIMIZER_CLS_NAMES, OPTIMIZER_SUMMARIES, optimize_loss
from .regularizers import apply_regularization, l1_l2_regularizer, l1_regularizer, l2_regularizer, sum_regularizer

conv2d = convolution2d

__all__ = ["OPTIMIZER_CLS_NAMES", "OPTIMIZER_SUMMARIES", "apply_regularization", "avg_pool2d", "batch_norm",
           "conv2d", "convolution2d", "dropout", "embed_sequence", "flatten", "fully_connected",
           "infer_real_valued_columns", "l1_l2_regularizer", "l1_regularizer", "l2_regularizer", "linear",
           "max_pool2d", "optimize_loss", "real_valued_column", "sum_regularizer",
           "variance_scaling_initializer", "xavier_initializer", "xavier_initializer_conv2d"]

__getattr__ = missing_names(__name__, have=f"tf.contrib.layers here has {', '.join(__all__)}")
