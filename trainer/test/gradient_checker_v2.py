"""TF's second gradient checker (tensorflow.python.ops.gradient_checker_v2, in TF 1.15 beside the first):
compute_gradient(f, xs) builds f on placeholders and compares its Jacobians, and max_error the pairs.

Graph mode is ringflow's only mode, so this is the checker's graph-mode path: tensors among xs are evaluated
first, then f runs on placeholders of their dtypes and shapes in the default session, and each Jacobian is
gradient_checker's pair, transposed to the (y.size, x.size) layout of this checker.
"""
import numpy as np

from ..framework.stacks import get_default_session
from ..framework.tensor import Tensor
from ..ops.core_ops import convert_to_tensor, placeholder
from .gradient_checker import compute_gradient as compute_gradient_v1

# TF's default step: a power of two, so x +- delta is exact and the differences carry less rounding noise
DEFAULT_DELTA = 1.0 / 1024


def compute_gradient(f, x, delta=None):
    """(symbolic Jacobians, numerical Jacobians), a tuple each with one (y.size, x_i.size) array per x_i in the
    list x (arrays or Tensors); f takes the xs and returns one tensor."""
    if not isinstance(x, (list, tuple)):
        raise ValueError(f"compute_gradient takes a list of the function's arguments as x, got {x!r}: wrap it in "
                         "a list")
    sess = get_default_session()
    if sess is None:
        raise ValueError("gradient_checker_v2.compute_gradient runs in the default session, and there is none: "
                         "call it inside `with tg.Session():` or a test's `with self.cached_session():`")
    values = [sess.run(xi) if isinstance(xi, Tensor) else np.asarray(xi) for xi in x]
    inputs = [placeholder(v.dtype, v.shape) for v in values]
    y = convert_to_tensor(f(*inputs))
    feeds = dict(zip(inputs, values))
    y_shape = sess.run(y, feeds).shape
    symbolic, numerical = [], []
    for i, (xi, value) in enumerate(zip(inputs, values)):
        others = {t: v for j, (t, v) in enumerate(feeds.items()) if j != i}
        sym, num = compute_gradient_v1(xi, value.shape, y, y_shape, x_init_value=value,
                                       delta=DEFAULT_DELTA if delta is None else delta, extra_feed_dict=others)
        symbolic.append(sym.T)
        numerical.append(num.T)
    return tuple(symbolic), tuple(numerical)


def max_error(grad1, grad2):
    """The largest absolute difference between the Jacobians of two compute_gradient results' halves."""
    error = 0.0
    for j1, j2 in zip(grad1, grad2):
        if np.size(j1) or np.size(j2):
            error = max(error, float(np.fabs(np.asarray(j1) - np.asarray(j2)).max()))
    return error
