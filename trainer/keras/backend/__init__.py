"""tf.keras.backend (K): Keras' settings, session and learning phase, variables and math on ringflow's graph.

The namespace only: config.py, session.py, variables.py, math.py and nn.py hold the functions.
"""
# ruff: noqa: A004, F401
from ...unsupported import missing_names
from .config import epsilon, floatx, image_data_format, set_epsilon, set_floatx, set_image_data_format
from .session import (Function, clear_session, function, get_session, get_uid, in_test_phase, in_train_phase,
                      learning_phase, manual_variable_initialization, reset_uids, set_learning_phase, set_session)
from .variables import (batch_get_value, batch_set_value, constant, count_params, dtype, eval, get_value, int_shape,
                        is_keras_tensor, is_placeholder, is_tensor, moving_average_update, ndim, ones, placeholder,
                        random_normal_variable, random_uniform_variable, set_value, shape, update, update_add,
                        variable, zeros)
from .math import (abs, all, any, arange, argmax, argmin, batch_dot, batch_flatten, cast, clip, concatenate, cumsum,
                   dot, equal, exp, expand_dims, flatten, gather, gradients, greater, greater_equal, identity, less,
                   less_equal, log, max, maximum, mean, min, minimum, not_equal, one_hot, ones_like,
                   permute_dimensions, pow, prod, repeat, reshape, round, sign, sqrt, square, squeeze, stack, std,
                   stop_gradient, sum, switch, tile, transpose, var, zeros_like)
from .rnn import rnn
from .nn import (bias_add, binary_crossentropy, categorical_crossentropy, conv1d, conv2d, dropout, elu, hard_sigmoid,
                 l2_normalize, pool2d, relu, sigmoid, softmax, softplus, softsign, sparse_categorical_crossentropy,
                 tanh)

__getattr__ = missing_names(__name__, have="of Keras' backend, ringflow has the session, learning phase, variables "
                            "and the math README's tf.keras section lists; write the op with tf.* instead")
