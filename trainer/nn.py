"""tg.nn: activations, convolution, pooling, dropout, normalization helpers and the cross-entropy losses."""
from .ops.activation_ops import elu, leaky_relu, relu6, softplus
from .ops.conv_ops import avg_pool, conv2d, max_pool
from .ops.batch_norm_ops import batch_normalization, fused_batch_norm
from .ops.conv_transpose_ops import conv2d_transpose
from .ops.gather_ops import in_top_k, top_k
from .ops.nn_impl import embedding_lookup, l2_normalize, moments, xw_plus_b
from .ops.nn_ops import (bias_add, dropout, l2_loss, log_softmax, relu, sigmoid,
                         sigmoid_cross_entropy_with_logits, softmax, softmax_cross_entropy_with_logits,
                         softmax_cross_entropy_with_logits_v2, sparse_softmax_cross_entropy_with_logits, tanh)

__all__ = ["avg_pool", "bias_add", "conv2d", "batch_normalization", "conv2d_transpose", "fused_batch_norm", "dropout", "elu", "embedding_lookup", "in_top_k", "l2_loss",
           "l2_normalize", "leaky_relu", "log_softmax", "max_pool", "moments", "relu", "relu6", "sigmoid",
           "sigmoid_cross_entropy_with_logits", "softmax", "softmax_cross_entropy_with_logits",
           "softmax_cross_entropy_with_logits_v2", "softplus", "sparse_softmax_cross_entropy_with_logits", "tanh",
           "top_k", "xw_plus_b"]
