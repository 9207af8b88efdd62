"""tf.contrib.learn's DNNClassifier and DNNRegressor: contrib's Estimator with a feed-forward network on the
feature columns and a head of tf.estimator's canned ones, as TF 1.15 builds them.

Where they differ from tf.estimator's: the layers are contrib's fully_connected, so the variables are
dnn/hiddenlayer_<i>/weights and /biases and dnn/logits/weights and /biases (core: kernel, bias); the loss is the
mean over the batch (core's v1 heads sum it); the optimizer (default Adagrad at 0.05) runs through
contrib.layers.optimize_loss, whose learning rate is the variable dnn/learning_rate; features may be a bare Tensor
(the feature '', as real_valued_column('') reads it); predictions are 'classes' (the class index, int64
[batch]), 'probabilities', 'logits' and for two classes 'logistic', or the regressor's 'scores'; predict gives
the classes (the scores) unless `outputs` says otherwise. Evaluation reports 'loss' and 'accuracy', and for two
classes also contrib's 'auc', 'auc_precision_recall', 'labels/prediction_mean', 'labels/actual_label_mean',
'accuracy/baseline_label_mean' and the 0.5-threshold accuracy, precision and recall.
"""
from ......contrib.layers.layers import dropout as dropout_layer, fully_connected
from ......contrib.layers.optimizers import optimize_loss
from ......estimator.canned.dnn import check_hidden_units, layer_summary
from ......estimator.canned.head import RegressionHead, classification_head
from ......feature_column.feature_column import input_layer
from ......losses.losses_impl import Reduction
from ......ops.array_ops import reshape
from ......ops.nn_ops import relu, sigmoid, tanh
from ......ops.scopes import variable_scope
from ......train.training_util import get_global_step
from ..metric_spec import MetricSpec
from .estimator import Estimator
from .model_fn import ModeKeys, ModelFnOps

LEARNING_RATE = 0.05  # TF1 contrib's default for the DNN's Adagrad
ACTIVATIONS = {"relu": relu, "tanh": tanh, "sigmoid": sigmoid}
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


def activation(activation_fn):
    if not isinstance(activation_fn, str):
        return activation_fn
    if activation_fn not in ACTIVATIONS:
        raise ValueError(f"Activation name should be one of [{', '.join(ACTIVATIONS)}], you provided "
                         f"{activation_fn}.")
    return ACTIVATIONS[activation_fn]


def refuse(**given):
    for name, value in given.items():
        if value:
            raise NotImplementedError(f"{name}={value!r} is not implemented in ringflow's contrib.learn canned "
                                      f"estimators: leave it out, or use tf.estimator's")


def dnn_logits(features, feature_columns, hidden_units, units, activation_fn, dropout, mode):
    """The [batch, units] logits, under dnn/ with contrib's layer names."""
    with variable_scope("input_from_feature_columns", values=tuple(features.values())):
        net = input_layer(features, feature_columns)
    for i, width in enumerate(hidden_units):
        with variable_scope(f"hiddenlayer_{i}", values=(net,)) as scope:
            net = fully_connected(net, width, activation_fn=activation_fn, scope=scope)
            if dropout is not None and mode == ModeKeys.TRAIN:
                net = dropout_layer(net, keep_prob=1.0 - dropout)
        layer_summary(net, scope.name)
    with variable_scope("logits", values=(net,)) as scope:
        logits = fully_connected(net, units, activation_fn=None, scope=scope)
    layer_summary(logits, scope.name)
    return logits


def contrib_predictions(predictions, regression, label_dimension):
    if regression:
        scores = predictions["predictions"]
        return {"scores": reshape(scores, [-1]) if label_dimension == 1 else scores}
    ours = {key: predictions[key] for key in ("logits", "probabilities", "logistic") if key in predictions}
    ours["classes"] = reshape(predictions["class_ids"], [-1])
    return ours


def contrib_metrics(metrics, binary):
    if not binary:
        return {key: value for key, value in metrics.items() if key == "accuracy"}
    return {name: metrics[key] for key, names in BINARY_METRICS.items() for name in names}


class DNNEstimator(Estimator):
    """contrib's Estimator over a DNN and a head (the base of DNNClassifier and DNNRegressor)."""

    def __init__(self, head, hidden_units, feature_columns, model_dir, optimizer, activation_fn, dropout,
                 gradient_clip_norm, config, feature_engineering_fn):
        hidden_units = check_hidden_units(hidden_units)
        self._feature_columns = tuple(feature_columns or ())
        activation_fn = activation(activation_fn)
        regression = isinstance(head, RegressionHead)

        def train_op_fn(loss):
            chosen = optimizer or "Adagrad"
            return optimize_loss(loss, get_global_step(), learning_rate=LEARNING_RATE,
                                 optimizer=chosen() if callable(chosen) and not isinstance(chosen, type) else chosen,
                                 clip_gradients=gradient_clip_norm, name="dnn", summaries=[])

        def model_fn(features, labels, mode):
            features = feature_dict(features)
            with variable_scope("dnn", values=tuple(features.values())):
                logits = dnn_logits(features, self._feature_columns, hidden_units, head.logits_dimension,
                                    activation_fn, dropout, mode)
                spec = head.create_estimator_spec(features, mode, logits, labels, train_op_fn=train_op_fn)
            predictions = contrib_predictions(spec.predictions, regression, head.logits_dimension)
            metrics = None
            if mode == ModeKeys.EVAL and not regression:
                metrics = contrib_metrics(spec.eval_metric_ops, head.logits_dimension == 1)
            return ModelFnOps(mode, predictions=predictions, loss=spec.loss, train_op=spec.train_op,
                              eval_metric_ops=metrics)

        super().__init__(model_fn, model_dir=model_dir, config=config, feature_engineering_fn=feature_engineering_fn)

    def _predict_key(self, key, x, input_fn, batch_size, as_iterable):
        predictions = Estimator.predict(self, x=x, input_fn=input_fn, batch_size=batch_size, outputs=[key],
                                        as_iterable=as_iterable)
        if as_iterable:
            return (prediction[key] for prediction in predictions)
        return predictions[key]


class DNNClassifier(DNNEstimator):
    """A DNN classifier of n_classes classes (sigmoid for two, softmax above); labels are class indices, or
    names from label_keys."""

    def __init__(self, hidden_units, feature_columns, model_dir=None, n_classes=2, weight_column_name=None,
                 optimizer=None, activation_fn=relu, dropout=None, gradient_clip_norm=None,
                 enable_centered_bias=False, config=None, feature_engineering_fn=None, embedding_lr_multipliers=None,
                 input_layer_min_slice_size=None, label_keys=None):
        # input_layer_min_slice_size only sizes partitions; ringflow keeps every variable whole
        refuse(enable_centered_bias=enable_centered_bias, embedding_lr_multipliers=embedding_lr_multipliers)
        head = classification_head(n_classes, weight_column_name, label_keys, Reduction.SUM_OVER_BATCH_SIZE)
        super().__init__(head, hidden_units, feature_columns, model_dir, optimizer, activation_fn, dropout,
                         gradient_clip_norm, config, feature_engineering_fn)

    def predict(self, x=None, input_fn=None, batch_size=None, outputs=None, as_iterable=True):
        """The predicted classes, or the `outputs` asked for (a dict per example)."""
        if not outputs:
            return self.predict_classes(x=x, input_fn=input_fn, batch_size=batch_size, as_iterable=as_iterable)
        return super().predict(x=x, input_fn=input_fn, batch_size=batch_size, outputs=outputs,
                               as_iterable=as_iterable)

    def predict_classes(self, x=None, input_fn=None, batch_size=None, as_iterable=True):
        """The class index of each example."""
        return self._predict_key("classes", x, input_fn, batch_size, as_iterable)

    def predict_proba(self, x=None, input_fn=None, batch_size=None, as_iterable=True):
        """Each example's [n_classes] probabilities."""
        return self._predict_key("probabilities", x, input_fn, batch_size, as_iterable)


class DNNRegressor(DNNEstimator):
    """A DNN regressor of label_dimension values with squared error."""

    def __init__(self, hidden_units, feature_columns, model_dir=None, weight_column_name=None, optimizer=None,
                 activation_fn=relu, dropout=None, gradient_clip_norm=None, enable_centered_bias=False, config=None,
                 feature_engineering_fn=None, label_dimension=1, embedding_lr_multipliers=None,
                 input_layer_min_slice_size=None):
        refuse(enable_centered_bias=enable_centered_bias, embedding_lr_multipliers=embedding_lr_multipliers)
        head = RegressionHead(weight_column_name, label_dimension, Reduction.SUM_OVER_BATCH_SIZE)
        super().__init__(head, hidden_units, feature_columns, model_dir, optimizer, activation_fn, dropout,
                         gradient_clip_norm, config, feature_engineering_fn)

    def evaluate(self, x=None, y=None, input_fn=None, feed_fn=None, batch_size=None, steps=None, metrics=None,
                 name=None, checkpoint_path=None, hooks=None):
        """As Estimator.evaluate; a bare metric function is given the 'scores'."""
        metrics = {key if isinstance(key, tuple) or isinstance(metric, MetricSpec) else (key, "scores"): metric
                   for key, metric in (metrics or {}).items()}
        return super().evaluate(x=x, y=y, input_fn=input_fn, feed_fn=feed_fn, batch_size=batch_size, steps=steps,
                                metrics=metrics, name=name, checkpoint_path=checkpoint_path, hooks=hooks)

    def predict(self, x=None, input_fn=None, batch_size=None, outputs=None, as_iterable=True):
        """The predicted scores, or the `outputs` asked for (a dict per example)."""
        if not outputs:
            return self.predict_scores(x=x, input_fn=input_fn, batch_size=batch_size, as_iterable=as_iterable)
        return super().predict(x=x, input_fn=input_fn, batch_size=batch_size, outputs=outputs,
                               as_iterable=as_iterable)

    def predict_scores(self, x=None, input_fn=None, batch_size=None, as_iterable=True):
        """Each example's predicted value ([label_dimension] values when label_dimension > 1)."""
        return self._predict_key("scores", x, input_fn, batch_size, as_iterable)
