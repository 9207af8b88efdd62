"""tf.contrib.learn's DNNClassifier and DNNRegressor: a feed-forward network on the feature columns under dnn/,
as TF 1.15's contrib builds it, on canned.py's shared estimator.

Where they differ from tf.estimator's: the layers are contrib's fully_connected, so the variables are
dnn/hiddenlayer_<i>/weights and /biases and dnn/logits/weights and /biases (core: kernel, bias); the loss is the
batch mean (core's v1 heads sum it); the optimizer (default Adagrad at 0.05) runs through
contrib.layers.optimize_loss, whose learning rate is the variable dnn/dnn/learning_rate (optimize_loss's scope
opened inside dnn/); prediction keys and metric names are contrib's (canned.py).
"""
from ......contrib.layers.layers import dropout as dropout_layer, fully_connected
from ......contrib.layers.optimizers import optimize_loss
from ......estimator.canned.dnn import check_hidden_units, layer_summary
from ......feature_column.feature_column import input_layer
from ......ops.nn_ops import relu, sigmoid, tanh
from ......ops.scopes import variable_scope
from ......train.training_util import get_global_step
from .canned import Classifier, Regressor, classifier_head, optimizer_instance, refuse, regressor_head
from .model_fn import ModeKeys

LEARNING_RATE = 0.05  # TF1 contrib's default for the DNN's Adagrad
ACTIVATIONS = {"relu": relu, "tanh": tanh, "sigmoid": sigmoid}


def activation(activation_fn):
    if not isinstance(activation_fn, str):
        return activation_fn
    if activation_fn not in ACTIVATIONS:
        raise ValueError(f"Activation name should be one of [{', '.join(ACTIVATIONS)}], you provided "
                         f"{activation_fn}.")
    return ACTIVATIONS[activation_fn]


def train_op_fn(optimizer, gradient_clip_norm):
    """contrib's DNN step: optimize_loss at LEARNING_RATE in scope dnn, without its summaries."""
    def make(loss):
        return optimize_loss(loss, get_global_step(), learning_rate=LEARNING_RATE,
                             optimizer=optimizer_instance(optimizer or "Adagrad"), clip_gradients=gradient_clip_norm,
                             name="dnn", summaries=[])
    return make


def dnn_logits_fn(feature_columns, hidden_units, activation_fn, dropout):
    """logits_fn(features, units, mode): the network's [batch, units] logits with contrib's layer names."""
    feature_columns, hidden_units = tuple(feature_columns or ()), check_hidden_units(hidden_units)
    activation_fn = activation(activation_fn)

    def logits_fn(features, units, mode):
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
    return logits_fn


class DNNClassifier(Classifier):
    """A DNN classifier of n_classes classes (sigmoid for two, softmax above); labels are class indices, or
    names from label_keys. input_layer_min_slice_size only sizes partitions: ringflow keeps variables whole."""

    def __init__(self, hidden_units, feature_columns, model_dir=None, n_classes=2, weight_column_name=None,
                 optimizer=None, activation_fn=relu, dropout=None, gradient_clip_norm=None,
                 enable_centered_bias=False, config=None, feature_engineering_fn=None, embedding_lr_multipliers=None,
                 input_layer_min_slice_size=None, label_keys=None):
        refuse(enable_centered_bias=enable_centered_bias, embedding_lr_multipliers=embedding_lr_multipliers)
        self._feature_columns = tuple(feature_columns or ())
        super().__init__(classifier_head(n_classes, weight_column_name, label_keys), "dnn",
                         dnn_logits_fn(feature_columns, hidden_units, activation_fn, dropout),
                         train_op_fn(optimizer, gradient_clip_norm), model_dir, config, feature_engineering_fn)


class DNNRegressor(Regressor):
    """A DNN regressor of label_dimension values with squared error."""

    def __init__(self, hidden_units, feature_columns, model_dir=None, weight_column_name=None, optimizer=None,
                 activation_fn=relu, dropout=None, gradient_clip_norm=None, enable_centered_bias=False, config=None,
                 feature_engineering_fn=None, label_dimension=1, embedding_lr_multipliers=None,
                 input_layer_min_slice_size=None):
        refuse(enable_centered_bias=enable_centered_bias, embedding_lr_multipliers=embedding_lr_multipliers)
        self._feature_columns = tuple(feature_columns or ())
        super().__init__(regressor_head(weight_column_name, label_dimension), "dnn",
                         dnn_logits_fn(feature_columns, hidden_units, activation_fn, dropout),
                         train_op_fn(optimizer, gradient_clip_norm), model_dir, config, feature_engineering_fn)
