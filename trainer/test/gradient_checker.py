"""TF1's tf.test.compute_gradient and compute_gradient_error: the Jacobian tg.gradients builds against central
differences, both run in the default session.

Both Jacobians have one row per element of x and one column per element of y (row-major). The symbolic one
feeds a one-hot dy per column and reads d(sum(dy * y))/dx; the numerical one moves each element of x by
+-delta and takes (y+ - y-) / (2 delta), in y's dtype, as TF1 does.
"""
import numpy as np

from ..framework.stacks import get_default_session
from ..ops.core_ops import placeholder
from ..ops.gradients import gradients


def compute_gradient(x, x_shape, y, y_shape, x_init_value=None, delta=1e-3, init_targets=None,
                     extra_feed_dict=None):
    """(symbolic, numerical) Jacobians of y with respect to x, each of shape (x.size, y.size); for a list of
    xs (with a list of shapes and of initial values), a list of such pairs."""
    sess = _session(y)
    if isinstance(x, list):
        x_init_value = [None] * len(x) if x_init_value is None else x_init_value
        dxs = [_symbolic_gradient(xi, y, y_shape) for xi in x]
        _initialize(init_targets, sess)
        return [_jacobians(sess, xi, si, y, y_shape, dx, dy, vi, delta, extra_feed_dict)
                for xi, si, (dx, dy), vi in zip(x, x_shape, dxs, x_init_value)]
    dx, dy = _symbolic_gradient(x, y, y_shape)
    _initialize(init_targets, sess)
    return _jacobians(sess, x, x_shape, y, y_shape, dx, dy, x_init_value, delta, extra_feed_dict)


def compute_gradient_error(x, x_shape, y, y_shape, x_init_value=None, delta=1e-3, init_targets=None,
                           extra_feed_dict=None):
    """The largest absolute difference between the symbolic and the numerical Jacobian (over all xs)."""
    found = compute_gradient(x, x_shape, y, y_shape, x_init_value, delta, init_targets, extra_feed_dict)
    error = 0.0
    for symbolic, numerical in found if isinstance(found, list) else [found]:
        if symbolic.size or numerical.size:
            error = max(error, float(np.fabs(symbolic - numerical).max()))
    return error


def _session(y):
    sess = get_default_session()
    if sess is None:
        raise ValueError(f"compute_gradient runs {y.name!r} in the default session, and there is none: call it "
                         "inside `with tg.Session():` or a test's `with self.cached_session():`")
    return sess


def _symbolic_gradient(x, y, y_shape):
    for t in (x, y):
        if not t.dtype.is_floating:
            raise NotImplementedError(f"compute_gradient handles real floating tensors; {t.name!r} is "
                                      f"{t.dtype.name}")
    with x.graph.as_default():
        dy = placeholder(y.dtype, tuple(y_shape), name="compute_gradient_dy")
        dx, = gradients(y, x, grad_ys=dy)
    if dx is None:
        raise ValueError(f"{y.name!r} does not depend on {x.name!r} (tg.gradients gives None): pass an x that "
                         "reaches y")
    return dx, dy


def _initialize(init_targets, sess):
    for target in init_targets or ():
        sess.run(target)


def _jacobians(sess, x, x_shape, y, y_shape, dx, dy, x_init_value, delta, extra_feed_dict):
    x_dtype = x.dtype.as_numpy_dtype
    if x_init_value is None:
        x_data = np.random.random_sample(x_shape).astype(x_dtype)
    else:
        if list(np.shape(x_init_value)) != list(x_shape):
            raise ValueError(f"x_shape = {list(x_shape)}, init_data shape = {list(np.shape(x_init_value))}")
        x_data = np.asarray(x_init_value, dtype=x_dtype)
    feeds = dict(extra_feed_dict or {})
    x_size, y_size = int(np.prod(x_shape)), int(np.prod(y_shape))

    symbolic = np.zeros((x_size, y_size), dtype=x_dtype)
    dy_data = np.zeros(y_size, dtype=y.dtype.as_numpy_dtype)
    for col in range(y_size):
        dy_data[col] = 1
        symbolic[:, col] = sess.run(dx, {**feeds, x: x_data, dy: dy_data.reshape(y_shape)}).ravel()
        dy_data[col] = 0

    numerical = np.zeros((x_size, y_size), dtype=x_dtype)
    scale = np.asarray(2 * delta, dtype=y.dtype.as_numpy_dtype)[()]
    for row in range(x_size):
        x_pos, x_neg = x_data.copy(), x_data.copy()
        x_pos.reshape(-1)[row] += delta
        x_neg.reshape(-1)[row] -= delta
        y_pos, y_neg = sess.run(y, {**feeds, x: x_pos}), sess.run(y, {**feeds, x: x_neg})
        numerical[row, :] = ((y_pos - y_neg) / scale).ravel()
    return symbolic, numerical
