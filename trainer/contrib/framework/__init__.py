"""tf.contrib.framework: arg_scope, the global step and the variable helpers TF1 programs use from it."""
from ...train.training_util import get_global_step, get_or_create_global_step
from .arg_scope import (add_arg_scope, arg_scope, arg_scope_func_key, arg_scoped_arguments, current_arg_scope,
                        has_arg_scope)
from .variables import (get_local_variables, get_model_variables, get_trainable_variables, get_unique_variable,
                        get_variables, get_variables_by_name, get_variables_by_suffix, get_variables_to_restore,
                        model_variable, variable)
from ...unsupported import missing_names

__all__ = ["add_arg_scope", "arg_scope", "arg_scope_func_key", "arg_scoped_arguments",
           "current_arg_scope", "get_global_step", "get_local_variables", "get_model_variables",
           "get_or_create_global_step", "get_trainable_variables", "get_unique_variable", "get_variables",
           "get_variables_by_name", "get_variables_by_suffix", "get_variables_to_restore", "has_arg_scope",
           "model_variable", "variable"]

__getattr__ = missing_names(__name__, have=f"tf.contrib.framework here has {', '.join(__all__)}")
