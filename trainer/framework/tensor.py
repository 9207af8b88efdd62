"""Tensor: one output of an Operation, with its static shape and dtype.

Separate from graph.py so the graph's bookkeeping (names, scopes, collections) reads on its own; a Tensor
knows its op and, through it, its graph, but nothing of how the graph is built.
"""
from . import stacks
from .dtypes import as_dtype
from .tensor_shape import TensorShape


class Tensor:
    """One output of an Operation; `name` is "op_name:index"."""

    # As TF's Tensor: above ndarray's 0, so `np.float64(2) * t` and `np.ones(3) + t` return NotImplemented from
    # numpy and Python calls Tensor.__rmul__/__radd__, instead of numpy converting the Tensor to an array.
    __array_priority__ = 100

    def __init__(self, op, index, shape, dtype):
        self.op = op
        self.value_index = index
        self._shape = TensorShape(shape)
        self.dtype = as_dtype(dtype)

    @property
    def name(self):
        return f"{self.op.name}:{self.value_index}"

    @property
    def graph(self):
        return self.op.graph

    @property
    def device(self):
        return self.op.device

    @property
    def shape(self):
        """The static shape, a TensorShape (a tuple of int/None; TensorShape(None) when the rank is unknown)."""
        return self._shape

    @property
    def ndim(self):
        return self._shape.ndims

    def get_shape(self):
        return self._shape

    def set_shape(self, shape):
        """Refine the static shape with what the caller knows; ValueError when it contradicts it."""
        try:
            self._shape = self._shape.merge_with(shape)
        except ValueError:
            raise ValueError(f"Tensor {self.name!r} has shape {self._shape}, which is not compatible with "
                             f"the shape {TensorShape(shape)} passed to set_shape") from None

    def consumers(self):
        """The operations that take this tensor as an input."""
        return [op for op in self.graph.operations if any(t is self for t in op.inputs)]

    def eval(self, feed_dict=None, session=None):
        """Run the graph up to this tensor in `session` (default: the current default session)."""
        return stacks.resolve_session(session, self).run(self, feed_dict)

    def __str__(self):
        # TF1's: print(x) shows unknown dims as "?" and leaves out the shape when the rank is unknown
        shape = "" if self.shape.ndims is None else f", shape={self.shape}"
        device = f", device={self.device}" if self.device else ""
        return f'Tensor("{self.name}"{shape}, dtype={self.dtype.name}{device})'

    def __repr__(self):
        return f"<tf.Tensor '{self.name}' shape={self.shape} dtype={self.dtype.name}>"

    __hash__ = object.__hash__

    def __bool__(self):
        raise TypeError(f"Using the tensor {self.name!r} as a Python bool is not allowed: its value is only "
                        "known when a Session runs it; use tg.where or compare values after Session.run")

    def __iter__(self):
        raise TypeError(f"Tensor {self.name!r} is not iterable: slice it with t[i] instead")

    def __array__(self, dtype=None, copy=None):
        raise TypeError(f"Tensor {self.name!r} has no value until a Session runs it: "
                        f"use sess.run({self.name!r}) to get a numpy array")


def format_shape(shape):
    if shape is None or isinstance(shape, TensorShape) and shape.ndims is None:
        return "<unknown>"
    return "(" + ", ".join("None" if d is None else str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
