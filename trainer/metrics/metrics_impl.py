"""tf.metrics' running means, errors, confusion counts, precision, recall and auc (TF1's metrics_impl), and the
helpers every metric shares: each a (value, update_op) pair over running totals.

Every metric keeps its totals in float32 LOCAL variables (collections LOCAL_VARIABLES and METRIC_VARIABLES),
named as TF1 names them ("accuracy/total", "accuracy/count", "precision/true_positives/count"), so
tg.local_variables_initializer() resets them and tg.train.Saver's default list leaves them out. Running
update_op folds one batch into the totals and returns the metric so far; the value tensor reads the totals.
"""
from ..framework import dtypes
from ..framework.graph_wrappers import add_to_collections, control_dependencies
from ..framework.graph_keys import GraphKeys
from ..ops.array_ops import cast, reshape, zeros
from ..ops.core_ops import convert_to_tensor, identity
from ..ops.cwise_ops import logical_and, logical_not, squared_difference
from ..ops.core_ops import constant
from ..ops.math_ops import abs, equal, greater, less, maximum, minimum, ones_like, sqrt, where, zeros_like  # noqa: A004
from ..ops.reduction_ops import reduce_sum
from ..ops.shape_ops import expand_dims, size, squeeze
from ..ops.scopes import variable_scope
from ..ops.variables import Variable


def metric_variable(shape, dtype, validate_shape=True, name=None):
    """A zero-initialized local variable holding a metric's running total (not trained, not checkpointed)."""
    with control_dependencies(None):  # the initializer must not wait on the batch being evaluated
        return Variable(lambda: zeros(shape, dtype), trainable=False, validate_shape=validate_shape, name=name,
                        collections=[GraphKeys.LOCAL_VARIABLES, GraphKeys.METRIC_VARIABLES])


def _squeeze_last(tensor, other):
    """`tensor` without its trailing size-1 axis when it has exactly one more axis than `other` (static ranks)."""
    if tensor.ndim is not None and other.ndim is not None and tensor.ndim == other.ndim + 1 \
            and tensor.shape[-1] == 1:
        return squeeze(tensor, [-1])
    return tensor


def align(predictions, labels=None, weights=None):
    """TF1's remove_squeezable_dimensions: drop a trailing 1 so labels, predictions and weights line up."""
    predictions = convert_to_tensor(predictions)
    if labels is not None:
        labels = convert_to_tensor(labels)
        labels, predictions = _squeeze_last(labels, predictions), _squeeze_last(predictions, labels)
    if weights is not None:
        weights = convert_to_tensor(weights)
        if weights.ndim not in (None, 0) and predictions.ndim is not None:
            weights = _squeeze_last(weights, predictions)
            if weights.ndim == predictions.ndim - 1:
                weights = expand_dims(weights, -1)
    return predictions, labels, weights


def float_weights(weights, values):
    """weights as float32, checked to be a scalar or of values' rank (TF1's broadcast_weights rule)."""
    weights = cast(weights, dtypes.float32)
    if weights.ndim not in (None, 0) and values.ndim is not None and weights.ndim != values.ndim:
        raise ValueError(f"weights can not be broadcast to values: weights {weights.name!r} has shape "
                         f"{weights.shape}, values {values.name!r} have shape {values.shape}; pass a scalar or "
                         "weights of the values' rank")
    return weights


def safe_div(numerator, denominator, name):
    """numerator / denominator, 0 where the denominator is not positive (TF1's div_no_nan of maximum(d, 0))."""
    positive = greater(denominator, 0.0)
    ratio = numerator / where(positive, denominator, ones_like(denominator))
    return where(positive, ratio, zeros_like(ratio), name=name)


def publish(value, update_op, metrics_collections, updates_collections):
    if metrics_collections:
        add_to_collections(metrics_collections, value)
    if updates_collections:
        add_to_collections(updates_collections, update_op)
    return value, update_op


def mean(values, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """The (weighted) mean of every value seen: total / count, 0 before any update."""
    with variable_scope(name, "mean", (values, weights)):
        values = cast(convert_to_tensor(values), dtypes.float32)
        total = metric_variable([], dtypes.float32, name="total")
        count = metric_variable([], dtypes.float32, name="count")
        if weights is None:
            num_values = cast(size(values), dtypes.float32)
        else:
            values, _, weights = align(values, None, weights)
            weights = float_weights(weights, values) * ones_like(values)
            values = values * weights
            num_values = reduce_sum(weights)
        update_total = total.assign_add(reduce_sum(values))
        with control_dependencies([values.op]):
            update_count = count.assign_add(num_values)
        value = safe_div(total, count, name="value")
        update_op = safe_div(update_total, update_count, name="update_op")
    return publish(value, update_op, metrics_collections, updates_collections)


def mean_tensor(values, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """The elementwise (weighted) mean of every `values` tensor seen (all of one static shape)."""
    with variable_scope(name, "mean", (values, weights)):
        values = cast(convert_to_tensor(values), dtypes.float32)
        total = metric_variable(values.shape, dtypes.float32, name="total_tensor")
        count = metric_variable(values.shape, dtypes.float32, name="count_tensor")
        num_values = ones_like(values)
        if weights is not None:
            values, _, weights = align(values, None, weights)
            weights = float_weights(weights, values) * ones_like(values)
            values, num_values = values * weights, num_values * weights
        update_total = total.assign_add(values)
        with control_dependencies([values.op]):
            update_count = count.assign_add(num_values)
        value = safe_div(total, count, name="value")
        update_op = safe_div(update_total, update_count, name="update_op")
    return publish(value, update_op, metrics_collections, updates_collections)


def mean_cosine_distance(labels, predictions, dim, weights=None, metrics_collections=None, updates_collections=None,
                         name=None):
    """1 - the running (weighted) mean of sum(labels * predictions) over `dim` (unit-normalized inputs assumed)."""
    predictions, labels, weights = align(convert_to_tensor(predictions), convert_to_tensor(labels), weights)
    check_compatible(predictions, labels, "mean_cosine_distance")
    radial = reduce_sum(predictions * labels, axis=[dim], keepdims=True)
    value, update_op = mean(radial, weights, None, None, name or "mean_cosine_distance")
    return publish(1.0 - value, 1.0 - update_op, metrics_collections, updates_collections)


def accuracy(labels, predictions, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """The fraction of predictions equal to labels (weighted): the mean of equal(predictions, labels)."""
    predictions, labels, weights = align(predictions, labels, weights)
    check_compatible(predictions, labels, "accuracy")
    if labels.dtype != predictions.dtype:
        predictions = cast(predictions, labels.dtype)
    is_correct = cast(equal(predictions, labels), dtypes.float32)
    return mean(is_correct, weights, metrics_collections, updates_collections, name or "accuracy")


def check_compatible(predictions, labels, metric):
    if not predictions.shape.is_compatible_with(labels.shape):
        raise ValueError(f"{metric}: predictions {predictions.name!r} of shape {predictions.shape} and labels "
                         f"{labels.name!r} of shape {labels.shape} are not compatible; give one value per example")


def _error_metric(default_name, error_fn, doc):
    def metric(labels, predictions, weights=None, metrics_collections=None, updates_collections=None, name=None):
        predictions, labels, weights = align(predictions, labels, weights)
        check_compatible(predictions, labels, default_name)
        return mean(error_fn(labels, predictions), weights, metrics_collections, updates_collections,
                    name or default_name)
    metric.__name__ = metric.__qualname__ = default_name
    metric.__doc__ = doc
    return metric


mean_squared_error = _error_metric("mean_squared_error", squared_difference,
                                   "The (weighted) mean of (labels - predictions) ** 2 over every example seen.")
mean_absolute_error = _error_metric("mean_absolute_error", lambda labels, predictions: abs(predictions - labels),
                                    "The (weighted) mean of |predictions - labels| over every example seen.")


def root_mean_squared_error(labels, predictions, weights=None, metrics_collections=None, updates_collections=None,
                            name=None):
    """sqrt of the streaming mean squared error."""
    predictions, labels, weights = align(predictions, labels, weights)
    check_compatible(predictions, labels, "root_mean_squared_error")
    mse, update_mse = mean(squared_difference(labels, predictions), weights, None, None,
                           name or "root_mean_squared_error")
    return publish(sqrt(mse), sqrt(update_mse), metrics_collections, updates_collections)


def mean_relative_error(labels, predictions, normalizer, weights=None, metrics_collections=None,
                        updates_collections=None, name=None):
    """The (weighted) mean of |labels - predictions| / normalizer, counting 0 where the normalizer is 0."""
    predictions, labels, weights = align(predictions, labels, weights)
    check_compatible(predictions, labels, "mean_relative_error")
    predictions, normalizer, _ = align(predictions, normalizer)
    zero = equal(normalizer, 0.0)
    safe = where(zero, ones_like(normalizer), normalizer)  # x / 0 would warn though where() discards it
    relative = where(zero, zeros_like(labels), abs(labels - predictions) / safe)
    return mean(relative, weights, metrics_collections, updates_collections, name or "mean_relative_error")


def percentage_below(values, threshold, weights=None, metrics_collections=None, updates_collections=None,
                     name=None):
    """The (weighted) fraction of values below `threshold`."""
    is_below = cast(less(convert_to_tensor(values), threshold), dtypes.float32)
    return mean(is_below, weights, metrics_collections, updates_collections, name or "percentage_below_threshold")


def _count_condition(condition, weights, metrics_collections, updates_collections):
    """A running (weighted) count of the true elements of the bool tensor `condition`."""
    count = metric_variable([], dtypes.float32, name="count")
    values = cast(condition, dtypes.float32)
    if weights is not None:
        values = values * float_weights(weights, values)
    value = identity(count)
    update_op = count.assign_add(reduce_sum(values))
    return publish(value, update_op, metrics_collections, updates_collections)


def _bool_pair(labels, predictions, weights):
    predictions, labels, weights = align(cast(convert_to_tensor(predictions), dtypes.bool),
                                          cast(convert_to_tensor(labels), dtypes.bool), weights)
    check_compatible(predictions, labels, "a confusion-matrix count")
    return labels, predictions, weights


def _confusion_count(default_name, label_true, prediction_true):
    def metric(labels, predictions, weights=None, metrics_collections=None, updates_collections=None, name=None):
        with variable_scope(name, default_name, (predictions, labels, weights)):
            labels, predictions, weights = _bool_pair(labels, predictions, weights)
            hits = logical_and(labels if label_true else logical_not(labels),
                               predictions if prediction_true else logical_not(predictions))
            return _count_condition(hits, weights, metrics_collections, updates_collections)
    kind = f"label {label_true}, prediction {prediction_true}"
    metric.__name__ = metric.__qualname__ = default_name
    metric.__doc__ = f"The (weighted) number of elements with {kind} (labels and predictions cast to bool)."
    return metric


true_positives = _confusion_count("true_positives", True, True)
false_positives = _confusion_count("false_positives", False, True)
false_negatives = _confusion_count("false_negatives", True, False)
true_negatives = _confusion_count("true_negatives", False, False)


def _ratio_metric(default_name, other_count, doc):
    def metric(labels, predictions, weights=None, metrics_collections=None, updates_collections=None, name=None):
        with variable_scope(name, default_name, (predictions, labels, weights)):
            labels, predictions, weights = _bool_pair(labels, predictions, weights)
            tp, update_tp = true_positives(labels, predictions, weights)
            other, update_other = other_count(labels, predictions, weights)
            value = safe_div(tp, tp + other, name="value")
            update_op = safe_div(update_tp, update_tp + update_other, name="update_op")
        return publish(value, update_op, metrics_collections, updates_collections)
    metric.__name__ = metric.__qualname__ = default_name
    metric.__doc__ = doc
    return metric


precision = _ratio_metric("precision", false_positives, "true_positives / (true_positives + false_positives), "
                          "0 while nothing was predicted positive.")
recall = _ratio_metric("recall", false_negatives, "true_positives / (true_positives + false_negatives), "
                       "0 while no label was positive.")


AUC_EPSILON = 1e-7  # TF1's kepsilon: the end thresholds sit just outside [0, 1], and empty ratios stay finite
AUC_SUMMATIONS = {"trapezoidal": lambda a, b: (a + b) / 2.0, "minoring": minimum, "majoring": maximum}


def auc(labels, predictions, weights=None, num_thresholds=200, metrics_collections=None, updates_collections=None,
        curve="ROC", name=None, summation_method="trapezoidal", thresholds=None):
    """The area under the ROC (or precision-recall, curve="PR") curve, summed over `num_thresholds` thresholds
    evenly spread over [0, 1] from running counts of true/false positives/negatives at each (TF1's auc)."""
    if curve not in ("ROC", "PR"):
        raise ValueError(f"curve must be either ROC or PR, {curve!r} unknown")
    if summation_method not in AUC_SUMMATIONS:
        raise ValueError(f"summation_method {summation_method!r} is not implemented in ringflow: use one of "
                         f"{sorted(AUC_SUMMATIONS)}")
    if thresholds is None:
        thresholds = [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    thresholds = [-AUC_EPSILON] + list(thresholds) + [1.0 + AUC_EPSILON]
    with variable_scope(name, "auc", (labels, predictions, weights)):
        found = counts_at_thresholds(labels, predictions, thresholds, weights)
        counts = {key: variable for key, (variable, _) in found.items()}
        updates = {key: update for key, (_, update) in found.items()}
        value = _area(counts, curve, summation_method, name="value")
        update_op = _area(updates, curve, summation_method, name="update_op")
    return publish(value, update_op, metrics_collections, updates_collections)


AUC_VARIABLES = {"tp": "true_positives", "fn": "false_negatives", "tn": "true_negatives", "fp": "false_positives"}


def counts_at_thresholds(labels, predictions, thresholds, weights, keys=("tp", "fn", "tn", "fp")):
    """{key: (running count [len(thresholds)], its update op)}: the (weighted) true/false positives/negatives
    when a prediction above each threshold counts as positive (TF1's _confusion_matrix_at_thresholds)."""
    predictions, labels, weights = align(cast(convert_to_tensor(predictions), dtypes.float32),
                                         cast(convert_to_tensor(labels), dtypes.bool), weights)
    above = greater(reshape(predictions, [1, -1]), constant(list(thresholds), dtypes.float32,
                                                              shape=[len(thresholds), 1]))
    positive = reshape(labels, [1, -1])
    weight = 1.0 if weights is None else reshape(cast(weights, dtypes.float32) * ones_like(predictions), [1, -1])
    hits = {"tp": logical_and(positive, above), "fn": logical_and(positive, logical_not(above)),
            "tn": logical_and(logical_not(positive), logical_not(above)),
            "fp": logical_and(logical_not(positive), above)}
    found = {}
    for key in keys:
        count = metric_variable([len(thresholds)], dtypes.float32, name=AUC_VARIABLES[key])
        found[key] = (count, count.assign_add(reduce_sum(cast(hits[key], dtypes.float32) * weight, axis=1)))
    return found


def _area(c, curve, summation_method, name):
    recall = (c["tp"] + AUC_EPSILON) / (c["tp"] + c["fn"] + AUC_EPSILON)
    if curve == "ROC":
        x, y = c["fp"] / (c["fp"] + c["tn"] + AUC_EPSILON), recall
    else:
        x, y = recall, (c["tp"] + AUC_EPSILON) / (c["tp"] + c["fp"] + AUC_EPSILON)
    heights = AUC_SUMMATIONS[summation_method](y[:-1], y[1:])
    return reduce_sum((x[:-1] - x[1:]) * heights, name=name)
