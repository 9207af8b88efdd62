"""TF1's heads (tf.contrib.estimator's binary_classification_head, multi_class_head, regression_head): from a
model's logits, the loss, the predictions, the evaluation metrics and the train op of an EstimatorSpec.

A head's loss is TF1's: the unreduced loss per example ([batch, 1], or [batch, label_dimension] for regression)
times the example's weight (weight_column), reduced by `loss_reduction`, which defaults to Reduction.SUM as in
TF 1.15's v1 heads and canned estimators, so the training loss grows with the batch. evaluate() reports it as
"loss" (the mean over batches of each batch's reduced loss) and the weighted mean per example as "average_loss".
"""
import collections

import numpy as np

from ...framework import dtypes
from ...framework.graph_keys import GraphKeys
from ...framework.graph_wrappers import control_dependencies, get_collection, name_scope
from ...losses.losses_impl import Reduction, compute_weighted_loss
from ...metrics import accuracy, auc, mean, precision, recall
from ...ops.array_ops import argmax, cast, concat, reshape, shape
from ...ops.check_ops import Assert, assert_greater_equal, assert_less
from ...ops.core_ops import constant, convert_to_tensor, group, identity
from ...ops.cwise_ops import squared_difference
from ...ops.fill_ops import range as tg_range
from ...ops.gather_ops import gather
from ...ops.math_ops import add_n, equal, maximum, ones_like, zeros_like
from ...ops.nn_ops import sigmoid, sigmoid_cross_entropy_with_logits, softmax, sparse_softmax_cross_entropy_with_logits
from ...ops.pad_ops import tile
from ...ops.reduction_ops import reduce_all, reduce_any, reduce_sum
from ...ops.shape_ops import expand_dims
from ...summary.ops import scalar
from ...train.training_util import get_global_step
from ...feature_column.columns import NumericColumn, feature
from ...saved_model.signature_constants import DEFAULT_SERVING_SIGNATURE_DEF_KEY
from ..export.export_output import ClassificationOutput, PredictOutput, RegressionOutput
from ..mode_keys import ModeKeys
from ..model_fn import EstimatorSpec


LossSpec = collections.namedtuple("LossSpec", ["training_loss", "unreduced_loss", "weights", "processed_labels"])


def _summary_key(head_name, key):
    return f"{key}/{head_name}" if head_name else key


def _weights(features, weight_column):
    """The examples' weights as float32 [batch, 1] (1.0 without a weight column)."""
    if weight_column is None:
        return 1.0
    key = weight_column.key if isinstance(weight_column, NumericColumn) else weight_column
    if not isinstance(key, str):
        raise TypeError(f"Weight column must be either a string or NumericColumn. Given type: {type(weight_column)}")
    if key not in features:
        raise KeyError(f"weight_column {key!r} is not in the features dictionary (it has {sorted(features)!r})")
    return cast(feature(features, key), dtypes.float32)


class Head:
    """One head: create_loss and create_estimator_spec over [batch, logits_dimension] logits (TF1's _Head)."""

    def __init__(self, logits_dimension, weight_column=None, loss_reduction=Reduction.SUM, name=None):
        if loss_reduction not in Reduction.all() or loss_reduction == Reduction.NONE:
            raise ValueError(f"Invalid loss_reduction: {loss_reduction!r}; use one of tg.losses.Reduction's "
                             "SUM, MEAN, SUM_OVER_BATCH_SIZE, SUM_BY_NONZERO_WEIGHTS")
        self._logits_dimension, self._weight_column = logits_dimension, weight_column
        self._loss_reduction, self._name = loss_reduction, name

    name = property(lambda self: self._name)
    logits_dimension = property(lambda self: self._logits_dimension)

    # --- what each head defines -------------------------------------------------------------------------------
    def _labels(self, labels):
        """labels as the [batch, d] Tensor the loss reads."""
        raise NotImplementedError

    def _unreduced_loss(self, labels, logits):
        raise NotImplementedError

    def _predictions(self, logits):
        raise NotImplementedError

    def _metrics(self, predictions, labels, weights, unreduced_loss):
        raise NotImplementedError

    def _export_output(self, predictions):
        """The ExportOutput of "serving_default" and of the signature named _export_key."""
        raise NotImplementedError

    # --- shared -----------------------------------------------------------------------------------------------
    def _logits(self, logits):
        logits = convert_to_tensor(logits)
        if logits.shape.ndims is not None and logits.shape[-1] not in (None, self._logits_dimension):
            raise ValueError(f"logits shape must be [D0, D1, ... DN, logits_dimension], got {logits.shape}; "
                             f"logits_dimension is {self._logits_dimension}")
        return reshape(cast(logits, dtypes.float32), [-1, self._logits_dimension])

    def create_loss(self, features, mode, logits, labels):
        """LossSpec(training_loss, unreduced_loss, weights, processed_labels) of these logits and labels."""
        if labels is None:
            raise ValueError(f"You must provide a labels Tensor. Given: None. Suggested troubleshooting steps: check "
                             f"that your data contain your label feature, and that input_fn returns labels in mode "
                             f"{mode!r}.")
        logits = self._logits(logits)
        processed = self._labels(labels)
        unreduced = self._unreduced_loss(processed, logits)
        weights = _weights(features, self._weight_column)
        training_loss = compute_weighted_loss(unreduced, weights, reduction=self._loss_reduction)
        return LossSpec(training_loss, unreduced, weights, processed)

    def create_estimator_spec(self, features, mode, logits, labels=None, optimizer=None, train_op_fn=None,
                              regularization_losses=None):
        """The EstimatorSpec of `mode`: predictions always; loss and metrics in EVAL; the train op in TRAIN, from
        optimizer.minimize or train_op_fn(loss), grouped with the UPDATE_OPS (batch norm's moving averages)."""
        with name_scope(self._name or "head"):
            logits = self._logits(logits)
            predictions = self._predictions(logits)
            if mode == ModeKeys.PREDICT:
                return EstimatorSpec(mode, predictions=predictions, export_outputs={
                    DEFAULT_SERVING_SIGNATURE_DEF_KEY: self._export_output(predictions),
                    self._export_key: self._export_output(predictions), "predict": PredictOutput(predictions)})
            loss = self.create_loss(features, mode, logits, labels)
            regularization_loss = add_n(list(regularization_losses)) if regularization_losses else None
            total = loss.training_loss if regularization_loss is None else loss.training_loss + regularization_loss
            if mode == ModeKeys.EVAL:
                with name_scope("metrics"):
                    metrics = self._metrics(predictions, loss.processed_labels, loss.weights, loss.unreduced_loss)
                    if regularization_loss is not None:
                        metrics["regularization_loss"] = mean(regularization_loss)
                return EstimatorSpec(mode, predictions=predictions, loss=total, eval_metric_ops={
                    _summary_key(self._name, key): value for key, value in metrics.items()})
            if optimizer is not None:
                if train_op_fn is not None:
                    raise ValueError("train_op_fn and optimizer cannot both be set.")
                train_op = optimizer.minimize(total, global_step=get_global_step())
            elif train_op_fn is not None:
                train_op = train_op_fn(total)
            else:
                raise ValueError("train_op_fn and optimizer cannot both be None.")
            update_ops = get_collection(GraphKeys.UPDATE_OPS)
            if update_ops:
                train_op = group(train_op, *update_ops)
        with name_scope(""):
            scalar(_summary_key(self._name, "loss"), total)
            if self._loss_reduction == Reduction.SUM:  # TF1 logs the per-example mean beside the summed loss
                examples = reduce_sum(loss.weights * ones_like(loss.unreduced_loss))
                scalar(_summary_key(self._name, "average_loss"), loss.training_loss / examples)
            if regularization_loss is not None:
                scalar(_summary_key(self._name, "regularization_loss"), regularization_loss)
        return EstimatorSpec(mode, predictions=predictions, loss=total, train_op=train_op)


def _label_ids(labels, n_classes, label_vocabulary):
    """Class labels as int64 ids [batch, 1]: looked up in label_vocabulary (strings), else checked integers."""
    labels = reshape(convert_to_tensor(labels), [-1, 1])
    if label_vocabulary is not None:
        if labels.dtype != dtypes.string:
            raise ValueError(f"Labels dtype should be string if there is a vocabulary. Given: {labels.dtype}")
        matches = equal(labels, constant([v.encode() if isinstance(v, str) else v for v in label_vocabulary],
                                         dtypes.string))
        check = Assert(reduce_all(reduce_any(matches, axis=1)),
                       [f"Labels must be in label_vocabulary {list(label_vocabulary)!r}, got", labels])
        with control_dependencies([check]):
            return expand_dims(argmax(cast(matches, dtypes.int32), axis=1), -1)
    if labels.dtype == dtypes.string:
        raise ValueError("Labels are strings: give label_vocabulary (the list of class names) to read them")
    if labels.dtype.kind not in "iu":
        raise ValueError(f"Labels dtype should be integer. Instead got {labels.dtype}.")
    labels = cast(labels, dtypes.int64)
    with control_dependencies([assert_less(labels, constant(n_classes, dtypes.int64),
                                           message=f"Labels must <= n_classes - 1 ({n_classes - 1})"),
                               assert_greater_equal(labels, constant(0, dtypes.int64), message="Labels must >= 0")]):
        return identity(labels)


def _check_vocabulary(label_vocabulary, n_classes):
    if label_vocabulary is None:
        return None
    if not isinstance(label_vocabulary, (list, tuple)):
        raise ValueError(f"label_vocabulary should be a list or a tuple. Given type: {type(label_vocabulary)}")
    if len(label_vocabulary) != n_classes:
        raise ValueError(f"label_vocabulary has {len(label_vocabulary)} classes, n_classes is {n_classes}: give one "
                         "name per class")
    return tuple(label_vocabulary)


class ClassificationHead(Head):
    """Single-label classes 0 .. n_classes-1 (or the names in label_vocabulary)."""

    def __init__(self, n_classes, logits_dimension, weight_column, label_vocabulary, loss_reduction, name):
        super().__init__(logits_dimension, weight_column, loss_reduction, name)
        self._n_classes = n_classes
        self._label_vocabulary = _check_vocabulary(label_vocabulary, n_classes)
        names = self._label_vocabulary or [str(i) for i in range(n_classes)]
        self._class_names = np.array([n.encode() if isinstance(n, str) else n for n in names], dtype=object)

    _export_key = "classification"

    def _export_output(self, predictions):
        return ClassificationOutput(scores=predictions["probabilities"], classes=predictions["all_classes"])

    def _class_predictions(self, logits, probabilities, class_logits):
        class_ids = expand_dims(argmax(class_logits, axis=1), -1)
        batch = shape(logits)[0:1]
        all_ids = tile(expand_dims(tg_range(self._n_classes), 0), concat([batch, [1]], 0))
        names = constant(self._class_names, dtypes.string)
        return {"logits": logits, "probabilities": probabilities, "class_ids": class_ids,
                "classes": gather(names, class_ids), "all_class_ids": all_ids, "all_classes": gather(names, all_ids)}


class BinaryClassHead(ClassificationHead):
    """Two classes, one logit: sigmoid cross entropy (TF1's _BinaryLogisticHeadWithSigmoidCrossEntropyLoss)."""

    def __init__(self, weight_column=None, thresholds=None, label_vocabulary=None, loss_reduction=Reduction.SUM,
                 name=None):
        super().__init__(2, 1, weight_column, label_vocabulary, loss_reduction, name)
        if thresholds:
            raise NotImplementedError("binary_classification_head(thresholds=...) is not implemented in ringflow: "
                                      "compute accuracy/precision/recall at other thresholds from predict()'s "
                                      "'logistic'")

    def _labels(self, labels):
        if self._label_vocabulary is not None:
            return cast(_label_ids(labels, 2, self._label_vocabulary), dtypes.float32)
        labels = reshape(convert_to_tensor(labels), [-1, 1])
        if labels.dtype == dtypes.string:
            raise ValueError("Labels are strings: give label_vocabulary (the list of class names) to read them")
        labels = cast(labels, dtypes.float32)
        with control_dependencies([assert_less(labels, constant(2.0), message="Labels must <= n_classes - 1 (1)"),
                                   assert_greater_equal(labels, constant(0.0), message="Labels must >= 0")]):
            return identity(labels)

    def _unreduced_loss(self, labels, logits):
        return sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)

    def _predictions(self, logits):
        two_class_logits = concat([zeros_like(logits), logits], 1)
        predictions = self._class_predictions(logits, softmax(two_class_logits), two_class_logits)
        predictions["logistic"] = sigmoid(logits)
        return predictions

    def _metrics(self, predictions, labels, weights, unreduced_loss):
        weights = None if isinstance(weights, float) else weights
        label_mean = mean(labels, weights, name="label/mean")
        return {
            "average_loss": mean(unreduced_loss, weights, name="average_loss"),
            "accuracy": accuracy(labels, predictions["class_ids"], weights, name="accuracy"),
            "precision": precision(labels, predictions["class_ids"], weights, name="precision"),
            "recall": recall(labels, predictions["class_ids"], weights, name="recall"),
            "prediction/mean": mean(predictions["logistic"], weights, name="prediction/mean"),
            "label/mean": label_mean,
            # the accuracy of always predicting the more frequent class
            "accuracy_baseline": tuple(maximum(m, 1.0 - m) for m in label_mean),
            "auc": auc(labels, predictions["logistic"], weights, curve="ROC", name="auc"),
            "auc_precision_recall": auc(labels, predictions["logistic"], weights, curve="PR",
                                        name="auc_precision_recall"),
        }


class MultiClassHead(ClassificationHead):
    """n_classes > 2 classes, one logit each: softmax cross entropy
    (TF1's _MultiClassHeadWithSoftmaxCrossEntropyLoss)."""

    def __init__(self, n_classes, weight_column=None, label_vocabulary=None, loss_reduction=Reduction.SUM, name=None):
        if n_classes is None or n_classes <= 2:
            raise ValueError(f"n_classes must be > 2: {n_classes!r}")
        super().__init__(n_classes, n_classes, weight_column, label_vocabulary, loss_reduction, name)

    def _labels(self, labels):
        return _label_ids(labels, self._n_classes, self._label_vocabulary)

    def _unreduced_loss(self, labels, logits):
        return expand_dims(sparse_softmax_cross_entropy_with_logits(labels=reshape(labels, [-1]), logits=logits), -1)

    def _predictions(self, logits):
        return self._class_predictions(logits, softmax(logits), logits)

    def _metrics(self, predictions, labels, weights, unreduced_loss):
        weights = None if isinstance(weights, float) else weights
        return {"average_loss": mean(unreduced_loss, weights, name="average_loss"),
                "accuracy": accuracy(labels, predictions["class_ids"], weights, name="accuracy")}


class RegressionHead(Head):
    """label_dimension real values per example: squared error (TF1's _RegressionHeadWithMeanSquaredErrorLoss)."""

    def __init__(self, weight_column=None, label_dimension=1, loss_reduction=Reduction.SUM, name=None):
        if label_dimension < 1:
            raise ValueError(f"Invalid label_dimension {label_dimension!r}: it must be >= 1")
        super().__init__(label_dimension, weight_column, loss_reduction, name)

    def _labels(self, labels):
        labels = convert_to_tensor(labels)
        if labels.dtype == dtypes.string or labels.dtype.kind not in "iuf":
            raise ValueError(f"Labels dtype should be numeric, got {labels.dtype} (regression head)")
        return reshape(cast(labels, dtypes.float32), [-1, self._logits_dimension])

    def _unreduced_loss(self, labels, logits):
        return squared_difference(logits, labels)

    def _predictions(self, logits):
        return {"predictions": logits}

    _export_key = "regression"

    def _export_output(self, predictions):
        return RegressionOutput(predictions["predictions"])

    def _metrics(self, predictions, labels, weights, unreduced_loss):
        weights = None if isinstance(weights, float) else weights
        return {"average_loss": mean(unreduced_loss, weights, name="average_loss"),
                "prediction/mean": mean(predictions["predictions"], weights, name="prediction/mean"),
                "label/mean": mean(labels, weights, name="label/mean")}


def binary_classification_head(weight_column=None, thresholds=None, label_vocabulary=None,
                               loss_reduction=Reduction.SUM, loss_fn=None, name=None):
    """A head for two classes with one logit and sigmoid cross entropy (tf.contrib.estimator's)."""
    _no_loss_fn(loss_fn)
    return BinaryClassHead(weight_column, thresholds, label_vocabulary, loss_reduction, name)


def multi_class_head(n_classes, weight_column=None, label_vocabulary=None, loss_reduction=Reduction.SUM,
                     loss_fn=None, name=None):
    """A head for n_classes > 2 single-label classes and softmax cross entropy (tf.contrib.estimator's)."""
    _no_loss_fn(loss_fn)
    return MultiClassHead(n_classes, weight_column, label_vocabulary, loss_reduction, name)


def regression_head(weight_column=None, label_dimension=1, loss_reduction=Reduction.SUM, loss_fn=None,
                    inverse_link_fn=None, name=None):
    """A head for label_dimension real values and squared error (tf.contrib.estimator's)."""
    _no_loss_fn(loss_fn)
    if inverse_link_fn is not None:
        raise NotImplementedError("regression_head(inverse_link_fn=...) is not implemented in ringflow: apply the "
                                  "link to predict()'s 'predictions'")
    return RegressionHead(weight_column, label_dimension, loss_reduction, name)


def _no_loss_fn(loss_fn):
    if loss_fn is not None:
        raise NotImplementedError("heads with a custom loss_fn are not implemented in ringflow: write a model_fn "
                                  "for tg.estimator.Estimator with your loss")


def classification_head(n_classes, weight_column, label_vocabulary, loss_reduction):
    """The head a canned classifier uses: binary for n_classes == 2, multi-class above (TF1's rule)."""
    if n_classes is None or n_classes < 2:
        raise ValueError(f"n_classes must be > 1: {n_classes!r}")
    if n_classes == 2:
        return BinaryClassHead(weight_column, None, label_vocabulary, loss_reduction)
    return MultiClassHead(n_classes, weight_column, label_vocabulary, loss_reduction)
