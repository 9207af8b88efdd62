"""ringflow's trainer: a TF1-style data-flow-graph executor (`import trainer as tg`)."""
from .threads import limit_blas_threads

limit_blas_threads()  # before numpy loads BLAS
from .early_abort import install as _install_early_abort  # noqa: E402

_install_early_abort()  # under mpiexec, a rank failing before MPI starts still ends the job
from . import ops  # noqa: F401  (registers every op type)
from .dtypes import bool, float16, float32, float64, int32, int64  # noqa: A004
from .errors import FailedPreconditionError
from .graph import (Graph, Operation, Tensor, control_dependencies, get_default_graph, name_scope,
                    reset_default_graph)
from .initializers import (constant_initializer, glorot_uniform_initializer, ones_initializer,
                           random_normal_initializer, truncated_normal_initializer, zeros_initializer)
from .ops.core_ops import constant, convert_to_tensor, group, identity, no_op, placeholder
from .ops.array_ops import (argmax, cast, concat, one_hot, ones, reshape, shape, strided_slice, transpose,
                              zeros)
from .ops.math_ops import (abs, add, add_n, divide, equal, exp, greater, greater_equal, less, less_equal,  # noqa: A004
                           log, matmul, maximum, minimum, multiply, negative, not_equal, ones_like, pow, sign,
                           sqrt, square, subtract, where, zeros_like)
from .ops.reduction_ops import reduce_max, reduce_mean, reduce_sum
from .dtypes import (DType, as_dtype, bfloat16, complex64, complex128, double, half, int8, int16,  # noqa: E402
                     uint8, uint16, uint32, uint64)
from .ops.array_ops import argmin, to_double, to_float, to_int32, to_int64  # noqa: E402
from .ops.clip_ops import clip_by_global_norm, clip_by_norm, clip_by_value, global_norm  # noqa: E402
from .ops.elementwise_ops import (ceil, cos, expm1, floor, floordiv, floormod, is_finite, is_inf,  # noqa: E402,A004
                                  is_nan, log1p, logical_and, logical_not, logical_or, logical_xor, mod,
                                  reciprocal, round, rsqrt, sin, squared_difference, stop_gradient, tan, truediv)
from .ops.gather_ops import gather  # noqa: E402
from .ops.control_flow_ops import case, cond, while_loop  # noqa: E402
from .ops.nn_ops import sigmoid, tanh  # noqa: E402
from .ops.reduction_ops import (count_nonzero, reduce_all, reduce_any, reduce_logsumexp, reduce_min,  # noqa: E402
                                reduce_prod)
from .ops.shape_ops import (expand_dims, fill, pad, range, rank, size, split, squeeze, stack, tile,  # noqa: E402,A004
                            unstack)
from . import math, random  # noqa: E402  (tf.math, tf.random)
from .gradients import gradients
from . import losses, nn, train  # noqa: E402
from . import metrics  # noqa: E402  (tf.metrics)
from .train.moving_averages import moving_average_variables  # noqa: E402
from . import layers  # noqa: E402  (tf.layers)
from . import summary  # noqa: E402  (tf.summary)
from .summary import Event, SessionLog, Summary  # noqa: E402
from .summary.protos import HistogramProto  # noqa: E402
from .ops.random_ops import random_normal, random_uniform, truncated_normal
from .random_seed import set_random_seed
from .scopes import AUTO_REUSE, VariableScope, get_variable_scope, variable_scope
from .session import Session, get_default_session
from .variables import (Variable, get_variable, global_variables, global_variables_initializer,
                        trainable_variables, variables_initializer)
from .distributed import DistributedOptimizer, broadcast_variables  # noqa: E402  (data parallelism)
from . import app, compat, flags, gfile, version  # noqa: E402  (program entry: tf.app, tf.flags, tf.gfile, ...)
from . import tf_logging as logging  # noqa: E402  (tf.logging; not trainer/logging.py, which would shadow stdlib)
from . import tf_io as io  # noqa: E402  (tf.io, with tf.io.gfile)
from .compat.v1 import (disable_eager_execution, disable_v2_behavior, enable_eager_execution,  # noqa: E402
                        enable_v2_behavior, executing_eagerly)
from .config import (ConfigProto, GPUOptions, GraphOptions, OptimizerOptions, RunMetadata,  # noqa: E402
                     RunOptions)
from .tf_logging import get_logger  # noqa: E402
from .version import GIT_VERSION, VERSION, VERSION as __version__  # noqa: E402
from .dtypes import string  # noqa: E402
from .graph import (add_to_collection, add_to_collections, colocate_with, device, get_collection,  # noqa: E402
                    get_collection_ref, get_name_scope)
from .graph_keys import GraphKeys  # noqa: E402
from . import debugging, linalg  # noqa: E402  (tf.debugging, tf.linalg)
from . import image  # noqa: E402  (tf.image)
from .ops.check_ops import (Assert, add_check_numerics_ops, assert_equal, assert_greater,  # noqa: E402
                            assert_greater_equal, assert_integer, assert_less, assert_less_equal, assert_negative,
                            assert_non_negative, assert_non_positive, assert_none_equal, assert_positive,
                            assert_rank, assert_type, check_numerics)
from .ops.linalg_ops import einsum, eye, matrix_diag_part, matrix_transpose, norm, tensordot, trace  # noqa: E402
from .ops.logging_ops import Print, print_v2 as print  # noqa: E402,A004
from .ops.scan_ops import cumprod, cumsum  # noqa: E402
from .ops.functional_ops import foldl, foldr, map_fn, scan  # noqa: E402  (TF1's higher-order functions)
from .ops.scatter_ops import (scatter_add, scatter_div, scatter_max, scatter_min, scatter_mul,  # noqa: E402
                              scatter_sub, scatter_update)
from .ops.segment_ops import boolean_mask, segment_mean, segment_sum, unsorted_segment_sum  # noqa: E402
from .ops.shuffle_ops import random_shuffle  # noqa: E402
from .ops.matrix_ops import matrix_determinant, matrix_inverse  # noqa: E402
from .ops.reverse_ops import reverse, reverse_sequence, reverse_v2  # noqa: E402
from .ops.sampling_ops import multinomial, random_crop  # noqa: E402
from .ops.sort_ops import argsort, sort, unique  # noqa: E402
from .ops.core_ops import placeholder_with_default  # noqa: E402
from .session import InteractiveSession  # noqa: E402
from .tensor_shape import Dimension, TensorShape, dimension_value  # noqa: E402
from .variables import (all_variables, assert_variables_initialized, assign, assign_add, assign_sub,  # noqa: E402
                        initialize_all_variables, initialize_local_variables, is_variable_initialized,
                        local_variables, local_variables_initializer, model_variables,
                        report_uninitialized_variables)
from .ops.slice_ops import slice  # noqa: E402,A004
from .ops.array_ops import arg_max, arg_min  # noqa: E402
from .node_def import AttrValue, GraphDef, NodeDef  # noqa: E402
from .errors import OpError  # noqa: E402
from .gradients import AggregationMethod  # noqa: E402
from .random_seed import get_seed  # noqa: E402
from .scopes import no_regularizer  # noqa: E402
from .ops.activation_ops import log_sigmoid  # noqa: E402
from .ops.core_ops import identity_n, is_tensor  # noqa: E402
from .ops.tuple_ops import tuple  # noqa: E402,A004
from .ops.division_ops import div, div_no_nan, floor_div, realdiv, scalar_mul, truncatediv, truncatemod  # noqa: E402
from .ops.fill_ops import lin_space, linspace  # noqa: E402
from .ops.mask_ops import broadcast_to, matrix_band_part, sequence_mask  # noqa: E402
from .ops.qr_ops import qr  # noqa: E402
from .ops.trig_ops import acos, acosh, asin, asinh, atan, atan2, atanh, cosh, rint, sinh  # noqa: E402
from .scaling_initializers import (glorot_normal_initializer, orthogonal_initializer,  # noqa: E402
                                   random_uniform_initializer, uniform_unit_scaling_initializer,
                                   variance_scaling_initializer)

newaxis = None  # x[:, tg.newaxis] adds a dimension, as x[:, None] does
where_v2 = where  # TF1's broadcasting where: tg.where broadcasts already


def __getattr__(name):
    """TF1 names ringflow lacks fail with what to use instead (trainer/unsupported.py); `tf.data` is ringflow's
    sharding module, which names TF1's tf.data API as missing in the same way."""
    if name == "data":  # not `from . import data`: that asks this very hook first
        import importlib
        return importlib.import_module(f"{__name__}.data")
    from .unsupported import missing
    raise missing(name)
