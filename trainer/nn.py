"""tg.nn: activations, convolution, pooling, dropout and the cross-entropy losses."""
from .ops.conv_ops import conv2d, max_pool
from .ops.nn_ops import (bias_add, dropout, l2_loss, log_softmax, relu, sigmoid,
                         sigmoid_cross_entropy_with_logits, softmax, softmax_cross_entropy_with_logits,
                         sparse_softmax_cross_entropy_with_logits, tanh)

__all__ = ["bias_add", "conv2d", "dropout", "l2_loss", "log_softmax", "max_pool", "relu", "sigmoid",
           "sigmoid_cross_entropy_with_logits", "softmax", "softmax_cross_entropy_with_logits",
           "sparse_softmax_cross_entropy_with_logits", "tanh"]
