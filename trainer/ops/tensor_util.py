"""Helpers for building ops the TF1 way: values known while building, axes, and TF1's deprecated keyword aliases."""
import numpy as np

from ..framework.tensor import Tensor


def constant_value(value):
    """The value of `value` if it is known while building (a Python/numpy value, a Const, a fully known
    Shape), else None."""
    if not isinstance(value, Tensor):
        return np.asarray(value)
    op = value.op
    if op.type == "Const":
        return op.attrs["value"]
    if op.type == "Shape" and op.inputs[0].ndim is not None and None not in op.inputs[0].shape:
        return np.array(op.inputs[0].shape, dtype=np.int32)
    if op.type in ("Identity", "Cast"):
        known = constant_value(op.inputs[0])
        return None if known is None else np.asarray(known).astype(value.dtype)
    if op.type == "Pack":  # TF1 folds a packed list of known values too ([2, 3] given with a Tensor beside)
        known = [constant_value(t) for t in op.inputs]
        return None if any(k is None for k in known) else np.stack(known, axis=op.attrs["axis"])
    return None


def holds_tensor(value):
    """Whether `value` is a list or tuple with a Tensor somewhere inside (TF1 packs such lists)."""
    return isinstance(value, (list, tuple)) and any(isinstance(v, Tensor) or holds_tensor(v) for v in value)


def argument_lookup(new_name, new_value, old_name, old_value):
    """The value of a keyword that TF1 also accepts under an older name (axis / reduction_indices, ...)."""
    if new_value is not None and old_value is not None:
        raise ValueError(f"Cannot specify both {old_name!r} and {new_name!r}: {old_name} is TF1's older name "
                         f"for {new_name}; pass only one")
    return new_value if new_value is not None else old_value


def static_shape(tensor):
    """The static shape of `tensor` as a plain tuple of int/None, or None when even its rank is unknown."""
    if tensor.ndim is None:
        return None
    return tuple(None if d is None else int(d) for d in tensor.shape)


def shape_of(x, sizes):
    """The shape a gradient op reads from its input `x`: x's own, or with `sizes` (the graphs TensorFlow writes
    give Conv2DBackpropInput's input_sizes, Conv2DBackpropFilter's filter_sizes, AvgPoolGrad's orig_input_shape
    and StridedSliceGrad's shape as tensors) x's values."""
    if not sizes:
        return x.shape
    return tuple(int(d) for d in (x.get() if hasattr(x, "get") else np.asarray(x)).ravel())


def static_shape_of(x, sizes):
    """What is known of shape_of(x, sizes) while the graph is built."""
    if not sizes:
        return x.shape
    known = constant_value(x)
    return None if known is None else tuple(int(d) for d in np.ravel(known))


def static_ints(value, what):
    """A list of ints known while building (Python values or a constant Tensor), else a clear error."""
    known = constant_value(value)
    if known is None:
        raise NotImplementedError(f"{what} {value.name!r} is computed while the graph runs; "
                                  "give it as Python ints (or a constant)")
    return [int(v) for v in np.ravel(known)]


def static_int(value, what):
    """One int known while building (a Python int or a scalar constant Tensor), else a clear error."""
    known = static_ints(value, what)
    if len(known) != 1 or np.ndim(constant_value(value)) != 0:
        raise ValueError(f"{what} must be a scalar int, got {value!r}")
    return known[0]


def normalize_axis(axis, rank, what):
    """`axis` counted from 0 (negative counts from the end), checked against `rank` where that is known."""
    if rank is None:
        return axis
    if not -rank <= axis < rank:
        raise ValueError(f"{what}: axis {axis} is out of range for a tensor of rank {rank}")
    return axis % rank


def get_static_value(tensor, partial=False):
    """tf.get_static_value: the value of `tensor` as a numpy array when it is known while building, else None."""
    known = constant_value(tensor)
    return None if known is None else np.asarray(known)
