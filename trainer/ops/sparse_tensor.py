"""TF1's SparseTensor: three dense tensors (int64 indices [N, rank], values [N], int64 dense_shape [rank]) that stand
for one tensor whose other entries are zero, and SparseTensorValue, what Session.run returns for it and takes as
its feed."""
import collections

import numpy as np

from ..framework import dtypes
from ..framework.stacks import resolve_session
from ..framework.tensor import Tensor
from ..framework.tensor_shape import TensorShape
from .core_ops import convert_to_tensor, placeholder, placeholder_with_default
from .tensor_util import constant_value


class SparseTensorValue(collections.namedtuple("SparseTensorValue", ["indices", "values", "dense_shape"])):
    """A SparseTensor's value: numpy indices, values and dense_shape (what Session.run returns for one)."""


class SparseTensor:
    """A sparse tensor: the entries `values[i]` at `indices[i]` of a tensor of shape `dense_shape`, zero elsewhere."""

    def __init__(self, indices, values, dense_shape):
        self._indices = convert_to_tensor(indices, dtype=None if isinstance(indices, Tensor) else dtypes.int64,
                                          name="indices")
        self._values = convert_to_tensor(values, name="values")
        self._dense_shape = convert_to_tensor(dense_shape, dtype=None if isinstance(dense_shape, Tensor)
                                              else dtypes.int64, name="dense_shape")
        for part, tensor in (("indices", self._indices), ("dense_shape", self._dense_shape)):
            if tensor.dtype != dtypes.int64:  # TF1's conversion to int64 refuses other dtypes with a ValueError
                raise ValueError(f"SparseTensor's {part} must be int64, got {tensor.name!r} of dtype "
                                 f"{tensor.dtype.name}; cast it with tf.cast(..., tf.int64)")
        known = constant_value(self._dense_shape)
        rank = self._dense_shape.shape.as_list()[0] if self._dense_shape.ndim == 1 else None
        self._shape = (TensorShape([int(d) if d >= 0 else None for d in np.ravel(known)]) if known is not None
                       else TensorShape(None if rank is None else [None] * rank))

    @classmethod
    def from_value(cls, sparse_tensor_value):
        """A SparseTensor as is, or one made of a SparseTensorValue's constants."""
        if isinstance(sparse_tensor_value, SparseTensor):
            return sparse_tensor_value
        return cls(*sparse_tensor_value)

    indices = property(lambda self: self._indices, doc="int64 [N, rank]: where the values are")
    values = property(lambda self: self._values, doc="[N]: the values at those indices")
    dense_shape = property(lambda self: self._dense_shape, doc="int64 [rank]: the dense tensor's shape")
    dtype = property(lambda self: self._values.dtype)
    graph = property(lambda self: self._values.graph)
    op = property(lambda self: self._values.op)
    shape = property(lambda self: self._shape, doc="the static dense shape, a TensorShape")

    def get_shape(self):
        return self._shape

    def set_shape(self, shape):
        """Refine the static dense shape with what the caller knows; ValueError when it contradicts it."""
        self._shape = self._shape.merge_with(shape)

    def consumers(self):
        return sorted({op for part in (self._indices, self._values, self._dense_shape) for op in part.consumers()},
                      key=lambda op: op.name)

    def eval(self, feed_dict=None, session=None):
        """The SparseTensorValue of this sparse tensor in `session` (default: the current default session)."""
        return resolve_session(session, self._values).run(self, feed_dict)

    def __repr__(self):
        return f"SparseTensor(indices={self._indices!r}, values={self._values!r}, dense_shape={self._dense_shape!r})"


def is_sparse(x):
    return isinstance(x, (SparseTensor, SparseTensorValue))


def convert_to_tensor_or_sparse_tensor(value, dtype=None, name=None):
    """A SparseTensor (or SparseTensorValue) as a SparseTensor, anything else through convert_to_tensor."""
    if is_sparse(value):
        value = SparseTensor.from_value(value)
        if dtype is not None and value.dtype != dtypes.as_dtype(dtype):
            raise TypeError(f"Sparse dtype mismatch: the SparseTensor has {value.dtype.name} values, "
                            f"{dtypes.as_dtype(dtype).name} was asked for")
        return value
    return convert_to_tensor(value, dtype=dtype, name=name)


def sparse_placeholder(dtype, shape=None, name=None):
    """A SparseTensor to feed at Session.run with a SparseTensorValue (or an (indices, values, shape) tuple); a
    given `shape` (None for an unknown dim) is its static shape and the dense_shape fed by default (-1 unknown)."""
    shape = TensorShape(shape)
    rank = shape.ndims
    values = placeholder(dtype, [None], name=f"{name}/values" if name else None)
    indices = placeholder(dtypes.int64, [None, rank], name=f"{name}/indices" if name else None)
    if rank is None:
        dense_shape = placeholder(dtypes.int64, [None], name=f"{name}/shape" if name else None)
    else:
        default = np.array([-1 if d is None else d for d in shape.as_list()], np.int64)
        dense_shape = placeholder_with_default(default, [rank], name=f"{name}/shape" if name else None)
    sparse = SparseTensor(indices, values, dense_shape)
    sparse.set_shape(shape)
    return sparse
