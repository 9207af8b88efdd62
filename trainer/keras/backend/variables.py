"""Keras' variables, placeholders and constants, their shapes, and their values read and written."""
import numpy as np

from ...framework import dtypes
from ...framework.tensor import Tensor
from ...ops.array_ops import shape as tf_shape
from ...ops.core_ops import constant as tf_constant, placeholder as tf_placeholder
from ...ops.logging_ops import Print
from ...ops.sparse_ops import sparse_tensor_to_dense
from ...ops.sparse_tensor import SparseTensor
from ...ops.variables import Variable, assign, assign_add, assign_sub
from .config import floatx
from .session import get_session


def variable(value, dtype=None, name=None, constraint=None):
    """A variable holding `value` (initialized when get_session() next hands out the session)."""
    value = np.asarray(value, dtype=dtype or floatx())
    v = Variable(value, dtype=value.dtype, name=name, constraint=constraint)
    return v


def constant(value, dtype=None, shape=None, name=None):
    """A constant tensor (floatx by default)."""
    return tf_constant(value, dtype=dtype or floatx(), shape=shape, name=name or "Const")


def placeholder(shape=None, ndim=None, dtype=None, sparse=False, name=None):
    """A placeholder of `shape` (or `ndim` unknown dims)."""
    if sparse:
        raise ValueError("sparse placeholders are not available in ringflow; feed dense arrays")
    if shape is None and ndim:
        shape = (None,) * ndim
    return tf_placeholder(dtype or floatx(), shape=shape, name=name)


def is_placeholder(x):
    """Whether `x` is a placeholder tensor."""
    return isinstance(x, Tensor) and x.op.type == "Placeholder"


def is_tensor(x):
    return isinstance(x, Tensor)


def is_keras_tensor(x):
    """Whether `x` came out of a Keras layer (an Input or a layer call)."""
    return isinstance(x, Tensor) and hasattr(x, "_keras_history")


def int_shape(x):
    """The static shape as a tuple of ints and None."""
    shape = x.shape if isinstance(x, Tensor) else np.shape(x)
    if getattr(shape, "ndims", 0) is None:
        return None
    return tuple(getattr(d, "value", d) for d in shape)


def ndim(x):
    shape = int_shape(x)
    return None if shape is None else len(shape)


def dtype(x):
    """The dtype's name ('float32')."""
    return dtypes.as_dtype(x.dtype).name


def shape(x):
    """The dynamic shape as a tensor."""
    return tf_shape(x)


def eval(x):  # noqa: A001 - Keras' name
    """The value of `x` as numpy, run in Keras' session."""
    return get_session().run(x)


def get_value(x):
    """A variable's (or tensor's) value as numpy."""
    return get_session().run(x)


def batch_get_value(xs):
    """The values of several variables in one run."""
    return get_session().run(list(xs)) if xs else []


def set_value(x, value):
    """Assign a numpy value to a variable."""
    batch_set_value([(x, value)])


def batch_set_value(tuples):
    """Assign several (variable, value) pairs in one run."""
    if tuples:
        session = get_session()  # initializes first, so no later initialization undoes the assignment
        for v, value in tuples:
            v.load(np.asarray(value, dtype=v.dtype), session=session)


def zeros(shape, dtype=None, name=None):  # noqa: A002
    return variable(np.zeros(shape), dtype, name)


def ones(shape, dtype=None, name=None):  # noqa: A002
    return variable(np.ones(shape), dtype, name)


def count_params(x):
    return int(np.prod(int_shape(x)))


def update(x, new_x):
    return assign(x, new_x)


def update_add(x, increment):
    return assign_add(x, increment)


def update_sub(x, decrement):
    return assign_sub(x, decrement)


def eye(size, dtype=None, name=None):
    """A variable holding the size x size identity matrix (Keras makes it a variable)."""
    return variable(np.eye(size), dtype=dtype, name=name)


def cast_to_floatx(x):
    """x as a numpy array of Keras' float type."""
    return np.asarray(x, dtype=floatx())


def is_sparse(tensor):
    return isinstance(tensor, SparseTensor)


def to_dense(tensor):
    """A sparse tensor made dense; other tensors as they are."""
    return sparse_tensor_to_dense(tensor) if is_sparse(tensor) else tensor


def print_tensor(x, message=""):
    """x, printing `message` and its value each time it is evaluated."""
    return Print(x, [x], message)


def moving_average_update(x, value, momentum):
    """x = x * momentum + value * (1 - momentum), as an op."""
    return assign_sub(x, (x - value) * (1 - momentum))


def random_uniform_variable(shape, low, high, dtype=None, name=None, seed=None):
    rng = np.random.RandomState(seed)
    return variable(rng.uniform(low, high, size=shape), dtype, name)


def random_normal_variable(shape, mean, scale, dtype=None, name=None, seed=None):
    rng = np.random.RandomState(seed)
    return variable(rng.normal(mean, scale, size=shape), dtype, name)
