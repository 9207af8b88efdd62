"""Op definitions; importing this package registers every op type."""
from . import (array_ops, conv_ops, core_ops, math_ops, nn_ops, operators, random_ops,  # noqa: F401
               reduction_ops, state_ops)
from . import activation_ops, clip_ops, elementwise_ops, gather_ops, nn_impl, shape_ops  # noqa: F401,E402
