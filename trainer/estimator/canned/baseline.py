"""TF1's BaselineClassifier, BaselineRegressor and BaselineEstimator: logits that ignore the features.

The model is one zero-initialized variable, baseline/bias of shape [logits_dimension], given to every example, so
training drives it to the loss's minimizer over the labels: the label mean for a regressor, the log odds of the
class frequencies for a classifier. The features only give the batch size. The default optimizer is FTRL at 0.3.
"""
from ...framework import dtypes
from ...losses.losses_impl import Reduction
from ...ops.array_ops import reshape, shape
from ...ops.core_ops import convert_to_tensor
from ...ops.initializers import zeros_initializer
from ...ops.pad_ops import tile
from ...ops.scopes import variable_scope
from ...ops.variables import get_variable
from ...summary.ops import scalar
from ..estimator import Estimator
from .head import RegressionHead, classification_head
from .optimizers import get_optimizer_instance

LEARNING_RATE = 0.3  # TF1's default for the baseline's FTRL


def batch_size(features):
    """The number of examples in the batch: the first dimension of the (first, by key) feature."""
    if not isinstance(features, dict):
        features = {"": features}
    if not features:
        raise ValueError("Input features is empty: a baseline needs at least one feature to count the examples")
    return shape(convert_to_tensor(features[sorted(features)[0]]))[0:1]


def baseline_logits(features, units):
    """[batch, units] copies of baseline/bias."""
    with variable_scope("baseline"):
        bias = get_variable("bias", [units], dtype=dtypes.float32, initializer=zeros_initializer())
        if units == 1:
            scalar("bias", bias[0])
        return reshape(tile(bias, batch_size(features)), [-1, units])


class BaselineEstimator(Estimator):
    """A baseline with a given head (TF1's BaselineEstimator)."""

    def __init__(self, head, model_dir=None, optimizer="Ftrl", config=None):
        def _model_fn(features, labels, mode, config):
            logits = baseline_logits(features, head.logits_dimension)
            return head.create_estimator_spec(features, mode, logits, labels,
                                              optimizer=get_optimizer_instance(optimizer, LEARNING_RATE))

        super().__init__(_model_fn, model_dir=model_dir, config=config)


class BaselineClassifier(BaselineEstimator):
    """Predicts the class frequencies seen in training, whatever the features."""

    def __init__(self, model_dir=None, n_classes=2, weight_column=None, label_vocabulary=None, optimizer="Ftrl",
                 config=None, loss_reduction=Reduction.SUM):
        super().__init__(classification_head(n_classes, weight_column, label_vocabulary, loss_reduction), model_dir,
                         optimizer, config)


class BaselineRegressor(BaselineEstimator):
    """Predicts the mean label seen in training, whatever the features."""

    def __init__(self, model_dir=None, label_dimension=1, weight_column=None, optimizer="Ftrl", config=None,
                 loss_reduction=Reduction.SUM):
        super().__init__(RegressionHead(weight_column, label_dimension, loss_reduction), model_dir, optimizer, config)
