"""tf.keras.backend (K): Keras' settings, session and learning phase, variables and math on ringflow's graph.

The namespace only: config.py, session.py, variables.py, math.py, nn.py, conv.py, random.py, functional.py,
rnn.py and ctc.py hold the functions.
"""
# ruff: noqa: A004, F401
from ...framework.graph_wrappers import name_scope
from ...unsupported import missing_names
from .ctc import ctc_batch_cost, ctc_decode, ctc_label_dense_to_sparse
from .config import backend, epsilon, floatx, image_data_format, set_epsilon, set_floatx, set_image_data_format
from .conv import (conv2d_transpose, conv3d, local_conv1d, local_conv2d, pool3d, resize_images, resize_volumes,
                   separable_conv2d, spatial_2d_padding, spatial_3d_padding, temporal_padding)
from .functional import foldl, foldr, map_fn
from .session import (Function, clear_session, function, get_session, get_uid, in_test_phase, in_train_phase,
                      learning_phase, learning_phase_scope, manual_variable_initialization, reset_uids,
                      set_learning_phase, set_session)
from .variables import (batch_get_value, batch_set_value, cast_to_floatx, constant, count_params, dtype, eval, eye,
                        get_value, int_shape, is_keras_tensor, is_placeholder, is_sparse, is_tensor,
                        moving_average_update, ndim, ones, placeholder, print_tensor, random_normal_variable,
                        random_uniform_variable, set_value, shape, to_dense, update, update_add, update_sub, variable,
                        zeros)
from .math import (abs, all, any, arange, argmax, argmin, batch_dot, batch_flatten, cast, clip, concatenate, cos,
                   cumprod, cumsum, dot, equal, exp, expand_dims, flatten, gather, gradients, greater, greater_equal,
                   identity, in_top_k, less, less_equal, log, max, maximum, mean, min, minimum, not_equal, one_hot,
                   ones_like, permute_dimensions, pow, prod, repeat, repeat_elements, reshape, reverse, round, sign,
                   sin, sqrt, square, squeeze, stack, std, stop_gradient, sum, switch, tile, transpose, var,
                   zeros_like)
from .random import random_binomial, random_normal, random_uniform, truncated_normal
from .rnn import rnn
from .nn import (batch_normalization, bias_add, binary_crossentropy, categorical_crossentropy, conv1d, conv2d,
                 dropout, elu, hard_sigmoid, l2_normalize, normalize_batch_in_training, pool2d, relu, sigmoid,
                 softmax, softplus, softsign, sparse_categorical_crossentropy, tanh)

__getattr__ = missing_names(__name__, have="ringflow has all of TF 1.15's Keras backend")
