"""ringflow's trainer: a TF1-style data-flow-graph executor (`import trainer as tg`)."""
from .threads import limit_blas_threads

limit_blas_threads()  # before numpy loads BLAS
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
from .gradients import gradients
from . import losses, nn, train  # noqa: E402
from .ops.random_ops import random_normal, random_uniform, truncated_normal
from .random_seed import set_random_seed
from .scopes import AUTO_REUSE, VariableScope, get_variable_scope, variable_scope
from .session import Session, get_default_session
from .variables import (Variable, get_variable, global_variables, global_variables_initializer,
                        trainable_variables, variables_initializer)
from .distributed import DistributedOptimizer, broadcast_variables  # noqa: E402  (data parallelism)
