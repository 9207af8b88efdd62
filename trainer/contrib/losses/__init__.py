"""tf.contrib.losses: TF1's first loss functions, predictions or logits first (python/losses/loss_ops.py says how
they differ from tf.losses); metric_learning fails naming what is missing."""
from ...unsupported import missing_names
from .python.losses.loss_ops import (absolute_difference, add_loss, compute_weighted_loss, cosine_distance,
                                     get_losses, get_regularization_losses, get_total_loss, hinge_loss, log_loss,
                                     mean_pairwise_squared_error, mean_squared_error, sigmoid_cross_entropy,
                                     softmax_cross_entropy, sparse_softmax_cross_entropy)
from .python.losses.loss_ops import __all__

__getattr__ = missing_names(__name__, have=f"tf.contrib.losses here has {', '.join(__all__)}",
                            reasons={"metric_learning": "metric-learning losses (triplet, contrastive, N-pairs, "
                                                        "lifted structure)"})
