"""tf.metrics built on running confusion counts: per threshold (the *_at_thresholds family, sensitivity at a given
specificity and back) and per class (mean_iou's confusion matrix, mean_per_class_accuracy), as TF1's metrics_impl
computes them."""
from ..framework import dtypes
from ..ops.array_ops import argmax, argmin, cast, reshape
from ..ops.core_ops import convert_to_tensor
from ..ops.cwise_ops import truediv
from ..ops.linalg_ops import matrix_diag_part
from ..ops.math_ops import abs, equal, greater, not_equal, ones_like, where  # noqa: A004
from ..ops.reduction_ops import reduce_mean, reduce_min, reduce_sum
from ..ops.scan_ops import cumsum
from ..ops.scatter_ops import scatter_add
from ..ops.segment_ops import unsorted_segment_sum
from ..ops.scopes import variable_scope
from .metrics_impl import AUC_EPSILON, align, counts_at_thresholds, metric_variable, publish, safe_div

def _count_at_thresholds(default_name, key):
    def metric(labels, predictions, thresholds, weights=None, metrics_collections=None, updates_collections=None,
               name=None):
        with variable_scope(name, default_name, (predictions, labels, weights)):
            count, update = counts_at_thresholds(labels, predictions, thresholds, weights, keys=(key,))[key]
        return publish(count, update, metrics_collections, updates_collections)
    metric.__name__ = metric.__qualname__ = default_name
    metric.__doc__ = f"The running (weighted) count of {default_name.split('_at_')[0].replace('_', ' ')} at each " \
                     "threshold (a prediction above it is positive)."
    return metric


true_positives_at_thresholds = _count_at_thresholds("true_positives_at_thresholds", "tp")
false_positives_at_thresholds = _count_at_thresholds("false_positives_at_thresholds", "fp")
true_negatives_at_thresholds = _count_at_thresholds("true_negatives_at_thresholds", "tn")
false_negatives_at_thresholds = _count_at_thresholds("false_negatives_at_thresholds", "fn")


def _ratio_at_thresholds(default_name, other):
    def metric(labels, predictions, thresholds, weights=None, metrics_collections=None, updates_collections=None,
               name=None):
        with variable_scope(name, default_name, (predictions, labels, weights)):
            found = counts_at_thresholds(labels, predictions, thresholds, weights, keys=("tp", other))
            (tp, update_tp), (rest, update_rest) = found["tp"], found[other]
            kind = default_name.split("_at_")[0]
            value = truediv(tp, AUC_EPSILON + tp + rest, name=f"{kind}_value")
            update_op = truediv(update_tp, AUC_EPSILON + update_tp + update_rest, name=f"{kind}_update_op")
        return publish(value, update_op, metrics_collections, updates_collections)
    metric.__name__ = metric.__qualname__ = default_name
    metric.__doc__ = f"tp / (tp + {other}) at each threshold, from running counts (1e-7 added below the line)."
    return metric


precision_at_thresholds = _ratio_at_thresholds("precision_at_thresholds", "fp")
recall_at_thresholds = _ratio_at_thresholds("recall_at_thresholds", "fn")


def _even_thresholds(num_thresholds):
    inner = [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    return [0.0 - AUC_EPSILON] + inner + [1.0 + AUC_EPSILON]


def _at_rate(default_name, rate_name, rate_keys, read_keys, pick_last):
    def metric(labels, predictions, rate, weights=None, num_thresholds=200, metrics_collections=None,
               updates_collections=None, name=None):
        if rate < 0 or rate > 1:
            raise ValueError(f"`{rate_name}` must be in the range [0, 1], got {rate!r}.")
        with variable_scope(name, default_name, (predictions, labels, weights)):
            found = counts_at_thresholds(labels, predictions, _even_thresholds(num_thresholds), weights)

            def compute(c, name):
                good, bad = c[rate_keys[0]], c[rate_keys[1]]
                distance = abs(truediv(good, good + bad + AUC_EPSILON) - rate)
                if pick_last:  # the last threshold nearest the rate: TF's cumsum trick for an argmin from the end
                    at_min = cast(equal(distance, reduce_min(distance)), dtypes.int64)
                    index = cast(argmax(cumsum(at_min), 0), dtypes.int32)
                else:
                    index = cast(argmin(distance, 0), dtypes.int32)
                hit, miss = c[read_keys[0]][index], c[read_keys[1]][index]
                return truediv(hit, hit + miss + AUC_EPSILON, name=name)
            value = compute({k: v for k, (v, _) in found.items()}, "value")
            update_op = compute({k: u for k, (_, u) in found.items()}, "update_op")
        return publish(value, update_op, metrics_collections, updates_collections)
    metric.__name__ = metric.__qualname__ = default_name
    return metric


sensitivity_at_specificity = _at_rate("sensitivity_at_specificity", "specificity", ("tn", "fp"), ("tp", "fn"), False)
sensitivity_at_specificity.__doc__ = ("The recall at the threshold whose specificity tn / (tn + fp) is nearest "
                                      "`specificity`, over num_thresholds thresholds in [0, 1].")
specificity_at_sensitivity = _at_rate("specificity_at_sensitivity", "sensitivity", ("tp", "fn"), ("tn", "fp"), True)
specificity_at_sensitivity.__doc__ = ("The specificity tn / (tn + fp) at the threshold whose recall is nearest "
                                      "`sensitivity`, over num_thresholds thresholds in [0, 1].")


def _flat_classes(labels, predictions, weights):
    predictions, labels, weights = align(convert_to_tensor(predictions), convert_to_tensor(labels), weights)
    labels, predictions = reshape(cast(labels, dtypes.int64), [-1]), reshape(cast(predictions, dtypes.int64), [-1])
    weights = None if weights is None else reshape(cast(weights, dtypes.float32) * ones_like(
        cast(labels, dtypes.float32)), [-1]) if weights.ndim == 0 else reshape(cast(weights, dtypes.float32), [-1])
    return labels, predictions, weights


def mean_iou(labels, predictions, num_classes, weights=None, metrics_collections=None, updates_collections=None,
             name=None):
    """The mean over classes of intersection / union (tp / (tp + fp + fn)) from a running confusion matrix
    (float64, rows the labels); classes never seen are left out. The update op returns the matrix."""
    with variable_scope(name, "mean_iou", (predictions, labels, weights)):
        labels, predictions, weights = _flat_classes(labels, predictions, weights)
        total = metric_variable([num_classes, num_classes], dtypes.float64, name="total_confusion_matrix")
        counts = ones_like(cast(labels, dtypes.float64)) if weights is None else cast(weights, dtypes.float64)
        batch = reshape(unsorted_segment_sum(counts, labels * num_classes + predictions, num_classes * num_classes),
                        [num_classes, num_classes])
        update_op = total.assign_add(batch)

        def compute(matrix, name):
            matrix = cast(matrix, dtypes.float32)
            union = reduce_sum(matrix, 0) + reduce_sum(matrix, 1) - matrix_diag_part(matrix)
            valid = reduce_sum(cast(not_equal(union, 0), dtypes.float32))
            iou = truediv(matrix_diag_part(matrix), where(greater(union, 0), union, ones_like(union)))
            return where(greater(valid, 0), truediv(reduce_sum(iou), where(greater(valid, 0), valid, 1.0)), 0.0,
                         name=name)
        value = compute(total, "mean_iou")
    return publish(value, update_op, metrics_collections, updates_collections)


def mean_per_class_accuracy(labels, predictions, num_classes, weights=None, metrics_collections=None,
                            updates_collections=None, name=None):
    """The mean over classes of each class's accuracy (correct / seen, from running per-class counts); the update
    op returns the per-class accuracies."""
    with variable_scope(name, "mean_accuracy", (predictions, labels, weights)):
        labels, predictions, weights = _flat_classes(labels, predictions, weights)
        total = metric_variable([num_classes], dtypes.float32, name="total")
        count = metric_variable([num_classes], dtypes.float32, name="count")
        seen = ones_like(cast(labels, dtypes.float32))
        correct = cast(equal(predictions, labels), dtypes.float32)
        if weights is not None:
            seen, correct = seen * weights, correct * weights
        update_total, update_count = scatter_add(total, labels, seen), scatter_add(count, labels, correct)
        value = reduce_mean(safe_div(count, total, name=None), name="mean_accuracy")
        update_op = safe_div(update_count, update_total, name="update_op")
    return publish(value, update_op, metrics_collections, updates_collections)
