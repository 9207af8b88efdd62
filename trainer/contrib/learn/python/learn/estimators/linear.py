"""tf.contrib.learn's LinearClassifier and LinearRegressor: tf.feature_column.linear_model under linear/, on
canned.py's shared estimator, as TF 1.15's contrib builds them over core feature columns (which contrib.layers'
real_valued_column gives here).

The variables are linear/linear_model/<column>/weights and linear/linear_model/bias_weights, tf.estimator's own;
the default optimizer is FTRL at min(0.2, 1 / sqrt(number of columns)), applied to the linear/ variables' gradients
(clipped to gradient_clip_norm's global norm when given) without optimize_loss; the loss is the batch mean (core's
v1 heads sum it); prediction keys and metric names are contrib's (canned.py).
"""
from ......estimator.canned.linear import check_columns, learning_rate, linear_logits
from ......ops.clip_ops import clip_by_global_norm
from ......ops.variables import trainable_variables
from ......train.ftrl import FtrlOptimizer
from ......train.training_util import get_global_step
from .canned import Classifier, Regressor, classifier_head, optimizer_instance, refuse, regressor_head


def train_op_fn(optimizer, feature_columns, gradient_clip_norm):
    """contrib's linear step: the optimizer on linear/'s variables, gradients clipped by global norm if asked."""
    def make(loss):
        chosen = optimizer_instance(optimizer) if optimizer else FtrlOptimizer(learning_rate(feature_columns))
        pairs = chosen.compute_gradients(loss, var_list=trainable_variables("linear/"))
        if gradient_clip_norm:
            clipped, _ = clip_by_global_norm([grad for grad, _ in pairs], gradient_clip_norm)
            pairs = list(zip(clipped, [var for _, var in pairs]))
        return chosen.apply_gradients(pairs, global_step=get_global_step())
    return make


def linear_logits_fn(feature_columns):
    def logits_fn(features, units, mode):
        return linear_logits(features, feature_columns, units, "sum")
    return logits_fn


class LinearClassifier(Classifier):
    """Logistic (n_classes == 2) or multinomial logistic regression on the feature columns."""

    def __init__(self, feature_columns, model_dir=None, n_classes=2, weight_column_name=None, optimizer=None,
                 gradient_clip_norm=None, enable_centered_bias=False, _joint_weight=False, config=None,
                 feature_engineering_fn=None, label_keys=None):
        refuse(enable_centered_bias=enable_centered_bias, _joint_weight=_joint_weight)
        self._feature_columns = check_columns(feature_columns)
        super().__init__(classifier_head(n_classes, weight_column_name, label_keys), "linear",
                         linear_logits_fn(self._feature_columns),
                         train_op_fn(optimizer, self._feature_columns, gradient_clip_norm), model_dir, config,
                         feature_engineering_fn)


class LinearRegressor(Regressor):
    """Least squares on the feature columns, label_dimension values per example."""

    def __init__(self, feature_columns, model_dir=None, weight_column_name=None, optimizer=None,
                 gradient_clip_norm=None, enable_centered_bias=False, label_dimension=1, _joint_weights=False,
                 config=None, feature_engineering_fn=None):
        refuse(enable_centered_bias=enable_centered_bias, _joint_weights=_joint_weights)
        self._feature_columns = check_columns(feature_columns)
        super().__init__(regressor_head(weight_column_name, label_dimension), "linear",
                         linear_logits_fn(self._feature_columns),
                         train_op_fn(optimizer, self._feature_columns, gradient_clip_norm), model_dir, config,
                         feature_engineering_fn)
