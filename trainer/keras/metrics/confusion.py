"""Keras' metrics on confusion counts: true/false positives/negatives at thresholds (a prediction is positive
when above the threshold), precision and recall, sensitivity at a specificity and back, the area under the ROC or
PR curve over num_thresholds thresholds, and the mean intersection-over-union of classes, with TF 1.15's formulas."""
import numpy as np

from ...ops.core_ops import group
from ...ops.cwise_ops import logical_and
from ...ops.division_ops import div_no_nan
from ...ops.gather_ops import top_k as tf_top_k
from ...ops.math_ops import where
from .. import backend as K
from .base import Metric, squeeze_or_expand

CONDITIONS = ("true_positives", "false_positives", "true_negatives", "false_negatives")
NEG_INF = -1e10  # TF 1.15's stand-in for minus infinity: the threshold and the value of predictions top_k drops


def thresholds_or(thresholds, default):
    """A list of thresholds from None (the default), a float or a list."""
    if thresholds is None:
        return [default]
    return [float(t) for t in thresholds] if isinstance(thresholds, (list, tuple)) else [float(thresholds)]


def curve_thresholds(num_thresholds, margin):
    """num_thresholds thresholds spread evenly over [0, 1], the ends `margin` outside it (TF 1.15's AUC puts them
    just outside, so predictions of exactly 0 and 1 count; its sensitivity/specificity metrics at 0 and 1)."""
    inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    return [0.0 - margin] + inner + [1.0 + margin]


def keep_top_k(y_pred, k):
    """The predictions with everything outside each row's top k at a very negative value."""
    _, indices = tf_top_k(y_pred, k, sorted=False)
    kept = K.sum(K.one_hot(indices, K.int_shape(y_pred)[-1]), axis=-2)
    return y_pred * kept + NEG_INF * (1.0 - kept)


class ConfusionCounts(Metric):
    """Counts, per threshold, of the `conditions` (CONDITIONS' names) over every label/prediction entry, weighted
    by the sample weights: variables named after the conditions."""

    def __init__(self, thresholds, conditions, name=None, dtype=None, top_k=None, class_id=None):
        super().__init__(name=name, dtype=dtype)
        self.thresholds, self.conditions = list(thresholds), tuple(conditions)
        self.top_k, self.class_id = top_k, class_id
        for condition in self.conditions:
            setattr(self, condition, self.add_weight(condition, (len(self.thresholds),)))

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = K.cast(y_true, "float32"), K.cast(y_pred, "float32")
        y_true, y_pred, sample_weight = squeeze_or_expand(y_true, y_pred, sample_weight)
        if self.top_k is not None:
            y_pred = keep_top_k(y_pred, self.top_k)
        if self.class_id is not None:
            y_true, y_pred = y_true[..., self.class_id], y_pred[..., self.class_id]
            if sample_weight is not None and K.ndim(sample_weight) == K.ndim(y_true) + 1:
                sample_weight = sample_weight[..., 0]
        n = len(self.thresholds)
        pred = K.tile(K.reshape(y_pred, (1, -1)), (n, 1))
        thresholds = K.constant(np.array(self.thresholds, np.float32).reshape(n, 1))
        pred_pos = K.cast(K.greater(pred, thresholds), "float32")
        true_pos = K.tile(K.reshape(K.cast(K.greater(y_true, 0.0), "float32"), (1, -1)), (n, 1))
        weights = K.ones_like(y_pred) if sample_weight is None else \
            K.cast(sample_weight, "float32") * K.ones_like(y_pred)
        weights = K.tile(K.reshape(weights, (1, -1)), (n, 1))
        masks = {"true_positives": true_pos * pred_pos, "false_positives": (1.0 - true_pos) * pred_pos,
                 "true_negatives": (1.0 - true_pos) * (1.0 - pred_pos), "false_negatives": true_pos * (1.0 - pred_pos)}
        return group(*(getattr(self, c).assign_add(K.cast(K.sum(masks[c] * weights, axis=1), self.dtype))
                       for c in self.conditions))

    def one_or_all(self, values):
        return values[0] if len(self.thresholds) == 1 else values


class CountOf(ConfusionCounts):
    condition = None

    def __init__(self, thresholds=None, name=None, dtype=None):
        self.init_thresholds = thresholds
        super().__init__(thresholds_or(thresholds, 0.5), [self.condition], name=name, dtype=dtype)

    def result(self):
        return self.one_or_all(K.identity(getattr(self, self.condition)))

    def get_config(self):
        return dict(super().get_config(), thresholds=self.init_thresholds)


class TruePositives(CountOf):
    """The weighted count of positive labels predicted positive (above the threshold(s), default 0.5)."""

    condition = "true_positives"


class FalsePositives(CountOf):
    """The weighted count of negative labels predicted positive."""

    condition = "false_positives"


class TrueNegatives(CountOf):
    """The weighted count of negative labels predicted negative."""

    condition = "true_negatives"


class FalseNegatives(CountOf):
    """The weighted count of positive labels predicted negative."""

    condition = "false_negatives"


class PrecisionRecall(ConfusionCounts):
    other = None

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        self.init_thresholds = thresholds
        default = NEG_INF if top_k is not None else 0.5  # with top_k, every kept prediction counts as positive
        super().__init__(thresholds_or(thresholds, default), ["true_positives", self.other], name=name,
                         dtype=dtype, top_k=top_k, class_id=class_id)

    def result(self):
        return self.one_or_all(div_no_nan(self.true_positives, self.true_positives + getattr(self, self.other)))

    def get_config(self):
        return dict(super().get_config(), thresholds=self.init_thresholds, top_k=self.top_k, class_id=self.class_id)


class Precision(PrecisionRecall):
    """true positives / predicted positives."""

    other = "false_positives"


class Recall(PrecisionRecall):
    """true positives / actual positives."""

    other = "false_negatives"


class SensitivitySpecificityBase(ConfusionCounts):
    def __init__(self, value, num_thresholds=200, name=None, dtype=None):
        if num_thresholds <= 0:
            raise ValueError(f"`num_thresholds` must be > 0; got {num_thresholds!r}")
        self.value, self.num_thresholds = value, num_thresholds
        super().__init__(curve_thresholds(num_thresholds, 0.0) if num_thresholds > 1 else [0.5], CONDITIONS,
                         name=name, dtype=dtype)

    def at_closest(self, rate, target, numerator, other):
        """numerator / (numerator + other) at the threshold whose `rate` is closest to `target`."""
        index = K.argmin(K.abs(rate - target), axis=0)
        picked = K.gather(numerator, index)
        return div_no_nan(picked, picked + K.gather(other, index))


class SensitivityAtSpecificity(SensitivitySpecificityBase):
    """The recall at the threshold whose specificity is closest to `specificity`."""

    def __init__(self, specificity, num_thresholds=200, name=None, dtype=None):
        if not 0 <= specificity <= 1:
            raise ValueError(f"`specificity` must be in the range [0, 1]; got {specificity!r}")
        super().__init__(specificity, num_thresholds, name=name, dtype=dtype)

    def result(self):
        specificities = div_no_nan(self.true_negatives, self.true_negatives + self.false_positives)
        return self.at_closest(specificities, self.value, self.true_positives, self.false_negatives)

    def get_config(self):
        return dict(super().get_config(), num_thresholds=self.num_thresholds, specificity=self.value)


class SpecificityAtSensitivity(SensitivitySpecificityBase):
    """The specificity at the threshold whose recall is closest to `sensitivity`."""

    def __init__(self, sensitivity, num_thresholds=200, name=None, dtype=None):
        if not 0 <= sensitivity <= 1:
            raise ValueError(f"`sensitivity` must be in the range [0, 1]; got {sensitivity!r}")
        super().__init__(sensitivity, num_thresholds, name=name, dtype=dtype)

    def result(self):
        sensitivities = div_no_nan(self.true_positives, self.true_positives + self.false_negatives)
        return self.at_closest(sensitivities, self.value, self.true_negatives, self.false_positives)

    def get_config(self):
        return dict(super().get_config(), num_thresholds=self.num_thresholds, sensitivity=self.value)


class AUC(ConfusionCounts):
    """The area under the ROC or PR curve, a Riemann sum over num_thresholds thresholds ('interpolation': trapezoids,
    and for PR the interpolation of Davis & Goadrich; 'minoring' or 'majoring': the lower or upper heights)."""

    def __init__(self, num_thresholds=200, curve="ROC", summation_method="interpolation", name=None, dtype=None,
                 thresholds=None):
        if curve.upper() not in ("ROC", "PR"):
            raise ValueError(f'Invalid AUC curve value "{curve}"; expected "ROC" or "PR"')
        if summation_method.lower() not in ("interpolation", "minoring", "majoring"):
            raise ValueError(f'Invalid AUC summation method value "{summation_method}"; expected "interpolation", '
                             '"minoring" or "majoring"')
        if thresholds is not None:
            num_thresholds = len(thresholds) + 2
            limits = [0.0 - K.epsilon()] + sorted(float(t) for t in thresholds) + [1.0 + K.epsilon()]
        else:
            if num_thresholds <= 1:
                raise ValueError(f"`num_thresholds` must be > 1; got {num_thresholds!r}")
            limits = curve_thresholds(num_thresholds, K.epsilon())
        self.num_thresholds, self.curve, self.summation_method = num_thresholds, curve.upper(), summation_method.lower()
        super().__init__(limits, CONDITIONS, name=name, dtype=dtype)

    def interpolate_pr_auc(self):
        tp, fp, fn = self.true_positives, self.false_positives, self.false_negatives
        dtp = tp[:-1] - tp[1:]
        p = tp + fp
        dp = p[:-1] - p[1:]
        slope = div_no_nan(dtp, K.maximum(dp, 0.0))
        intercept = tp[1:] - slope * p[1:]
        both = logical_and(K.greater(p[:-1], 0.0), K.greater(p[1:], 0.0))
        ratio = where(both, div_no_nan(p[:-1], K.maximum(p[1:], 0.0)), K.ones_like(p[1:]))
        return K.sum(div_no_nan(slope * (dtp + intercept * K.log(ratio)), K.maximum(tp[1:] + fn[1:], 0.0)))

    def result(self):
        if self.curve == "PR" and self.summation_method == "interpolation":
            return self.interpolate_pr_auc()
        recall = div_no_nan(self.true_positives, self.true_positives + self.false_negatives)
        if self.curve == "ROC":
            x, y = div_no_nan(self.false_positives, self.false_positives + self.true_negatives), recall
        else:
            x, y = recall, div_no_nan(self.true_positives, self.true_positives + self.false_positives)
        if self.summation_method == "interpolation":
            heights = (y[:-1] + y[1:]) / 2.0
        else:
            heights = (K.minimum if self.summation_method == "minoring" else K.maximum)(y[:-1], y[1:])
        return K.sum((x[:-1] - x[1:]) * heights)

    def get_config(self):
        return dict(super().get_config(), num_thresholds=self.num_thresholds, curve=self.curve,
                    summation_method=self.summation_method, thresholds=self.thresholds[1:-1])


class MeanIoU(Metric):
    """The mean over classes of true positives / (true positives + false positives + false negatives), from a
    running (num_classes, num_classes) confusion matrix (rows: labels, columns: predictions); classes that never
    occur are left out."""

    def __init__(self, num_classes, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.num_classes = int(num_classes)
        self.total_cm = self.add_weight("total_confusion_matrix", (num_classes, num_classes), dtype="float64")

    def update_state(self, y_true, y_pred, sample_weight=None):
        labels = K.one_hot(K.cast(K.reshape(y_true, (-1,)), "int32"), self.num_classes)
        preds = K.one_hot(K.cast(K.reshape(y_pred, (-1,)), "int32"), self.num_classes)
        if sample_weight is not None:
            preds = preds * K.expand_dims(K.cast(K.reshape(sample_weight, (-1,)), K.dtype(preds)), -1)
        counts = K.dot(K.transpose(labels), preds)
        return self.total_cm.assign_add(K.cast(counts, "float64"))

    def result(self):
        cm = K.cast(self.total_cm, self.dtype)
        diagonal = K.sum(cm * K.constant(np.eye(self.num_classes), dtype=self.dtype), axis=1)
        denominator = K.sum(cm, axis=0) + K.sum(cm, axis=1) - diagonal
        present = K.sum(K.cast(K.not_equal(denominator, 0.0), self.dtype))
        return div_no_nan(K.sum(div_no_nan(diagonal, denominator)), present)

    def get_config(self):
        return dict(super().get_config(), num_classes=self.num_classes)
