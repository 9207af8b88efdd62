"""tf.contrib.metrics' streaming metrics (TF 1.15's tensorflow.contrib.metrics.python.ops.metric_ops).

Each streaming_* that TF 1.15 builds on a tf.metrics function is that function with contrib's argument order,
predictions before labels: the same (value, update_op) pair over the same local variables, in the same
collections. The ones without a tf.metrics counterpart here raise NotImplementedError naming what is missing.
accuracy is the one-batch accuracy (a tensor, no variables); aggregate_metrics and aggregate_metric_map split
(value, update_op) pairs into values and update ops.
"""
import inspect

from .....framework.graph_wrappers import name_scope
from .....metrics import (accuracy as metrics_accuracy, auc, false_negatives,
                          false_negatives_at_thresholds, false_positives, false_positives_at_thresholds, mean,
                          mean_absolute_error, mean_cosine_distance, mean_iou, mean_relative_error, mean_squared_error,
                          mean_tensor, percentage_below, precision, precision_at_k, precision_at_thresholds,
                          precision_at_top_k, average_precision_at_k, recall, recall_at_k, recall_at_thresholds,
                          recall_at_top_k, root_mean_squared_error, sensitivity_at_specificity,
                          specificity_at_sensitivity, true_negatives, true_negatives_at_thresholds, true_positives,
                          true_positives_at_thresholds)
from .....ops.array_ops import cast
from .....ops.core_ops import convert_to_tensor
from .....ops.gather_ops import in_top_k
from .....ops.math_ops import equal, multiply, ones_like
from .....ops.reduction_ops import reduce_mean, reduce_sum
from .....ops.search_ops import confusion_matrix  # noqa: F401  (tf.contrib.metrics.confusion_matrix)

_OPTIONAL = ("weights", "metrics_collections", "updates_collections", "name")


def _labels_second(core, extra=(), optional=(), name=None):
    """contrib's streaming form (`name`, else streaming_<core>) of the tf.metrics function `core`: (predictions,
    labels, *extra, *optional, weights=None, metrics_collections=None, updates_collections=None, name=None), a
    signature that MetricSpec reads."""
    name = name or f"streaming_{core.__name__}"
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    signature = inspect.Signature([inspect.Parameter(n, kind) for n in ("predictions", "labels", *extra)]
                                  + [inspect.Parameter(n, kind, default=None) for n in (*optional, *_OPTIONAL)])

    def streaming(*args, **kwargs):
        return core(**signature.bind(*args, **kwargs).arguments)
    streaming.__name__ = streaming.__qualname__ = name
    streaming.__signature__ = signature
    streaming.__doc__ = f"tf.metrics.{core.__name__} with predictions first, labels second: (value, update_op)."
    return streaming


streaming_true_positives = _labels_second(true_positives)
streaming_true_negatives = _labels_second(true_negatives)
streaming_false_positives = _labels_second(false_positives)
streaming_false_negatives = _labels_second(false_negatives)
streaming_accuracy = _labels_second(metrics_accuracy)
streaming_precision = _labels_second(precision)
streaming_recall = _labels_second(recall)
streaming_mean_absolute_error = _labels_second(mean_absolute_error)
streaming_mean_squared_error = _labels_second(mean_squared_error)
streaming_root_mean_squared_error = _labels_second(root_mean_squared_error)
streaming_mean_relative_error = _labels_second(mean_relative_error, ("normalizer",))
streaming_mean_cosine_distance = _labels_second(mean_cosine_distance, ("dim",))
streaming_mean_iou = _labels_second(mean_iou, ("num_classes",))
streaming_precision_at_thresholds = _labels_second(precision_at_thresholds, ("thresholds",))
streaming_recall_at_thresholds = _labels_second(recall_at_thresholds, ("thresholds",))
streaming_true_positives_at_thresholds = _labels_second(true_positives_at_thresholds, ("thresholds",))
streaming_true_negatives_at_thresholds = _labels_second(true_negatives_at_thresholds, ("thresholds",))
streaming_false_positives_at_thresholds = _labels_second(false_positives_at_thresholds, ("thresholds",))
streaming_false_negatives_at_thresholds = _labels_second(false_negatives_at_thresholds, ("thresholds",))
streaming_sensitivity_at_specificity = _labels_second(sensitivity_at_specificity, ("specificity",))
streaming_specificity_at_sensitivity = _labels_second(specificity_at_sensitivity, ("sensitivity",))
streaming_sparse_precision_at_k = _labels_second(precision_at_k, ("k",), ("class_id",),
                                                 name="streaming_sparse_precision_at_k")
streaming_sparse_recall_at_k = _labels_second(recall_at_k, ("k",), ("class_id",), name="streaming_sparse_recall_at_k")
streaming_sparse_average_precision_at_k = _labels_second(average_precision_at_k, ("k",),
                                                         name="streaming_sparse_average_precision_at_k")


def streaming_mean(values, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """tf.metrics.mean: the running (weighted) mean of `values`, (value, update_op)."""
    return mean(values, weights, metrics_collections, updates_collections, name)


def streaming_mean_tensor(values, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """tf.metrics.mean_tensor: the running element-wise mean of `values`, (value, update_op)."""
    return mean_tensor(values, weights, metrics_collections, updates_collections, name)


def streaming_percentage_less(values, threshold, weights=None, metrics_collections=None, updates_collections=None,
                              name=None):
    """tf.metrics.percentage_below: the running fraction of `values` below `threshold`, (value, update_op)."""
    return percentage_below(values, threshold, weights, metrics_collections, updates_collections, name)


def streaming_auc(predictions, labels, weights=None, num_thresholds=200, metrics_collections=None,
                  updates_collections=None, curve="ROC", name=None, summation_method="trapezoidal"):
    """tf.metrics.auc with predictions first: the area under the ROC or PR curve, (value, update_op)."""
    return auc(labels, predictions, weights=weights, num_thresholds=num_thresholds,
               metrics_collections=metrics_collections, updates_collections=updates_collections, curve=curve,
               name=name, summation_method=summation_method)


def streaming_sparse_precision_at_top_k(top_k_predictions, labels, class_id=None, weights=None,
                                        metrics_collections=None, updates_collections=None, name=None):
    """tf.metrics.precision_at_top_k on the ids of the top k predictions, (value, update_op)."""
    return precision_at_top_k(labels, top_k_predictions, class_id=class_id, weights=weights,
                              metrics_collections=metrics_collections, updates_collections=updates_collections,
                              name=name)


def sparse_recall_at_top_k(labels, top_k_predictions, class_id=None, weights=None, metrics_collections=None,
                           updates_collections=None, name=None):
    """tf.metrics.recall_at_top_k on the ids of the top k predictions, (value, update_op)."""
    return recall_at_top_k(labels, top_k_predictions, class_id=class_id, weights=weights,
                           metrics_collections=metrics_collections, updates_collections=updates_collections,
                           name=name)


def streaming_recall_at_k(predictions, labels, k, weights=None, metrics_collections=None, updates_collections=None,
                          name=None):
    """The running mean of in_top_k(predictions, labels, k): how often the label is among the top k."""
    in_top = in_top_k(predictions, labels, k)
    return mean(in_top, weights, metrics_collections, updates_collections, name or f"recall_at_{k}")


def accuracy(predictions, labels, weights=None, name=None):
    """The (weighted) fraction of predictions equal to labels in this batch: a tensor, no running totals."""
    with name_scope(name or "accuracy"):
        predictions, labels = convert_to_tensor(predictions), convert_to_tensor(labels)
        if labels.dtype.kind not in "iub" and labels.dtype.kind not in "SO":
            raise ValueError(f"contrib.metrics.accuracy: labels {labels.name!r} are {labels.dtype}; they must be "
                             "integers, bools or strings (class ids), as the predictions")
        if predictions.dtype != labels.dtype:
            raise ValueError(f"contrib.metrics.accuracy: predictions {predictions.name!r} are "
                             f"{predictions.dtype} and labels {labels.name!r} {labels.dtype}: the dtypes must match")
        is_correct = cast(equal(predictions, labels), "float32")
        if weights is None:
            return reduce_mean(is_correct)
        is_correct = multiply(is_correct, weights)
        return reduce_sum(is_correct) / reduce_sum(multiply(weights, ones_like(is_correct)))


def aggregate_metrics(*value_update_tuples):
    """([value, ...], [update_op, ...]) from (value, update_op) pairs."""
    if not value_update_tuples:
        raise ValueError("aggregate_metrics: expected at least one (value, update_op) pair")
    values, updates = zip(*value_update_tuples)
    return list(values), list(updates)


def aggregate_metric_map(names_to_tuples):
    """({name: value}, {name: update_op}) from {name: (value, update_op)}."""
    for name, pair in names_to_tuples.items():
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise ValueError(f"aggregate_metric_map: metric {name!r} is {pair!r}, not a (value, update_op) pair: "
                             "give streaming metrics (tf.contrib.metrics.streaming_*, tf.metrics.*)")
    names = list(names_to_tuples)
    values, updates = zip(*names_to_tuples.values()) if names else ((), ())
    return dict(zip(names, values)), dict(zip(names, updates))


def _not_implemented(name, what):
    def missing(*args, **kwargs):
        raise NotImplementedError(f"tf.contrib.metrics.{name} is not implemented in ringflow ({what})")
    missing.__name__ = missing.__qualname__ = name
    missing.__doc__ = f"Not in ringflow: {what}."
    return missing


NOT_IMPLEMENTED = {
    "streaming_concat": "a running concatenation of values",
    "streaming_covariance": "a running covariance", "streaming_pearson_correlation": "a running Pearson correlation",
    "streaming_dynamic_auc": "an AUC over every prediction seen: use streaming_auc's thresholds",
    "streaming_curve_points": "the ROC or PR curve's points: use streaming_precision_at_thresholds and "
                              "streaming_recall_at_thresholds",
    "streaming_precision_recall_at_equal_thresholds": "use streaming_precision_at_thresholds and "
                                                      "streaming_recall_at_thresholds",
    "streaming_false_positive_rate": "compute fp / (fp + tn) from streaming_false_positives and "
                                     "streaming_true_negatives",
    "streaming_false_negative_rate": "compute fn / (fn + tp) from streaming_false_negatives and "
                                     "streaming_true_positives",
    "streaming_false_positive_rate_at_thresholds": "the false positive rate per threshold",
    "streaming_false_negative_rate_at_thresholds": "the false negative rate per threshold",
    "streaming_sparse_average_precision_at_top_k": "average precision on the top-k ids: use "
                                                   "streaming_sparse_average_precision_at_k on the scores",
    "auc_using_histogram": "a histogram AUC: use streaming_auc", "cohen_kappa": "Cohen's kappa",
    "count": "a running count: use streaming_mean's update count or tf.metrics.mean",
    "f1_score": "a running F1: combine streaming_precision and streaming_recall",
    "precision_at_recall": "precision at a recall", "recall_at_precision": "recall at a precision",
}
globals().update({name: _not_implemented(name, what) for name, what in NOT_IMPLEMENTED.items()})
