"""tg.losses (TF1's tf.losses): weighted, reduced losses collected in GraphKeys.LOSSES."""
from .losses_impl import (Reduction, absolute_difference, compute_weighted_loss, cosine_distance, hinge_loss,
                          huber_loss, log_loss, mean_squared_error, sigmoid_cross_entropy, softmax_cross_entropy,
                          sparse_softmax_cross_entropy)
from .util import add_loss, get_losses, get_regularization_loss, get_regularization_losses, get_total_loss

__all__ = ["Reduction", "absolute_difference", "add_loss", "compute_weighted_loss", "cosine_distance",
           "get_losses", "get_regularization_loss", "get_regularization_losses", "get_total_loss", "hinge_loss",
           "huber_loss", "log_loss", "mean_squared_error", "sigmoid_cross_entropy", "softmax_cross_entropy",
           "sparse_softmax_cross_entropy"]
