"""TF1's DNNLinearCombinedClassifier, Regressor and Estimator ("wide & deep"): the logits of a DNN (dnn/) and of
a linear model (linear/) added, each part trained by its own optimizer on its own variables.

TF 1.15's defaults: Adagrad at 0.001 for the DNN, FTRL at min(0.005, 1 / sqrt(number of linear columns)) for the
linear part; one train step runs both optimizers, then adds 1 to the global step.
"""
from ...framework.graph_keys import GraphKeys
from ...framework.graph_wrappers import control_dependencies, get_collection
from ...losses.losses_impl import Reduction
from ...ops.core_ops import group
from ...ops.nn_ops import relu
from ...ops.scopes import variable_scope
from ...train.training_util import get_global_step
from ..estimator import Estimator
from .dnn import check_hidden_units, dnn_logits, features_dict
from .head import RegressionHead, classification_head
from .linear import learning_rate, linear_logits
from .optimizers import get_optimizer_instance

DNN_LEARNING_RATE = 0.001
LINEAR_LEARNING_RATE = 0.005


class DNNLinearCombinedEstimator(Estimator):
    """Wide & deep with a given head (TF1's DNNLinearCombinedEstimator). input_layer_partitioner is accepted and
    ignored: ringflow keeps every variable whole."""

    def __init__(self, head, model_dir=None, linear_feature_columns=None, linear_optimizer="Ftrl",
                 dnn_feature_columns=None, dnn_optimizer="Adagrad", dnn_hidden_units=None, dnn_activation_fn=relu,
                 dnn_dropout=None, input_layer_partitioner=None, config=None, linear_sparse_combiner="sum",
                 warm_start_from=None, batch_norm=False):
        linear_feature_columns = tuple(linear_feature_columns or ())
        dnn_feature_columns = tuple(dnn_feature_columns or ())
        if not linear_feature_columns and not dnn_feature_columns:
            raise ValueError("Either linear_feature_columns or dnn_feature_columns must be defined.")
        if dnn_feature_columns:
            if not dnn_hidden_units:
                raise ValueError("dnn_hidden_units must be defined when dnn_feature_columns is specified.")
            dnn_hidden_units = check_hidden_units(dnn_hidden_units)

        def _model_fn(features, labels, mode, config):
            values = tuple(features_dict(features).values())
            parts = []  # (scope name, optimizer) of each part that is there
            logits = 0.0
            if dnn_feature_columns:
                with variable_scope("dnn", values=values):
                    logits = logits + dnn_logits(features, dnn_feature_columns, dnn_hidden_units,
                                                 head.logits_dimension, dnn_activation_fn, dnn_dropout, batch_norm,
                                                 mode)
                parts.append(("dnn", get_optimizer_instance(dnn_optimizer, DNN_LEARNING_RATE)))
            if linear_feature_columns:
                with variable_scope("linear", values=values):
                    logits = logits + linear_logits(features, linear_feature_columns, head.logits_dimension,
                                                    linear_sparse_combiner)
                rate = learning_rate(linear_feature_columns, LINEAR_LEARNING_RATE)
                parts.append(("linear", get_optimizer_instance(linear_optimizer, rate)))

            def train_op_fn(loss):
                train_ops = [optimizer.minimize(loss, var_list=get_collection(GraphKeys.TRAINABLE_VARIABLES,
                                                                              scope=scope + "/"))
                             for scope, optimizer in parts]
                with control_dependencies([group(*train_ops)]):
                    return get_global_step().assign_add(1).op

            return head.create_estimator_spec(features, mode, logits, labels, train_op_fn=train_op_fn)

        super().__init__(_model_fn, model_dir=model_dir, config=config, warm_start_from=warm_start_from)


class DNNLinearCombinedClassifier(DNNLinearCombinedEstimator):
    """Wide & deep classification: n_classes == 2 has one logit (sigmoid), more have one per class (softmax)."""

    def __init__(self, model_dir=None, linear_feature_columns=None, linear_optimizer="Ftrl", dnn_feature_columns=None,
                 dnn_optimizer="Adagrad", dnn_hidden_units=None, dnn_activation_fn=relu, dnn_dropout=None,
                 n_classes=2, weight_column=None, label_vocabulary=None, input_layer_partitioner=None, config=None,
                 warm_start_from=None, loss_reduction=Reduction.SUM, batch_norm=False,
                 linear_sparse_combiner="sum"):
        super().__init__(classification_head(n_classes, weight_column, label_vocabulary, loss_reduction), model_dir,
                         linear_feature_columns, linear_optimizer, dnn_feature_columns, dnn_optimizer,
                         dnn_hidden_units, dnn_activation_fn, dnn_dropout, input_layer_partitioner, config,
                         linear_sparse_combiner, warm_start_from, batch_norm)


class DNNLinearCombinedRegressor(DNNLinearCombinedEstimator):
    """Wide & deep regression of label_dimension values with squared error."""

    def __init__(self, model_dir=None, linear_feature_columns=None, linear_optimizer="Ftrl", dnn_feature_columns=None,
                 dnn_optimizer="Adagrad", dnn_hidden_units=None, dnn_activation_fn=relu, dnn_dropout=None,
                 label_dimension=1, weight_column=None, input_layer_partitioner=None, config=None,
                 warm_start_from=None, loss_reduction=Reduction.SUM, batch_norm=False,
                 linear_sparse_combiner="sum"):
        super().__init__(RegressionHead(weight_column, label_dimension, loss_reduction), model_dir,
                         linear_feature_columns, linear_optimizer, dnn_feature_columns, dnn_optimizer,
                         dnn_hidden_units, dnn_activation_fn, dnn_dropout, input_layer_partitioner, config,
                         linear_sparse_combiner, warm_start_from, batch_norm)
