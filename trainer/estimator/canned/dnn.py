"""TF1's DNNClassifier, DNNRegressor and DNNEstimator: feed-forward networks on the dense feature columns.

The variables are named as TF 1.15 names them: dnn/input_from_feature_columns/input_layer/<column>/...,
dnn/hiddenlayer_<i>/kernel and /bias (glorot-uniform kernels), dnn/hiddenlayer_<i>/batchnorm_<i>/gamma, beta,
moving_mean, moving_variance with batch_norm, and dnn/logits/kernel and /bias. Each hidden layer is
dense + activation, then dropout (only while training), then batch normalization.
"""
from ...losses.losses_impl import Reduction
from ...layers.core import dense, dropout as dropout_layer
from ...layers.normalization import batch_normalization
from ...feature_column.feature_column import input_layer
from ...ops.zero_fraction_ops import zero_fraction
from ...ops.initializers import glorot_uniform_initializer
from ...ops.nn_ops import relu
from ...ops.scopes import variable_scope
from ...summary.ops import histogram, scalar
from ..estimator import Estimator
from ..mode_keys import ModeKeys
from .head import classification_head, RegressionHead
from .optimizers import get_optimizer_instance

LEARNING_RATE = 0.05  # TF1's default for the DNN's Adagrad


def features_dict(features):
    """TF1's check: a canned model reads its features from a dict of Tensors."""
    if not isinstance(features, dict):
        raise ValueError(f"features should be a dictionary of `Tensor`s. Given type: {type(features)}")
    return features


def layer_summary(value, tag):
    """TF1's hidden-layer summaries: the fraction of zeros (dead ReLUs) and a histogram of the activations."""
    scalar(f"{tag}/fraction_of_zero_values", zero_fraction(value))
    histogram(f"{tag}/activation", value)


def dnn_logits(features, feature_columns, hidden_units, units, activation_fn, dropout, batch_norm, mode):
    """The [batch, units] logits of the network, built in the current variable scope (dnn/ in the canned ones)."""
    training = mode == ModeKeys.TRAIN
    with variable_scope("input_from_feature_columns"):
        net = input_layer(features_dict(features), feature_columns)
    for i, width in enumerate(hidden_units):
        with variable_scope(f"hiddenlayer_{i}", values=(net,)) as scope:
            net = dense(net, width, activation=activation_fn, kernel_initializer=glorot_uniform_initializer(),
                        name=scope)
            if dropout is not None and training:
                net = dropout_layer(net, rate=dropout, training=True)
            if batch_norm:
                # TF1's momentum for the DNN's moving averages (tf.layers' default is 0.99)
                net = batch_normalization(net, momentum=0.999, training=training, name=f"batchnorm_{i}")
        layer_summary(net, scope.name)
    with variable_scope("logits", values=(net,)) as scope:
        logits = dense(net, units, kernel_initializer=glorot_uniform_initializer(), name=scope)
    layer_summary(logits, scope.name)
    return logits


def check_hidden_units(hidden_units):
    if hidden_units is None or not all(isinstance(u, int) and u > 0 for u in hidden_units):
        raise ValueError(f"hidden_units must be a list of positive layer widths, got {hidden_units!r}")
    return list(hidden_units)


class DNNEstimator(Estimator):
    """A DNN with a given head (TF1's DNNEstimator). input_layer_partitioner is accepted and ignored: ringflow
    keeps every variable whole (there are no partitioned variables to shard over parameter servers)."""

    def __init__(self, head, hidden_units, feature_columns, model_dir=None, optimizer="Adagrad",
                 activation_fn=relu, dropout=None, input_layer_partitioner=None, config=None, warm_start_from=None,
                 batch_norm=False):
        hidden_units = check_hidden_units(hidden_units)
        feature_columns = tuple(feature_columns or ())

        def _model_fn(features, labels, mode, config):
            with variable_scope("dnn", values=tuple(features_dict(features).values())):
                logits = dnn_logits(features, feature_columns, hidden_units, head.logits_dimension, activation_fn,
                                    dropout, batch_norm, mode)
            return head.create_estimator_spec(features, mode, logits, labels,
                                              optimizer=get_optimizer_instance(optimizer, LEARNING_RATE))

        super().__init__(_model_fn, model_dir=model_dir, config=config, warm_start_from=warm_start_from)


class DNNClassifier(DNNEstimator):
    """A DNN classifier: n_classes == 2 has one logit (sigmoid), more have one per class (softmax)."""

    def __init__(self, hidden_units, feature_columns, model_dir=None, n_classes=2, weight_column=None,
                 label_vocabulary=None, optimizer="Adagrad", activation_fn=relu, dropout=None,
                 input_layer_partitioner=None, config=None, warm_start_from=None, loss_reduction=Reduction.SUM,
                 batch_norm=False):
        super().__init__(classification_head(n_classes, weight_column, label_vocabulary, loss_reduction),
                         hidden_units, feature_columns, model_dir, optimizer, activation_fn, dropout,
                         input_layer_partitioner, config, warm_start_from, batch_norm)


class DNNRegressor(DNNEstimator):
    """A DNN regressor of label_dimension values with squared error."""

    def __init__(self, hidden_units, feature_columns, model_dir=None, label_dimension=1, weight_column=None,
                 optimizer="Adagrad", activation_fn=relu, dropout=None, input_layer_partitioner=None, config=None,
                 warm_start_from=None, loss_reduction=Reduction.SUM, batch_norm=False):
        super().__init__(RegressionHead(weight_column, label_dimension, loss_reduction), hidden_units,
                         feature_columns, model_dir, optimizer, activation_fn, dropout, input_layer_partitioner,
                         config, warm_start_from, batch_norm)

