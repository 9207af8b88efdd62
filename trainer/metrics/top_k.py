"""tf.metrics' top-k metrics: each example's k best predictions against its set of labels (dense labels, one
example a row; a row's repeated labels count once, as TF's set operations count them).

    recall_at_k:     true positives / (true positives + false negatives): labels found among the top k
    precision_at_k:  true positives / (true positives + false positives): top-k entries that are labels
    average_precision_at_k: the mean over examples of sum(precision at i, for each relevant i-th prediction) /
                     min(number of labels, k)

The running totals are float64 local variables, as TF keeps them; recall and precision divide plainly (nan before
any example, as TF), average precision safely (0). With class_id only that class counts.
"""
import numpy as np

from .metrics_impl import metric_variable, publish, safe_div
from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from ..ops.array_ops import cast
from ..ops.core_ops import constant, convert_to_tensor, identity
from ..ops.cwise_ops import logical_and, logical_not
from ..ops.gather_ops import top_k
from ..ops.math_ops import divide, equal, minimum, ones_like
from ..ops.reduction_ops import reduce_any, reduce_sum
from ..ops.scan_ops import cumsum
from ..ops.array_ops import shape
from ..ops.shape_ops import expand_dims


def _name(kind, k, class_id):
    return f"{kind}_at_{k}" + ("" if class_id is None else f"_class{class_id}")


def _ids(labels, predictions_idx):
    labels, predictions_idx = convert_to_tensor(labels), cast(convert_to_tensor(predictions_idx), dtypes.int64)
    if labels.ndim is not None and predictions_idx.ndim is not None and labels.ndim == predictions_idx.ndim - 1:
        labels = expand_dims(labels, -1)  # one label per example
    return cast(labels, dtypes.int64), predictions_idx


def _in(values, others):
    """[..., n] bool: each entry of `values` occurs in `others` ([..., m]) of the same example."""
    return reduce_any(equal(expand_dims(values, -1), expand_dims(others, -2)), axis=-1)


def _counts(labels, predictions_idx, class_id):
    """Per example, float64: (true positives, false positives, false negatives)."""
    if class_id is not None:
        labelled = reduce_any(equal(labels, np.int64(class_id)), axis=-1)
        predicted = reduce_any(equal(predictions_idx, np.int64(class_id)), axis=-1)
        counts = [logical_and(labelled, predicted), logical_and(predicted, logical_not(labelled)),
                  logical_and(labelled, logical_not(predicted))]
        return [cast(c, dtypes.float64) for c in counts]
    found = cast(_in(predictions_idx, labels), dtypes.float64)
    tp = reduce_sum(found, axis=-1)
    fp = reduce_sum(1.0 - found, axis=-1)
    # a label counts once however often its row repeats it: only its first occurrence is kept
    width = labels.shape[-1] if labels.ndim is not None else None
    if width is None:
        raise ValueError(f"labels {labels.name!r} need a known last dimension for a top-k metric")
    earlier = constant(np.tril(np.ones((width, width), bool), -1))
    repeated = reduce_any(logical_and(equal(expand_dims(labels, -1), expand_dims(labels, -2)), earlier), axis=-1)
    missed = logical_and(logical_not(repeated), logical_not(_in(labels, predictions_idx)))
    return [tp, fp, reduce_sum(cast(missed, dtypes.float64), axis=-1)]


def _weighted_total(count, weights, name):
    if weights is not None:
        count = count * cast(weights, dtypes.float64) * ones_like(count)
    total = metric_variable([], dtypes.float64, name=name)
    return total, total.assign_add(reduce_sum(count))


def _ratio_at_top_k(kind, other_kind, labels, predictions_idx, k, class_id, weights, metrics_collections,
                    updates_collections, name):
    predictions_idx = convert_to_tensor(predictions_idx)
    k = k if k is not None else "k"
    with name_scope(name or _name(kind, k, class_id)) as scope:
        labels, predictions_idx = _ids(labels, predictions_idx)
        tp, fp, fn = _counts(labels, predictions_idx, class_id)
        other = fp if other_kind == "false_positive" else fn
        tp_total, tp_update = _weighted_total(tp, weights, _name("true_positive", k, class_id))
        other_total, other_update = _weighted_total(other, weights, _name(other_kind, k, class_id))
        value = divide(tp_total, tp_total + other_total, name=scope)  # named exactly the scope, as TF
        update = divide(tp_update, tp_update + other_update, name="update")
    return publish(value, update, metrics_collections, updates_collections)


def recall_at_top_k(labels, predictions_idx, k=None, class_id=None, weights=None, metrics_collections=None,
                    updates_collections=None, name=None):
    """Recall of the given top-k class ids ([batch, k]) against labels ([batch, n] or [batch])."""
    return _ratio_at_top_k("recall", "false_negative", labels, predictions_idx, k, class_id, weights,
                           metrics_collections, updates_collections, name)


def precision_at_top_k(labels, predictions_idx, k=None, class_id=None, weights=None, metrics_collections=None,
                       updates_collections=None, name=None):
    """Precision of the given top-k class ids ([batch, k]) against labels ([batch, n] or [batch])."""
    return _ratio_at_top_k("precision", "false_positive", labels, predictions_idx, k, class_id, weights,
                           metrics_collections, updates_collections, name)


def recall_at_k(labels, predictions, k, class_id=None, weights=None, metrics_collections=None,
                updates_collections=None, name=None):
    """Recall of each example's k highest-scoring classes (predictions [batch, classes])."""
    with name_scope(name or _name("recall", k, class_id)) as scope:
        _, idx = top_k(predictions, k)
        return recall_at_top_k(labels, idx, k, class_id, weights, metrics_collections, updates_collections,
                               name=scope)


def precision_at_k(labels, predictions, k, class_id=None, weights=None, metrics_collections=None,
                   updates_collections=None, name=None):
    """Precision of each example's k highest-scoring classes (predictions [batch, classes])."""
    with name_scope(name or _name("precision", k, class_id)) as scope:
        _, idx = top_k(predictions, k)
        return precision_at_top_k(labels, idx, k, class_id, weights, metrics_collections, updates_collections,
                                  name=scope)


def average_precision_at_k(labels, predictions, k, weights=None, metrics_collections=None,
                           updates_collections=None, name=None):
    """The mean over examples of the average precision of their k highest-scoring classes."""
    with name_scope(name or f"average_precision_at_{k}") as scope:
        _, idx = top_k(predictions, k)
        labels, idx = _ids(labels, idx)
        relevant = cast(_in(idx, labels), dtypes.float64)
        ranks = cast(constant(np.arange(1, k + 1)), dtypes.float64)
        precision_sum = reduce_sum(cumsum(relevant, axis=-1) / ranks * relevant, axis=-1)
        per_example = precision_sum / cast(minimum(shape(labels)[-1], k), dtypes.float64)
        weights = ones_like(per_example) if weights is None else cast(weights, dtypes.float64) * ones_like(
            per_example)
        count = metric_variable([], dtypes.float64, name="max")
        total = metric_variable([], dtypes.float64, name="total")
        update_count = count.assign_add(reduce_sum(weights))
        update_total = total.assign_add(reduce_sum(weights * per_example))
        value = safe_div(total, count, name="mean")
        update = identity(safe_div(update_total, update_count, name="update"), name=scope)
    return publish(value, update, metrics_collections, updates_collections)


# TF1's older names for the same metrics
sparse_precision_at_k, sparse_average_precision_at_k = precision_at_k, average_precision_at_k
