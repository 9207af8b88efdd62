"""tf.contrib.learn.MetricSpec: which prediction, label and weight a metric function of contrib's Estimator.evaluate
is given.

The metric function's parameters say how, as in TF1: one named like labels (labels, label, targets, target) and
one like predictions (predictions, prediction, logits, logit) are passed by name; a labels parameter that comes
first with no predictions parameter takes (labels, predictions) by position; otherwise predictions come first by
position (contrib's streaming metrics are metric(predictions, labels)) and labels by name if it has such a
parameter. weights (weights, weight) are passed by name.
"""
from .....estimator.input_fn import fn_args

LABELS = ("labels", "label", "targets", "target")
PREDICTIONS = ("predictions", "prediction", "logits", "logit")
WEIGHTS = ("weights", "weight")


def _one_of(metric_fn, args, names, required):
    found = [name for name in names if name in args]
    if len(found) > 1:
        raise ValueError(f"Ambiguous arguments {found} of {metric_fn!r}: give it only one of {names}")
    if not found and required:
        raise ValueError(f"{metric_fn!r} takes none of {names} (its arguments: {list(args)}): a MetricSpec with that "
                         "key needs one")
    return found[0] if found else None


def _caller(metric_fn, labels_required, weights_required):
    """A function of (labels, predictions, weights) that calls metric_fn by its parameters' names."""
    args = fn_args(metric_fn)
    label = _one_of(metric_fn, args, LABELS, labels_required)
    prediction = _one_of(metric_fn, args, PREDICTIONS, False)
    weight = _one_of(metric_fn, args, WEIGHTS, weights_required)

    def call(labels, predictions, weights=None):
        named = {weight: weights} if weights is not None else {}
        if label and prediction:
            return metric_fn(**{label: labels, prediction: predictions}, **named)
        if label and label == args[0]:
            return metric_fn(labels, predictions, **named)
        if label:
            return metric_fn(predictions, **{label: labels}, **named)
        if prediction:
            return metric_fn(**{prediction: predictions}, **named)
        return metric_fn(predictions, **named)
    return call


def _pick(what, values, key):
    if key:
        if not isinstance(values, dict):
            raise ValueError(f"MetricSpec with {what}_key={key!r} requires {what}s to be a dict, got {values!r}")
        if key not in values:
            raise KeyError(f"Key {key!r} missing from the {what}s {sorted(values)}")
        return values[key]
    if isinstance(values, dict):
        if len(values) != 1:
            raise ValueError(f"MetricSpec without {what}_key requires a {what}s Tensor or a one-entry dict, got "
                             f"the keys {sorted(values)}: give {what}_key")
        return next(iter(values.values()))
    return values


class MetricSpec:
    """metric_fn applied to predictions[prediction_key], labels[label_key] and features[weight_key]."""

    def __init__(self, metric_fn, prediction_key=None, label_key=None, weight_key=None):
        self._name = getattr(metric_fn, "__name__", repr(metric_fn))
        self._metric_fn = _caller(metric_fn, label_key is not None, weight_key is not None)
        self.prediction_key, self.label_key, self.weight_key = prediction_key, label_key, weight_key

    metric_fn = property(lambda self: self._metric_fn, doc="metric_fn as a function of labels, predictions, weights")

    def __str__(self):
        return (f"MetricSpec(metric_fn={self._name}, prediction_key={self.prediction_key}, "
                f"label_key={self.label_key}, weight_key={self.weight_key})")

    def create_metric_ops(self, inputs, labels, predictions):
        """The metric's (value, update_op) (or value) on the chosen prediction, label and weight."""
        weights = inputs[self.weight_key] if self.weight_key else None
        return self._metric_fn(labels=_pick("label", labels, self.label_key),
                               predictions=_pick("prediction", predictions, self.prediction_key), weights=weights)
