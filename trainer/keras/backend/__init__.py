"""tf.keras.backend (K): Keras' settings, session and learning phase, variables and math on ringflow's graph.

The namespace only: config.py, session.py, variables.py and math.py hold the functions.
"""
# ruff: noqa: A004, F401
from .config import (epsilon, floatx, image_data_format, set_epsilon, set_floatx, set_image_data_format)
from .session import (Function, clear_session, function, get_session, get_uid, in_test_phase, in_train_phase,
                      learning_phase, manual_variable_initialization, reset_uids, set_learning_phase, set_session)
from .variables import (batch_get_value, batch_set_value, constant, count_params, dtype, eval, get_value, int_shape,
                        is_keras_tensor, is_placeholder, is_tensor, moving_average_update, ndim, ones, placeholder,
                        random_normal_variable, random_uniform_variable, set_value, shape, update, update_add,
                        variable, zeros)
from .math import (abs, all, any, argmax, argmin, batch_dot, batch_flatten, binary_crossentropy, cast,
                   categorical_crossentropy, clip, concatenate, dot, elu, equal, exp, expand_dims, flatten, gradients,
                   greater, greater_equal, hard_sigmoid, identity, l2_normalize, less, less_equal, log, max, maximum,
                   mean, min, minimum, not_equal, one_hot, ones_like, permute_dimensions, pow, prod, relu, repeat,
                   reshape, round, sigmoid, sign, softmax, softplus, softsign, sparse_categorical_crossentropy, sqrt,
                   square, squeeze, stack, std, stop_gradient, sum, tanh, transpose, var, zeros_like)
