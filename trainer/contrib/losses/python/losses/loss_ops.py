"""tf.contrib.losses' loss functions (TF 1.15's tensorflow.contrib.losses.python.losses.loss_ops).

They come before tf.losses and differ from it: predictions (or logits) come first and labels second; weights may be
a scalar, [batch_size] or any leading part of the losses' shape (a trailing dimension of 1 is squeezed first); every
weighted loss is the sum of the weighted losses over the number of losses with a non-zero weight, kept in the
LOSSES collection; hinge_loss takes no weights and returns the unreduced losses; mean_pairwise_squared_error divides
by n where tf.losses divides by n - 1. The weighted ones are tf.losses' compute_weighted_loss with the weights
expanded to the losses' rank, which sums and counts as contrib's own reduction does wherever the weights' dims are
the losses' leading dims (as contrib documents them); weights with a 1 in a middle dim, which contrib counts once
where tf.losses counts each element it covers, are the one case where they part.
"""
from .....framework.graph_keys import GraphKeys
from .....framework.graph_wrappers import name_scope
from .....losses import Reduction, util
from .....losses import compute_weighted_loss as core_weighted_loss
from .....losses.losses_impl import check_same_shape, static_dims
from .....ops.array_ops import cast, reshape, shape
from .....ops.core_ops import convert_to_tensor
from .....ops.math_ops import (abs as abs_, equal, greater, log, multiply, not_equal, ones_like, square, subtract,
                               where, zeros_like)
from .....ops.nn_ops import (relu, sigmoid_cross_entropy_with_logits, softmax_cross_entropy_with_logits,
                            sparse_softmax_cross_entropy_with_logits)
from .....ops.reduction_ops import reduce_prod, reduce_sum
from .....ops.shape_ops import expand_dims, squeeze

__all__ = ["absolute_difference", "add_loss", "compute_weighted_loss", "cosine_distance", "get_losses",
           "get_regularization_losses", "get_total_loss", "hinge_loss", "log_loss", "mean_pairwise_squared_error",
           "mean_squared_error", "sigmoid_cross_entropy", "softmax_cross_entropy", "sparse_softmax_cross_entropy"]

get_losses = util.get_losses
get_regularization_losses = util.get_regularization_losses


def add_loss(loss, loss_collection=GraphKeys.LOSSES):
    """Add an externally defined loss to `loss_collection` (none when it is None)."""
    util.add_loss(loss, loss_collection)


def get_total_loss(add_regularization_losses=True, name="total_loss"):
    """The sum of the LOSSES collection, plus the regularization losses unless add_regularization_losses=False."""
    return util.get_total_loss(add_regularization_losses, name=name)


def _ranks(losses, weights):
    losses_dims, weights_dims = static_dims(losses), static_dims(weights)
    if losses_dims is None:
        raise ValueError(f"the losses {losses.name!r} have an unknown rank: contrib.losses needs it to weigh them")
    if weights_dims is None:
        raise ValueError(f"the weights {weights.name!r} have an unknown rank: give a scalar, [batch_size] or a "
                         "tensor of the losses' leading dims")
    return losses_dims, weights_dims


def _weights_like(losses, weights):
    """contrib's weights as tf.losses takes them: the last dim of 1 squeezed, then ones appended up to the losses'
    rank, so that each weight covers the trailing dims of its sample."""
    if weights is None:
        raise ValueError(f"weights of the losses {losses.name!r} must not be None: give 1.0 for equal weights")
    weights = cast(convert_to_tensor(weights), losses.dtype)
    losses_dims, weights_dims = _ranks(losses, weights)
    if len(weights_dims) > 1 and weights_dims[-1] in (1, None):
        weights = squeeze(weights, [-1])
        weights_dims = weights_dims[:-1]
    if len(weights_dims) > len(losses_dims):
        raise ValueError(f"weights of shape {weights_dims} have more dims than the losses {losses.name!r} of shape "
                         f"{losses_dims}: give a scalar, [batch_size] or the losses' leading dims")
    for _ in range(len(weights_dims), len(losses_dims) if weights_dims else 0):
        weights = expand_dims(weights, -1)
    return weights


def compute_weighted_loss(losses, weights=1.0, scope=None):
    """The weighted mean of `losses` over those with a non-zero weight, added to the LOSSES collection."""
    with name_scope(scope or "weighted_loss") as scope:
        losses = convert_to_tensor(losses)
        input_dtype = losses.dtype
        losses = cast(losses, "float32")
        loss = core_weighted_loss(losses, _weights_like(losses, weights), scope=scope, loss_collection=None,
                                  reduction=Reduction.SUM_BY_NONZERO_WEIGHTS)
        loss = cast(loss, input_dtype)
        util.add_loss(loss)
        return loss


def _pair(what, predictions, labels):
    if labels is None:
        raise ValueError(f"contrib.losses.{what}: labels must not be None (the second argument: contrib's losses "
                         "take predictions first, then labels)")
    predictions = cast(convert_to_tensor(predictions), "float32")
    labels = cast(convert_to_tensor(labels), "float32")
    check_same_shape(f"contrib.losses.{what}", predictions, labels)
    return predictions, labels


def absolute_difference(predictions, labels=None, weights=1.0, scope=None):
    """The weighted mean of |predictions - labels|."""
    with name_scope(scope or "absolute_difference") as scope:
        predictions, labels = _pair("absolute_difference", predictions, labels)
        return compute_weighted_loss(abs_(subtract(predictions, labels)), weights, scope=scope)


def mean_squared_error(predictions, labels=None, weights=1.0, scope=None):
    """The weighted mean of (predictions - labels)²."""
    with name_scope(scope or "mean_squared_error") as scope:
        predictions, labels = _pair("mean_squared_error", predictions, labels)
        return compute_weighted_loss(square(subtract(predictions, labels)), weights, scope=scope)


def log_loss(predictions, labels=None, weights=1.0, epsilon=1e-7, scope=None):
    """The weighted mean of the log losses of probabilities `predictions` against `labels`."""
    with name_scope(scope or "log_loss") as scope:
        predictions, labels = _pair("log_loss", predictions, labels)
        losses = (-multiply(labels, log(predictions + epsilon))
                  - multiply(1.0 - labels, log(1.0 - predictions + epsilon)))
        return compute_weighted_loss(losses, weights, scope=scope)


def cosine_distance(predictions, labels=None, axis=None, weights=1.0, scope=None, dim=None):
    """The weighted mean of 1 - <predictions, labels> along `axis` (unit-normalized inputs)."""
    axis = dim if axis is None else axis
    if axis is None:
        raise ValueError("contrib.losses.cosine_distance: you must specify `axis` (the dimension the vectors lie "
                         "along)")
    with name_scope(scope or "cosine_distance_loss") as scope:
        predictions, labels = _pair("cosine_distance", predictions, labels)
        losses = 1.0 - reduce_sum(multiply(predictions, labels), axis=[axis])
        return compute_weighted_loss(losses, weights, scope=scope)


def hinge_loss(logits, labels=None, scope=None):
    """The unreduced hinge losses max(0, 1 - (2·labels - 1)·logits), labels in {0, 1}; not collected."""
    with name_scope(scope or "hinge_loss"):
        logits, labels = _pair("hinge_loss", logits, labels)
        all_ones = ones_like(labels)
        return relu(subtract(all_ones, multiply(subtract(2.0 * labels, all_ones), logits)))


def sigmoid_cross_entropy(logits, multi_class_labels, weights=1.0, label_smoothing=0, scope=None):
    """The weighted mean of sigmoid cross-entropies; label_smoothing pulls the labels towards 1/2."""
    with name_scope(scope or "sigmoid_cross_entropy_loss") as scope:
        logits = convert_to_tensor(logits)
        labels = cast(convert_to_tensor(multi_class_labels), logits.dtype)
        if label_smoothing > 0:
            labels = labels * (1 - label_smoothing) + 0.5 * label_smoothing
        losses = sigmoid_cross_entropy_with_logits(labels=labels, logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, scope=scope)


def softmax_cross_entropy(logits, onehot_labels, weights=1.0, label_smoothing=0, scope=None):
    """The weighted mean of softmax cross-entropies; label_smoothing spreads that much mass over the classes."""
    with name_scope(scope or "softmax_cross_entropy_loss") as scope:
        logits = convert_to_tensor(logits)
        labels = cast(convert_to_tensor(onehot_labels), logits.dtype)
        if label_smoothing > 0:
            num_classes = cast(shape(labels)[1], logits.dtype)
            labels = labels * (1 - label_smoothing) + label_smoothing / num_classes
        losses = softmax_cross_entropy_with_logits(labels=labels, logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, scope=scope)


def sparse_softmax_cross_entropy(logits, labels, weights=1.0, scope=None):
    """The weighted mean of softmax cross-entropies against class ids, labels of shape [batch] or [batch, 1]."""
    with name_scope(scope or "sparse_softmax_cross_entropy_loss") as scope:
        labels = convert_to_tensor(labels)
        labels = reshape(labels, shape(labels)[:1])
        losses = sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, scope=scope)


def _divide_present(numerator, denominator):
    """numerator / denominator where the denominator is positive, else 0."""
    positive = greater(denominator, 0.0)
    return where(positive, numerator / where(equal(denominator, 0.0), ones_like(denominator), denominator),
                 zeros_like(numerator))


def mean_pairwise_squared_error(predictions, labels=None, weights=1.0, scope=None):
    """The weighted mean over samples of the mean squared difference between pairs of a sample's
    (predictions - labels), with contrib's divisor n (tf.losses' divides by n - 1); weights a scalar or [batch]."""
    with name_scope(scope or "mean_pairwise_squared_error"):
        predictions, labels = _pair("mean_pairwise_squared_error", predictions, labels)
        weights = cast(convert_to_tensor(weights), "float32")
        diffs = subtract(predictions, labels)
        diffs_dims, weights_dims = _ranks(diffs, weights)
        if len(weights_dims) > 1:
            raise ValueError(f"contrib.losses.mean_pairwise_squared_error: weights of shape {weights_dims} "
                             f"({weights.name!r}); give a scalar or one weight per sample, of shape [batch_size]")
        trailing = list(range(1, len(diffs_dims)))
        per_sample = cast(reduce_prod(shape(diffs)[1:]), "float32")
        present = cast(not_equal(weights, 0.0), "float32") * per_sample * ones_like(reduce_sum(diffs, axis=trailing))
        term1 = 2.0 * _divide_present(reduce_sum(square(diffs), axis=trailing), present)
        term2 = 2.0 * _divide_present(square(reduce_sum(diffs, axis=trailing)), square(present))
        scaled = reduce_sum((term1 - term2) * weights)
        loss = where(greater(reduce_sum(present), 0.0), scaled, zeros_like(scaled), name="value")
        util.add_loss(loss)
        return loss
