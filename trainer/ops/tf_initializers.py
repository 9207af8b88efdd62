"""tg.initializers: TF1's tf.initializers namespace, the initializer classes by their short names (the same objects
as tg.*_initializer) and the ops that run variables' and tables' initializers."""
from .initializers import (constant_initializer as constant, glorot_uniform_initializer as glorot_uniform,
                           identity_initializer as identity, ones_initializer as ones,
                           random_normal_initializer as random_normal,
                           truncated_normal_initializer as truncated_normal, zeros_initializer as zeros)
from .lookup_ops import tables_initializer
from .scaling_initializers import (glorot_normal_initializer as glorot_normal, he_normal, he_uniform, lecun_normal,
                                   lecun_uniform, orthogonal_initializer as orthogonal,
                                   random_uniform_initializer as random_uniform,
                                   uniform_unit_scaling_initializer as uniform_unit_scaling,
                                   variance_scaling_initializer as variance_scaling)
from .variables import (global_variables_initializer as global_variables,
                        local_variables_initializer as local_variables, variables_initializer as variables)

__all__ = ["constant", "global_variables", "glorot_normal", "glorot_uniform", "he_normal", "he_uniform", "identity",
           "lecun_normal", "lecun_uniform", "local_variables", "ones", "orthogonal", "random_normal", "random_uniform",
           "tables_initializer", "truncated_normal", "uniform_unit_scaling", "variables", "variance_scaling", "zeros"]
