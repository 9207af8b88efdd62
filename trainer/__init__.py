"""ringflow's trainer: a TF1-style data-flow-graph executor (`import trainer as tg`).

This module is the tg namespace only, grouped as TF1 groups it: each line names where a TF1 name lives in
ringflow. The two calls at the top are what a launcher needs before anything else loads.
"""
from allreduce.early_abort import install as _install_early_abort
from allreduce.launcher import local_size as _local_size

from .platform.threads import limit_blas_threads

limit_blas_threads(_local_size())  # before numpy loads BLAS
_install_early_abort()  # under mpiexec, a rank failing before MPI starts still ends the job
# ruff: noqa: E402, A004, F401
from . import ops  # registers every op type

# tf.* modules
from . import (compat, contrib, data, debugging, estimator, feature_column, image, keras, layers, linalg, lookup,
               losses, math, metrics, nn, random, sets, sparse, strings, summary, train)
from . import test  # tf.test
from . import distributions  # tf.distributions
from . import quantization  # tf.quantization
from .ops.incomplete_gamma_ops import betainc, igamma, igammac
from .ops.matrix_function_ops import sqrtm as matrix_square_root
from .ops.sparse_merge_ops import sparse_merge
from .ops.quantize_ops import (fake_quant_with_min_max_args, fake_quant_with_min_max_args_gradient,
                               fake_quant_with_min_max_vars, fake_quant_with_min_max_vars_gradient,
                               fake_quant_with_min_max_vars_per_channel,
                               fake_quant_with_min_max_vars_per_channel_gradient)
from . import saved_model  # tf.saved_model
from . import config  # tf.config
from . import tf_io as io
from . import python_io, queue
from .ops import tf_dtypes as dtypes
from .ops import tf_user_ops as user_ops
from .ops import tf_audio as audio
from .ops import tf_initializers as initializers
from .python.framework import graph_util  # tf.graph_util
from .python.util import nest  # tf.nest
from .python import autograph  # tf.autograph
from .platform import resource_loader  # tf.resource_loader
from .platform import app, errors, flags, gfile, version
from .platform import tf_logging as logging

# graphs, tensors, devices and collections (TF1's framework/)
from .framework.dtypes import (DType, as_dtype, bfloat16, bool, complex64, complex128, double, float16, float32,
                               float64, half, int8, int16, int32, int64, string, uint8, uint16, uint32, uint64)
from .framework.dtypes import QUANTIZED_DTYPES, qint8, qint16, qint32, quint8, quint16, resource, variant
from .framework.graph import Graph, get_default_graph, reset_default_graph
from .framework.graph_keys import GraphKeys
from .framework.graph_wrappers import (add_to_collection, add_to_collections, colocate_with, control_dependencies,
                                       device, get_collection, get_collection_ref, get_name_scope, name_scope, op_scope)
from .framework.meta_graph import MetaGraphDef, TensorInfo
from .framework.device_spec import DeviceSpec
from .framework.operation import Operation
from .framework.node_def import AttrValue, GraphDef, NodeDef
from .framework.random_seed import get_seed, set_random_seed
from .framework.stacks import get_default_session
from .framework.tensor import Tensor
from .framework.tensor_shape import Dimension, TensorShape, dimension_at_index, dimension_value
from .framework.tensor_util import make_ndarray, make_tensor_proto
from .platform.errors import FailedPreconditionError, OpError
from .platform.tf_logging import get_logger
from .platform.version import GIT_VERSION, VERSION, VERSION as __version__
from .platform.version import (COMPILER_VERSION, CXX11_ABI_FLAG, CXX_VERSION, GRAPH_DEF_VERSION,
                               GRAPH_DEF_VERSION_MIN_CONSUMER, GRAPH_DEF_VERSION_MIN_PRODUCER, MONOLITHIC_BUILD)

newaxis = None  # tf.newaxis, for x[:, tf.newaxis]

# variables, scopes and initializers (TF1's ops/variables.py, variable_scope.py, init_ops.py)
from .ops.initializers import (constant_initializer, glorot_uniform_initializer, ones_initializer,
                               random_normal_initializer, truncated_normal_initializer, zeros_initializer)
from .ops.scaling_initializers import (glorot_normal_initializer, orthogonal_initializer, random_uniform_initializer,
                                       uniform_unit_scaling_initializer, variance_scaling_initializer)
from .ops.scopes import AUTO_REUSE, VariableScope, get_variable_scope, no_regularizer, variable_op_scope, variable_scope
from .ops.template import make_template
from .ops.module import Module
from .ops.variables import (VariableAggregation, VariableSynchronization, get_local_variable,
                            initialize_variables)
from .ops.variables import (Variable, all_variables, assert_variables_initialized, assign, assign_add, assign_sub,
                            count_up_to, get_variable, global_variables, global_variables_initializer,
                            initialize_all_variables, initialize_local_variables, is_variable_initialized, local_variables,
                            local_variables_initializer, model_variables, report_uninitialized_variables,
                            trainable_variables, variables_initializer)

# ops (TF1's array_ops, math_ops, control_flow_ops, ...)
from .ops.array_ops import (arg_max, arg_min, argmax, argmin, cast, concat, one_hot, ones, reshape, shape,
                            to_bfloat16, to_complex64, to_complex128, to_double, to_float, to_int32, to_int64,
                            transpose, zeros)
from .ops.bitcast_ops import bitcast
from .ops.check_ops import (Assert, add_check_numerics_ops, assert_equal, assert_greater, assert_greater_equal,
                            assert_integer, assert_less, assert_less_equal, assert_negative, assert_non_negative,
                            assert_non_positive, assert_none_equal, assert_positive, assert_rank, assert_type,
                            check_numerics)
from .ops.clip_ops import clip_by_global_norm, clip_by_norm, clip_by_value, global_norm
from .ops.control_flow_ops import case, cond, switch_case
from .ops.data_flow_ops import FIFOQueue, PaddingFIFOQueue, PriorityQueue, QueueBase, RandomShuffleQueue
from .ops.parsing_ops import (FixedLenFeature, FixedLenSequenceFeature, VarLenFeature, decode_csv, decode_raw,
                              parse_example, parse_single_example)
from .ops.file_ops import matching_files, read_file, write_file
from .ops.reader_ops import (FixedLengthRecordReader, IdentityReader, ReaderBase, TFRecordReader, TextLineReader,
                             WholeFileReader)
from .ops.core_ops import (constant, convert_to_tensor, convert_to_tensor_or_indexed_slices, group, guarantee_const,
                           identity, identity_n, is_symbolic_tensor, is_tensor, no_op, placeholder,
                           placeholder_with_default, register_tensor_conversion_function)
from .ops.division_ops import div, div_no_nan, floor_div, realdiv, scalar_mul, truncatediv, truncatemod
from .ops.cwise_ops import (ceil, cos, expm1, floor, floordiv, floormod, is_finite, is_inf, is_nan, log1p,
                            logical_and, logical_not, logical_or, logical_xor, mod, reciprocal, round, rsqrt, sin,
                            squared_difference, stop_gradient, tan, truediv)
from .ops.fill_ops import fill, lin_space, linspace, range
from .ops.functional_ops import foldl, foldr, map_fn, scan
from .ops.gather_ops import gather
from .ops.gradients import AggregationMethod, UnconnectedGradients, gradients, hessians
from .ops.custom_gradient import custom_gradient, grad_pass_through
from .ops.fingerprint_ops import fingerprint
from .ops.not_differentiable import NoGradient, NotDifferentiable, RegisterGradient, no_gradient
from .ops.lookup_ops import tables_initializer
from .ops.lookup_ops import tables_initializer as initialize_all_tables
from .ops.linalg_ops import einsum, eye, matrix_diag_part, matrix_transpose, norm, tensordot, trace
from .ops.linalg_ops import cross, tensor_diag as diag
from .ops.logging_ops import Print, print_v2 as print, timestamp
from .ops.math_ops import (abs, add, add_n, divide, equal, exp, greater, greater_equal, less, less_equal, log, matmul,
                           maximum, minimum, multiply, negative, not_equal, ones_like, pow, sign, sqrt, square,
                           subtract, where, where as where_v2, zeros_like)  # tg.where broadcasts, as where_v2
from .ops.math_ops import sparse_matmul
from .ops.mask_ops import broadcast_to, matrix_band_part, sequence_mask
from .ops.matrix_ops import cholesky, matrix_determinant, matrix_inverse, self_adjoint_eig, self_adjoint_eigvals
from .ops.activation_ops import log_sigmoid
from .ops.nn_ops import sigmoid, tanh
from .ops.pad_ops import pad, tile
from .ops.qr_ops import qr
from .ops.random_ops import random_normal, random_uniform, truncated_normal
from .ops.gamma_poisson_ops import random_gamma, random_poisson
from .ops.reduction_ops import (count_nonzero, reduce_all, reduce_any, reduce_logsumexp, reduce_max, reduce_mean,
                                reduce_min, reduce_prod, reduce_sum)
from .ops.reverse_ops import reverse, reverse_sequence, reverse_v2
from .ops.sampling_ops import multinomial, random_crop
from .ops.scan_ops import cumprod, cumsum
from .ops.script_ops import numpy_function, py_func
from .ops.scatter_ops import (scatter_add, scatter_div, scatter_max, scatter_min, scatter_mul, scatter_sub,
                              scatter_nd_add, scatter_nd_sub, scatter_nd_update, scatter_update)
from .ops.scatter_ops import batch_scatter_update
from .ops.segment_ops import boolean_mask, segment_mean, segment_sum, unsorted_segment_sum
from .ops.shape_ops import expand_dims, rank, size, squeeze
from .ops.shuffle_ops import random_shuffle
from .ops.slice_ops import slice
from .ops.strided_slice_ops import strided_slice
from .ops.sort_ops import argsort, sort, unique
from .ops.sparse_math_ops import (edit_distance, sparse_add, sparse_maximum, sparse_minimum, sparse_softmax,
                                  sparse_tensor_dense_matmul)
from .ops.sparse_reduction_ops import (sparse_reduce_max, sparse_reduce_max_sparse, sparse_reduce_sum,
                                       sparse_reduce_sum_sparse, sparse_segment_mean, sparse_segment_sqrt_n,
                                       sparse_segment_sum)
from .ops.sparse_slice_ops import sparse_reset_shape, sparse_slice, sparse_split, sparse_to_indicator
from .ops.sparse_ops import (sparse_concat, sparse_fill_empty_rows, sparse_reorder, sparse_reshape, sparse_retain,
                             sparse_tensor_to_dense, sparse_to_dense, sparse_transpose)
from .ops.indexed_slices import IndexedSlices, IndexedSlicesValue
from .ops.sparse_tensor import (SparseTensor, SparseTensorValue, convert_to_tensor_or_sparse_tensor,
                                sparse_placeholder)
from .ops.stack_ops import split, stack, unstack
from .ops.string_ops import (as_string, reduce_join, regex_replace, string_join, string_split, string_strip,
                             string_to_hash_bucket, string_to_hash_bucket_fast, string_to_hash_bucket_strong,
                             string_to_number, substr)
from .ops.trig_ops import acos, acosh, asin, asinh, atan, atan2, atanh, cosh, rint, sinh
from .ops.tuple_ops import tuple
from .ops.while_loop_ops import while_loop

# TF1's math_ops, array_ops and linalg_ops names beyond the above: special functions, segment reductions, diagonals,
# coordinate indexing, index arithmetic
from .ops.check_ops import is_non_decreasing, is_strictly_increasing
from .ops.clip_ops import clip_by_average_norm
from .ops.depth_space_ops import depth_to_space, space_to_depth
from .ops.diag_ops import matrix_diag, matrix_set_diag, tensor_diag_part as diag_part
from .ops.gather_nd_ops import (batch_gather, gather_nd, scatter_nd, tensor_scatter_nd_add, tensor_scatter_nd_max,
                                tensor_scatter_nd_min, tensor_scatter_nd_sub, tensor_scatter_nd_update)
from .ops.gather_nd_ops import (tensor_scatter_nd_add as tensor_scatter_add, tensor_scatter_nd_sub as tensor_scatter_sub,
                                tensor_scatter_nd_update as tensor_scatter_update)
from .ops.index_ops import bincount, invert_permutation, meshgrid, roll, setdiff1d
from .ops.segment_reduce_ops import (segment_max, segment_min, segment_prod, unsorted_segment_max,
                                     unsorted_segment_mean, unsorted_segment_min, unsorted_segment_prod,
                                     unsorted_segment_sqrt_n)
from .ops.special_ops import digamma, erf, erfc, lbeta, lgamma, polygamma, zeta
from .ops.complex_ops import angle, complex, conj, imag, real
from .ops.solve_ops import cholesky_solve, matrix_solve, matrix_solve_ls, matrix_triangular_solve, svd
from .ops.spectral_ops import fft, fft2d, fft3d, ifft, ifft2d, ifft3d
from . import bitwise, manip, signal, signal as spectral  # tf.spectral: TF1's older name of tf.signal's transforms
from .ops.depth_space_ops import (batch_to_space, batch_to_space_nd, required_space_to_batch_paddings, space_to_batch,
                                  space_to_batch_nd)
from .ops.type_checks import (assert_near, assert_proper_iterable, assert_rank_at_least, assert_rank_in,
                              assert_same_float_dtype, assert_scalar, is_numeric_tensor, verify_tensor_all_finite)
from .image.color import saturate_cast
from .image.patches import extract_image_patches
from .ops.partition_ops import dynamic_partition, dynamic_stitch
from .ops.search_ops import (confusion_matrix, histogram_fixed_width, histogram_fixed_width_bins, searchsorted,
                             unravel_index)
from .ops.shape_functions import (accumulate_n, broadcast_dynamic_shape, broadcast_static_shape, ensure_shape,
                                  parallel_stack, repeat, shape_n)
from .ops.sort_ops import unique_with_counts
from .ops.tensor_util import get_static_value

# sessions and their options (TF1's client/, protobuf/config.proto)
from .client.config import ConfigProto, GPUOptions, GraphOptions, OptimizerOptions, RunMetadata, RunOptions
from .client.session import InteractiveSession, Session
from .compat.v1 import (control_flow_v2_enabled, disable_control_flow_v2, disable_eager_execution,
                        disable_resource_variables, disable_tensor_equality, disable_v2_behavior,
                        disable_v2_tensorshape, enable_eager_execution, enable_v2_behavior, executing_eagerly,
                        executing_eagerly_outside_functions, resource_variables_enabled)

# summaries and training (TF1's summary/, training/)
from .summary.protos import Event, HistogramProto, LogMessage, SessionLog, Summary, SummaryMetadata
from .train.meta_graph import import_graph_def
from .train.moving_averages import moving_average_variables

# ringflow's data parallelism
from .parallel import ps  # registers tf.train.Server's cluster runtime and the mpi:// session target
from .parallel.distributed import DistributedOptimizer, broadcast_variables

from .unsupported import MISSING as _MISSING, missing_names as _missing_names

# TF1 names ringflow lacks fail with what to use instead (unsupported.py), not as a bare AttributeError
__getattr__ = _missing_names(__name__, have="see README, 'Porting a TF1 program'", reasons=_MISSING)
