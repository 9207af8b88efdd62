"""What contrib.learn's canned classifiers and regressors share: contrib's Estimator over a model's logits and a
head of tf.estimator's canned ones (loss reduced to the batch mean, as contrib's heads reduce it), and contrib's
prediction keys and metric names.

A bare Tensor of features is the feature '' (what real_valued_column('') reads). Predictions are 'classes' (the
class index, int64 [batch]; the label_keys name with label_keys), 'probabilities', 'logits' and for two classes
'logistic', or the regressor's 'scores'; predict gives the classes (the scores) unless `outputs` asks for others.
Evaluation reports 'loss' and 'accuracy', and for two classes also contrib's 'auc', 'auc_precision_recall',
'labels/prediction_mean', 'labels/actual_label_mean', 'accuracy/baseline_label_mean' and the 0.5-threshold
accuracy, precision and recall; a regressor reports 'loss'.
"""
from ......estimator.canned.head import RegressionHead, classification_head
from ......losses.losses_impl import Reduction
from ......ops.array_ops import reshape
from ......ops.scopes import variable_scope
from ..metric_spec import MetricSpec
from .estimator import Estimator
from .model_fn import ModeKeys, ModelFnOps

MEAN = Reduction.SUM_OVER_BATCH_SIZE  # contrib's heads: the (weighted) loss averaged over the batch
THRESHOLD = "0.500000"  # contrib names its threshold metrics with the threshold printed by "%f"
BINARY_METRICS = {"accuracy": ("accuracy", f"accuracy/threshold_{THRESHOLD}_mean"), "auc": ("auc",),
                  "auc_precision_recall": ("auc_precision_recall",),
                  "prediction/mean": ("labels/prediction_mean",),
                  "label/mean": ("labels/actual_label_mean", "accuracy/baseline_label_mean"),
                  "precision": (f"precision/positive_threshold_{THRESHOLD}_mean",),
                  "recall": (f"recall/positive_threshold_{THRESHOLD}_mean",)}


def feature_dict(features):
    """contrib's canned models take a bare Tensor as the feature named ''."""
    return features if isinstance(features, dict) else {"": features}


def refuse(**given):
    """NotImplementedError naming each given argument ringflow's canned contrib models lack."""
    for name, value in given.items():
        if value:
            raise NotImplementedError(f"{name}={value!r} is not implemented in ringflow's contrib.learn canned "
                                      f"estimators: leave it out, or use tf.estimator's")


def contrib_predictions(predictions, regression, label_dimension):
    if regression:
        scores = predictions["predictions"]
        return {"scores": reshape(scores, [-1]) if label_dimension == 1 else scores}
    ours = {key: predictions[key] for key in ("logits", "probabilities", "logistic") if key in predictions}
    ours["classes"] = reshape(predictions["class_ids"], [-1])
    return ours


def contrib_metrics(metrics, binary):
    if not binary:
        return {"accuracy": metrics["accuracy"]}
    return {name: metrics[key] for key, names in BINARY_METRICS.items() for name in names}


def optimizer_instance(optimizer):
    """contrib's rule: a callable (not an Optimizer class) is called with no arguments for the optimizer."""
    return optimizer() if callable(optimizer) and not isinstance(optimizer, type) else optimizer


class CannedEstimator(Estimator):
    """contrib's Estimator over logits_fn(features, logits_dimension, mode) built in variable scope `scope`, trained
    by train_op_fn(loss)."""

    predicted = None  # the prediction key predict gives without `outputs` (a subclass's)

    def __init__(self, head, scope, logits_fn, train_op_fn, model_dir, config, feature_engineering_fn):
        regression = isinstance(head, RegressionHead)

        def model_fn(features, labels, mode):
            features = feature_dict(features)
            with variable_scope(scope, values=tuple(features.values())):
                logits = logits_fn(features, head.logits_dimension, mode)
                spec = head.create_estimator_spec(features, mode, logits, labels, train_op_fn=train_op_fn)
            metrics = None
            if mode == ModeKeys.EVAL and not regression:
                metrics = contrib_metrics(spec.eval_metric_ops, head.logits_dimension == 1)
            return ModelFnOps(mode, predictions=contrib_predictions(spec.predictions, regression,
                                                                    head.logits_dimension),
                              loss=spec.loss, train_op=spec.train_op, eval_metric_ops=metrics)

        super().__init__(model_fn, model_dir=model_dir, config=config, feature_engineering_fn=feature_engineering_fn)

    def predict(self, x=None, input_fn=None, batch_size=None, outputs=None, as_iterable=True):
        """The predicted classes (a classifier) or scores (a regressor), or the `outputs` asked for (a dict per
        example)."""
        if not outputs:
            return self._predict_key(self.predicted, x, input_fn, batch_size, as_iterable)
        return super().predict(x=x, input_fn=input_fn, batch_size=batch_size, outputs=outputs,
                               as_iterable=as_iterable)

    def _predict_key(self, key, x, input_fn, batch_size, as_iterable):
        predictions = Estimator.predict(self, x=x, input_fn=input_fn, batch_size=batch_size, outputs=[key],
                                        as_iterable=as_iterable)
        if as_iterable:
            return (prediction[key] for prediction in predictions)
        return predictions[key]


def classifier_head(n_classes, weight_column_name, label_keys):
    return classification_head(n_classes, weight_column_name, label_keys, MEAN)


def regressor_head(weight_column_name, label_dimension):
    return RegressionHead(weight_column_name, label_dimension, MEAN)


class Classifier(CannedEstimator):
    """A canned classifier: predict gives classes; predict_classes, predict_proba."""

    predicted = "classes"

    def predict_classes(self, x=None, input_fn=None, batch_size=None, as_iterable=True):
        """The class of each example."""
        return self._predict_key("classes", x, input_fn, batch_size, as_iterable)

    def predict_proba(self, x=None, input_fn=None, batch_size=None, as_iterable=True):
        """Each example's [n_classes] probabilities."""
        return self._predict_key("probabilities", x, input_fn, batch_size, as_iterable)


class Regressor(CannedEstimator):
    """A canned regressor: predict gives scores; predict_scores; bare metric functions are given the scores."""

    predicted = "scores"

    def evaluate(self, x=None, y=None, input_fn=None, feed_fn=None, batch_size=None, steps=None, metrics=None,
                 name=None, checkpoint_path=None, hooks=None):
        """As Estimator.evaluate; a bare metric function is given the 'scores'."""
        metrics = {key if isinstance(key, tuple) or isinstance(metric, MetricSpec) else (key, "scores"): metric
                   for key, metric in (metrics or {}).items()}
        return super().evaluate(x=x, y=y, input_fn=input_fn, feed_fn=feed_fn, batch_size=batch_size, steps=steps,
                                metrics=metrics, name=name, checkpoint_path=checkpoint_path, hooks=hooks)

    def predict_scores(self, x=None, input_fn=None, batch_size=None, as_iterable=True):
        """Each example's predicted value ([label_dimension] values when label_dimension > 1)."""
        return self._predict_key("scores", x, input_fn, batch_size, as_iterable)
