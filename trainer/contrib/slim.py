"""tf.contrib.slim: TF-Slim's core names, the very functions of tf.contrib.layers and tf.contrib.framework
(slim.fully_connected is tf.contrib.layers.fully_connected, slim.arg_scope is tf.contrib.framework.arg_scope).

slim.losses and slim.metrics are tf.contrib.losses and tf.contrib.metrics, as in TF1. The rest of TF-Slim (nets and
the model zoo, learning.train, evaluation, data) fails naming what is missing.
"""
from ..unsupported import missing_names
from . import layers, losses, metrics  # noqa: F401  (slim.losses, slim.metrics)
from .framework import (add_arg_scope, arg_scope, arg_scoped_arguments, current_arg_scope, get_global_step,
                        get_model_variables, get_or_create_global_step, get_trainable_variables, get_unique_variable,
                        get_variables, get_variables_by_name, get_variables_by_suffix, get_variables_to_restore,
                        has_arg_scope, model_variable, variable)
from .layers import (avg_pool2d, batch_norm, conv2d, convolution2d, dropout, embed_sequence, flatten, fully_connected,
                     l1_regularizer, l2_regularizer, linear, max_pool2d, optimize_loss, variance_scaling_initializer,
                     xavier_initializer)
from .layers import initializers, regularizers  # noqa: F401  (slim.initializers, slim.regularizers)

__all__ = ["add_arg_scope", "arg_scope", "arg_scoped_arguments", "avg_pool2d", "batch_norm", "conv2d",
           "convolution2d", "current_arg_scope", "dropout", "embed_sequence", "flatten", "fully_connected",
           "get_global_step", "get_model_variables", "get_or_create_global_step", "get_trainable_variables",
           "get_unique_variable", "get_variables", "get_variables_by_name", "get_variables_by_suffix",
           "get_variables_to_restore", "has_arg_scope", "initializers", "l1_regularizer", "l2_regularizer",
           "layers", "linear", "losses", "max_pool2d", "metrics", "model_variable", "optimize_loss", "regularizers",
           "variable", "variance_scaling_initializer", "xavier_initializer"]

_MISSING = {"nets": "TF-Slim's model zoo (slim.nets)", "learning": "slim.learning.train: write the loop with "
            "tf.train.MonitoredTrainingSession and hooks", "evaluation": "slim.evaluation", "data": "slim.data: "
            "load the data with numpy", "queues": "slim.queues", "summaries": "slim.summaries: use tf.summary",
            "model_analyzer": "slim.model_analyzer"}

__getattr__ = missing_names(__name__, have="ringflow's slim has the layers, arg_scope, the variable helpers, losses "
                            "and metrics", reasons=_MISSING)
