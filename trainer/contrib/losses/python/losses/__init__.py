"""tensorflow.contrib.losses.python.losses: contrib's loss functions (loss_ops), which TF1's package re-exports."""
from . import loss_ops  # noqa: F401
from .loss_ops import (absolute_difference, add_loss, compute_weighted_loss, cosine_distance,  # noqa: F401
                       get_losses, get_regularization_losses, get_total_loss, hinge_loss, log_loss,
                       mean_pairwise_squared_error, mean_squared_error, sigmoid_cross_entropy, softmax_cross_entropy,
                       sparse_softmax_cross_entropy)
