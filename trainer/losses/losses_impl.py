"""tf.losses: per-element losses weighted and reduced as TF1 does, then added to GraphKeys.LOSSES.

Every loss takes `weights` (a scalar, or a tensor of the losses' rank whose dims are 1 or the losses' dims),
`scope` (the name scope of its ops), `loss_collection` (None: collect nowhere) and `reduction`; the default,
SUM_BY_NONZERO_WEIGHTS, divides the weighted sum by the number of losses whose weight is not zero.
"""
from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from ..framework.graph_keys import GraphKeys
from ..ops.array_ops import cast
from ..ops.slice_ops import strided_slice
from ..ops.core_ops import constant, convert_to_tensor
from ..ops.math_ops import abs as abs_, equal, log, minimum, ones_like, square, where, zeros_like
from ..ops.nn_ops import (relu, sigmoid_cross_entropy_with_logits, softmax_cross_entropy_with_logits,
                          sparse_softmax_cross_entropy_with_logits)
from ..ops.reduction_ops import reduce_sum
from .util import add_loss

LOSSES = GraphKeys.LOSSES


class Reduction:
    """How compute_weighted_loss reduces the weighted losses (TF1's strings)."""

    NONE = "none"
    SUM = "weighted_sum"
    SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
    MEAN = "weighted_mean"
    SUM_BY_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
    SUM_OVER_NONZERO_WEIGHTS = SUM_BY_NONZERO_WEIGHTS

    @classmethod
    def all(cls):
        return (cls.NONE, cls.SUM, cls.MEAN, cls.SUM_OVER_BATCH_SIZE, cls.SUM_OVER_NONZERO_WEIGHTS,
                cls.SUM_BY_NONZERO_WEIGHTS)

    @classmethod
    def validate(cls, key):
        if key not in cls.all():
            raise ValueError(f"Invalid Reduction Key {key!r}: use one of tg.losses.Reduction's {cls.all()}")


def static_dims(t):
    """A tensor's static dims as a tuple (None for unknown dims), or None when its rank is unknown."""
    shape = t.shape
    if shape is None or getattr(shape, "ndims", 0) is None:
        return None
    return tuple(getattr(d, "value", d) for d in shape)


def _check_weights(weights, losses):
    w, l = static_dims(weights), static_dims(losses)
    if w is None or l is None or len(w) == 0:
        return
    if len(w) != len(l) or any(a is not None and b is not None and a not in (1, b) for a, b in zip(w, l)):
        raise ValueError(f"weights of shape {w} can not be broadcast to the losses of shape {l} "
                         f"({losses.name!r}): give a scalar, or a tensor of rank {len(l)} whose dims are 1 "
                         "or the losses' dims")


def _num_elements(losses):
    dims = static_dims(losses)
    if dims is not None and None not in dims:
        size = 1
        for d in dims:
            size *= d
        return constant(float(size), dtype=losses.dtype, name="num_elements")
    return reduce_sum(ones_like(losses), name="num_elements")


def _num_present(losses, weights):
    """How many losses have a non-zero weight (weights broadcast to the losses' shape)."""
    if isinstance(weights, (int, float)) and weights != 0:
        return _num_elements(losses)
    with name_scope("num_present"):
        weights = convert_to_tensor(weights, dtype=losses.dtype)
        present = where(equal(weights, 0.0), zeros_like(weights), ones_like(weights))
        return reduce_sum(present * ones_like(losses))


def _safe_div(numerator, denominator, name="value"):
    """numerator / denominator, 0 where the denominator is 0 (TF1's div_no_nan)."""
    zero = equal(denominator, 0.0)
    ratio = numerator / where(zero, ones_like(denominator), denominator)
    return where(zero, zeros_like(ratio), ratio, name=name)


def compute_weighted_loss(losses, weights=1.0, scope=None, loss_collection=LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """losses * weights reduced by `reduction`, added to `loss_collection`; returns the loss tensor."""
    Reduction.validate(reduction)
    with name_scope(scope or "weighted_loss"):
        losses = convert_to_tensor(losses)
        if losses.dtype.kind != "f":
            losses = cast(losses, dtypes.float32)
        weight_tensor = convert_to_tensor(weights, dtype=losses.dtype)
        _check_weights(weight_tensor, losses)
        weighted = losses * weight_tensor
        if reduction == Reduction.NONE:
            loss = weighted
        else:
            loss = reduce_sum(weighted, name="Sum")
            if reduction == Reduction.MEAN:
                loss = _safe_div(loss, reduce_sum(ones_like(losses) * weight_tensor))
            elif reduction == Reduction.SUM_BY_NONZERO_WEIGHTS:
                loss = _safe_div(loss, _num_present(losses, weights))
            elif reduction == Reduction.SUM_OVER_BATCH_SIZE:
                loss = _safe_div(loss, _num_elements(losses))
        add_loss(loss, loss_collection)
        return loss


def _operands(what, labels, predictions, labels_name="labels", predictions_name="predictions"):
    """Float predictions and labels of the predictions' dtype, whose static shapes must be compatible."""
    if labels is None:
        raise ValueError(f"{what}: {labels_name} must not be None")
    if predictions is None:
        raise ValueError(f"{what}: {predictions_name} must not be None")
    predictions = convert_to_tensor(predictions)
    if predictions.dtype.kind != "f":
        predictions = cast(predictions, dtypes.float32)
    labels = cast(convert_to_tensor(labels), predictions.dtype)
    check_same_shape(what, predictions, labels, predictions_name, labels_name)
    return labels, predictions


def check_same_shape(what, predictions, labels, predictions_name="predictions", labels_name="labels"):
    """Raise a ValueError naming both tensors where their static shapes are known and differ."""
    p, q = static_dims(predictions), static_dims(labels)
    if p is not None and q is not None and (
            len(p) != len(q) or any(a is not None and b is not None and a != b for a, b in zip(p, q))):
        raise ValueError(f"{what}: {predictions_name} of shape {p} ({predictions.name!r}) and {labels_name} of "
                         f"shape {q} ({labels.name!r}) are not compatible; they must have the same shape")


def _elementwise(default_scope, doc, make_losses, labels_name="labels", predictions_name="predictions"):
    """A TF1 loss (labels, predictions, weights, ...) from its per-element formula make_losses(labels, preds)."""
    def loss_fn(labels, predictions, weights=1.0, scope=None, loss_collection=LOSSES,
                reduction=Reduction.SUM_BY_NONZERO_WEIGHTS, **params):
        with name_scope(scope or default_scope) as opened:
            labels, predictions = _operands(default_scope, labels, predictions, labels_name, predictions_name)
            losses = make_losses(labels, predictions, **params)
            return compute_weighted_loss(losses, weights, opened, loss_collection, reduction=reduction)
    loss_fn.__name__ = loss_fn.__qualname__ = default_scope
    loss_fn.__doc__ = doc
    return loss_fn


mean_squared_error = _elementwise(
    "mean_squared_error", "Weighted (predictions - labels) ** 2.", lambda y, p: square(p - y))
absolute_difference = _elementwise(
    "absolute_difference", "Weighted |predictions - labels|.", lambda y, p: abs_(p - y))


def _huber(labels, predictions, delta=1.0):
    error = abs_(predictions - labels)
    quadratic = minimum(error, delta)
    return 0.5 * square(quadratic) + delta * (error - quadratic)


def _log_loss(labels, predictions, epsilon=1e-7):
    return -labels * log(predictions + epsilon) - (1.0 - labels) * log(1.0 - predictions + epsilon)


def _hinge(labels, logits):
    return relu(1.0 - (2.0 * labels - 1.0) * logits)


_huber_loss = _elementwise("huber_loss", "", _huber)
_log_loss_fn = _elementwise("log_loss", "", _log_loss)
_hinge_loss = _elementwise("hinge_loss", "", _hinge, predictions_name="logits")


def huber_loss(labels, predictions, weights=1.0, delta=1.0, scope=None, loss_collection=LOSSES,
               reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Weighted 0.5 * e ** 2 for |e| <= delta, else delta * (|e| - 0.5 * delta), e = predictions - labels."""
    return _huber_loss(labels, predictions, weights, scope, loss_collection, reduction, delta=delta)


def log_loss(labels, predictions, weights=1.0, epsilon=1e-7, scope=None, loss_collection=LOSSES,
             reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Weighted -y log(p + eps) - (1 - y) log(1 - p + eps) for probabilities p."""
    return _log_loss_fn(labels, predictions, weights, scope, loss_collection, reduction, epsilon=epsilon)


def hinge_loss(labels, logits, weights=1.0, scope=None, loss_collection=LOSSES,
               reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Weighted max(0, 1 - (2 y - 1) * logits) for labels y in {0, 1}."""
    return _hinge_loss(labels, logits, weights, scope, loss_collection, reduction)


def cosine_distance(labels, predictions, axis=None, weights=1.0, scope=None, loss_collection=LOSSES,
                    reduction=Reduction.SUM_BY_NONZERO_WEIGHTS, dim=None):
    """Weighted 1 - sum(labels * predictions, axis) for unit-normalized inputs (`dim` is TF1's old name)."""
    axis = dim if axis is None else axis
    if axis is None:
        raise ValueError("cosine_distance needs `axis`, the dimension along which to take the dot product")
    with name_scope(scope or "cosine_distance_loss") as opened:
        labels, predictions = _operands("cosine_distance", labels, predictions)
        losses = 1.0 - reduce_sum(labels * predictions, axis=axis, keepdims=True)
        return compute_weighted_loss(losses, weights, opened, loss_collection, reduction=reduction)


def sigmoid_cross_entropy(multi_class_labels, logits, weights=1.0, label_smoothing=0, scope=None,
                          loss_collection=LOSSES, reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Weighted sigmoid cross-entropy; label_smoothing moves the labels towards 1/2: y (1 - s) + s / 2."""
    with name_scope(scope or "sigmoid_cross_entropy_loss") as opened:
        labels, logits = _operands("sigmoid_cross_entropy", multi_class_labels, logits,
                                   "multi_class_labels", "logits")
        if label_smoothing > 0:
            labels = labels * (1.0 - label_smoothing) + 0.5 * label_smoothing
        losses = sigmoid_cross_entropy_with_logits(labels=labels, logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, opened, loss_collection, reduction=reduction)


def softmax_cross_entropy(onehot_labels, logits, weights=1.0, label_smoothing=0, scope=None,
                          loss_collection=LOSSES, reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Weighted softmax cross-entropy per row (weights: scalar or [batch]); smoothing: y (1 - s) + s / classes."""
    with name_scope(scope or "softmax_cross_entropy_loss") as opened:
        labels, logits = _operands("softmax_cross_entropy", onehot_labels, logits, "onehot_labels", "logits")
        if label_smoothing > 0:
            classes = static_dims(labels)[-1] if static_dims(labels) else None
            if classes is None:
                raise NotImplementedError("softmax_cross_entropy label_smoothing needs a static number of classes "
                                          f"(last dim of onehot_labels), got shape {static_dims(labels)}")
            labels = labels * (1.0 - label_smoothing) + label_smoothing / classes
        losses = softmax_cross_entropy_with_logits(labels=labels, logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, opened, loss_collection, reduction=reduction)


def _squeeze_last(t, rank):
    """t without its last dim when t has rank `rank` + 1 and that dim is 1 (TF1 accepts [batch, 1] labels)."""
    dims = static_dims(t)
    if dims is not None and len(dims) == rank + 1 and dims[-1] == 1:
        return strided_slice(t, (Ellipsis, 0))
    return t


def sparse_softmax_cross_entropy(labels, logits, weights=1.0, scope=None, loss_collection=LOSSES,
                                 reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Weighted softmax cross-entropy with integer class labels of shape [batch] (or [batch, 1])."""
    if labels is None or logits is None:
        raise ValueError("sparse_softmax_cross_entropy: labels and logits must not be None")
    with name_scope(scope or "sparse_softmax_cross_entropy_loss") as opened:
        logits, labels = convert_to_tensor(logits), convert_to_tensor(labels)
        rank = None if static_dims(logits) is None else len(static_dims(logits)) - 1
        if rank is not None:
            labels = _squeeze_last(labels, rank)
            if not isinstance(weights, (int, float)):
                weights = _squeeze_last(convert_to_tensor(weights, dtype=logits.dtype), rank)
        losses = sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, opened, loss_collection, reduction=reduction)


__all__ = ["Reduction", "absolute_difference", "compute_weighted_loss", "cosine_distance", "hinge_loss",
           "huber_loss", "log_loss", "mean_squared_error", "sigmoid_cross_entropy", "softmax_cross_entropy",
           "sparse_softmax_cross_entropy"]
