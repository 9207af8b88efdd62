"""TF1's LinearClassifier, LinearRegressor and LinearEstimator: tg.feature_column.linear_model under linear/.

The variables are TF 1.15's: linear/linear_model/<column name>/weights and linear/linear_model/bias_weights, all
zero-initialized. The default optimizer is FTRL with learning rate min(0.2, 1 / sqrt(number of columns)).
"""
import math

from ...feature_column.feature_column import linear_model
from ...losses.losses_impl import Reduction
from ...ops.math_ops import add_n
from ...ops.scopes import variable_scope
from ...ops.zero_fraction_ops import zero_fraction
from ...summary.ops import scalar
from ..estimator import Estimator
from .dnn import features_dict
from .head import RegressionHead, classification_head
from .optimizers import get_optimizer_instance

LEARNING_RATE = 0.2  # TF1's ceiling for the linear model's FTRL rate


def learning_rate(feature_columns, ceiling=LEARNING_RATE):
    """TF1's default: 1 / sqrt(number of feature columns), at most `ceiling`."""
    return min(ceiling, 1.0 / math.sqrt(len(feature_columns)))


def linear_logits(features, feature_columns, units, sparse_combiner):
    """The [batch, units] logits of the linear model, built in the current variable scope (linear/)."""
    cols_to_vars = {}
    logits = linear_model(features_dict(features), feature_columns, units=units, sparse_combiner=sparse_combiner,
                          cols_to_vars=cols_to_vars)
    bias = cols_to_vars.pop("bias")[0]
    if units == 1:
        scalar("bias", bias[0])
    weights = [v for made in cols_to_vars.values() for v in made]
    sizes = [w.shape.num_elements() for w in weights]
    zeros = add_n([zero_fraction(w) * float(n) for w, n in zip(weights, sizes)])
    scalar("fraction_of_zero_weights", zeros / float(sum(sizes)))
    return logits


def check_columns(feature_columns):
    feature_columns = tuple(feature_columns or ())
    if not feature_columns:
        raise ValueError("feature_columns must not be empty: a linear model needs at least one column")
    return feature_columns


class LinearEstimator(Estimator):
    """A linear model with a given head (TF1's LinearEstimator). partitioner is accepted and ignored: ringflow
    keeps every variable whole."""

    def __init__(self, head, feature_columns, model_dir=None, optimizer="Ftrl", config=None, partitioner=None,
                 sparse_combiner="sum", warm_start_from=None):
        feature_columns = check_columns(feature_columns)

        def _model_fn(features, labels, mode, config):
            with variable_scope("linear", values=tuple(features_dict(features).values())):
                logits = linear_logits(features, feature_columns, head.logits_dimension, sparse_combiner)
            optimizer_ = get_optimizer_instance(optimizer, learning_rate(feature_columns))
            return head.create_estimator_spec(features, mode, logits, labels, optimizer=optimizer_)

        super().__init__(_model_fn, model_dir=model_dir, config=config, warm_start_from=warm_start_from)


class LinearClassifier(LinearEstimator):
    """Logistic (n_classes == 2) or multinomial logistic regression on the feature columns."""

    def __init__(self, feature_columns, model_dir=None, n_classes=2, weight_column=None, label_vocabulary=None,
                 optimizer="Ftrl", config=None, partitioner=None, warm_start_from=None, loss_reduction=Reduction.SUM,
                 sparse_combiner="sum"):
        super().__init__(classification_head(n_classes, weight_column, label_vocabulary, loss_reduction),
                         feature_columns, model_dir, optimizer, config, partitioner, sparse_combiner, warm_start_from)


class LinearRegressor(LinearEstimator):
    """Least squares on the feature columns, label_dimension values per example."""

    def __init__(self, feature_columns, model_dir=None, label_dimension=1, weight_column=None, optimizer="Ftrl",
                 config=None, partitioner=None, warm_start_from=None, loss_reduction=Reduction.SUM,
                 sparse_combiner="sum"):
        super().__init__(RegressionHead(weight_column, label_dimension, loss_reduction), feature_columns, model_dir,
                         optimizer, config, partitioner, sparse_combiner, warm_start_from)
