"""Sources and plumbing: constants, placeholders, identity, no-op and group."""
import numpy as np

from ..framework import dtypes
from ..framework.tensor import Tensor
from ..framework.graph import get_default_graph
from ..framework.tensor_shape import TensorShape
from ..framework.registry import apply_op, register
from .tensor_util import holds_tensor


def _const_infer(value, dtype=None):  # an imported GraphDef gives the value alone
    return [(value.shape, value.dtype)]


def _placeholder_kernel(op, session):
    raise ValueError(f"You must feed a value for placeholder tensor {op.name!r} with dtype "
                     f"{op.attrs['dtype'].name} and shape {op.attrs['shape']}")


def _with_default_infer(x, shape):
    if not x.shape.is_compatible_with(shape):
        raise ValueError(f"placeholder_with_default: the default {x.name!r} has shape {x.shape}, which does "
                         f"not fit the placeholder's shape {shape}")
    return [(shape, x.dtype)]


register("Const", infer=_const_infer, constant=True)
register("Placeholder", kernel=_placeholder_kernel,
         infer=lambda dtype, shape: [(shape, dtype)])
register("Identity", lambda x: x, view=True, grad=lambda op, g: [g])
# TF1's promise that the value will not change while the graph runs (a hint to its optimizer): an identity here
register("GuaranteeConst", lambda x: x, view=True)
# TF's Snapshot: a copy, for a value read before an in-place assignment that the same run may do later
register("Snapshot", lambda x: x.copy(), fresh=True, grad=lambda op, g: [g])
register("PlaceholderWithDefault", lambda x, shape: x, infer=_with_default_infer, view=True,
         grad=lambda op, g: [g])
register("NoOp", kernel=lambda op, session: (lambda *args: None), infer=lambda *a: [])


def constant(value, dtype=None, shape=None, name="Const"):
    """A constant tensor; Python floats default to float32 and ints to int32 (TF1's rule)."""
    if isinstance(value, Tensor):
        raise TypeError(f"tg.constant needs a value, got the Tensor {value.name!r}; use tg.identity")
    dtype = dtypes.as_dtype(dtype) if dtype is not None else _default_dtype(value)
    _refuse_lossy_python_values(value, dtype)
    try:
        array = as_string_array(value) if dtype == dtypes.string else np.array(value, dtype=dtype)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"tg.constant cannot convert {value!r} to {dtype.name}: {exc}") from None
    if shape is not None:
        shape = tuple(TensorShape(shape).as_list())
        if array.size == 1:
            array = np.full(shape, array.reshape(()), dtype=dtype)
        elif array.size == int(np.prod(shape)):
            array = array.reshape(shape)
        else:
            raise ValueError(f"tg.constant: {array.size} values cannot fill shape {shape}")
    array.setflags(write=False)
    graph = get_default_graph()
    op = graph.create_op("Const", [], [(array.shape, array.dtype)], name=name, attrs={"value": array})
    return op.outputs[0]


def _refuse_lossy_python_values(value, dtype):
    """TF1 converts no Python float to an integer dtype and no Python number to bool: TypeError, as there."""
    if isinstance(value, (np.ndarray, np.generic)) or not isinstance(value, (int, float, list, tuple)):
        return
    if isinstance(value, (list, tuple)):
        array = np.asarray(value)
        kind = array.dtype.kind if array.size else "b"  # [] is numpy's float64, yet TF1 takes it for any dtype
    else:
        kind = type(value).__name__[0]
    lossy = (dtype.kind in "iu" and kind == "f") or (dtype == dtypes.bool and kind in "iuf")
    if lossy:
        raise TypeError(f"Expected {dtype.name}, but got {value!r} of type {type(value).__name__!r}: TF1 does not "
                        f"convert it to {dtype.name}; give a value of that type, or tg.cast a Tensor")


def _default_dtype(value):
    kind = np.asarray(value).dtype.kind if not isinstance(value, (str, bytes)) else "S"
    return dtypes.string if kind in "SUO" else dtypes.default_dtype_for(value)


def as_string_array(value):
    """`value` as a tg.string array: an object array whose elements are bytes (str is UTF-8 encoded)."""
    array = np.array(value, dtype=object)
    flat = array.reshape(-1)
    for i, item in enumerate(flat):
        if isinstance(item, str):
            flat[i] = item.encode("utf-8")
        elif not isinstance(item, bytes):
            raise TypeError(f"A tg.string value holds bytes or str, got {item!r} in {value!r}")
    return array


def placeholder(dtype, shape=None, name=None):
    """A tensor whose value must be fed at Session.run; None dims (or shape=None) accept any size."""
    dtype = dtypes.as_dtype(dtype)
    shape = TensorShape(shape)
    graph = get_default_graph()
    op = graph.create_op("Placeholder", [], [(shape, dtype)], name=name or "Placeholder",
                         attrs={"dtype": dtype, "shape": shape})
    return op.outputs[0]


def placeholder_with_default(input, shape, name=None):  # noqa: A002 - TF1's argument name
    """A tensor that takes `input`'s value unless a value is fed for it."""
    return apply_op("PlaceholderWithDefault", [convert_to_tensor(input)], name=name or "PlaceholderWithDefault",
                    shape=TensorShape(shape))


def convert_to_tensor(value, dtype=None, name=None):
    """A Tensor as is (checking `dtype`), a list holding Tensors stacked into one ("packed", as TF1 does),
    anything else as a constant of `dtype`."""
    if isinstance(value, Tensor):
        if dtype is not None and value.dtype != dtypes.as_dtype(dtype):
            raise TypeError(f"Tensor {value.name!r} has dtype {value.dtype.name}, expected "
                            f"{dtypes.as_dtype(dtype).name}; use tg.cast to convert")
        return value
    for _, base_type, convert in _CONVERSIONS:
        if isinstance(value, base_type):
            converted = convert(value, dtype=dtype, name=name, as_ref=False)
            if converted is not NotImplemented:
                return _checked_conversion(convert, value, converted, dtype)
    if holds_tensor(value):
        return _autopack(value, dtype, name or "packed")
    return constant(value, dtype=dtype, name=name or "Const")


_CONVERSIONS = []  # (priority, base type, function), lowest priority first, in order of registration among equals


def register_tensor_conversion_function(base_type, conversion_func, priority=100):
    """Have convert_to_tensor (and so every op) take instances of `base_type` (a type or a tuple of types) by
    calling conversion_func(value, dtype=None, name=None, as_ref=False), which returns a Tensor or NotImplemented
    (to let the next function try); lower priorities are tried first."""
    types = base_type if isinstance(base_type, tuple) else (base_type,)
    if not all(isinstance(t, type) for t in types):
        raise TypeError(f"register_tensor_conversion_function: base_type must be a type or a tuple of types, got "
                        f"{base_type!r}")
    if any(issubclass(t, (int, float, np.generic, np.ndarray)) for t in types):
        raise TypeError(f"Cannot register conversions for Python numeric types and NumPy scalars and arrays, got "
                        f"{base_type!r}: they always become constants")
    if not callable(conversion_func):
        raise TypeError(f"register_tensor_conversion_function: conversion_func must be callable, got "
                        f"{conversion_func!r}")
    _CONVERSIONS.append((priority, base_type, conversion_func))
    _CONVERSIONS.sort(key=lambda entry: entry[0])


def _checked_conversion(convert, value, converted, dtype):
    if not isinstance(converted, Tensor):
        raise RuntimeError(f"Conversion function {convert!r} for type {type(value).__name__} returned non-Tensor: "
                           f"{converted!r}")
    if dtype is not None and converted.dtype != dtypes.as_dtype(dtype):
        raise RuntimeError(f"Conversion function {convert!r} for type {type(value).__name__} returned a Tensor of "
                           f"dtype {converted.dtype.name} where {dtypes.as_dtype(dtype).name} was asked for")
    return converted


def _first_dtype(value):
    for v in value:
        found = v.dtype if isinstance(v, Tensor) else _first_dtype(v) if isinstance(v, (list, tuple)) else None
        if found is not None:
            return found
    return None


def _autopack(value, dtype, name):
    # TF1's autopacking: [tg.shape(x)[0], 10] becomes Pack(strided_slice, Const); the Python numbers take
    # the dtype of the Tensors beside them. "Pack" is registered by stack_ops.py, which imports this module.
    dtype = dtypes.as_dtype(dtype) if dtype is not None else _first_dtype(value)
    items = [convert_to_tensor(v, dtype=dtype) for v in value]
    return apply_op("Pack", items, name=name, axis=0)


def identity(x, name=None):
    """Return a tensor with the same value as x."""
    return apply_op("Identity", [convert_to_tensor(x)], name=name or "Identity")


def snapshot(x, name=None):
    """A copy of x's value when it is computed (unlike identity, never a view of a variable)."""
    return apply_op("Snapshot", [convert_to_tensor(x)], name=name or "Snapshot")


def no_op(name=None, control_inputs=()):
    graph = get_default_graph()
    return graph.create_op("NoOp", [], [], name=name or "NoOp", control_inputs=control_inputs)


def group(*inputs, name=None):
    """An operation that runs all of `inputs` (Operations or Tensors)."""
    ops = [x.op if isinstance(x, Tensor) else x for x in inputs]
    graph = ops[0].graph if ops else get_default_graph()
    return graph.create_op("NoOp", [], [], name=name or "group_deps", control_inputs=ops)


def identity_n(input, name=None):  # noqa: A002 - TF1's name
    """Each of `input`'s tensors, as is (TF1's IdentityN)."""
    return [identity(t) for t in input]


def convert_to_tensor_or_indexed_slices(value, dtype=None, name=None):
    """convert_to_tensor: ringflow's gradients are dense Tensors, never IndexedSlices."""
    return convert_to_tensor(value, dtype=dtype, name=name)


def guarantee_const(input, name=None):  # noqa: A002 - TF1's name
    """`input`, declared constant for the run (TF1 lets its graph optimizer fold it; here it is an identity)."""
    return apply_op("GuaranteeConst", [convert_to_tensor(input)], name=name or "GuaranteeConst")


def is_symbolic_tensor(tensor):
    """Whether `tensor` is a graph Tensor (every Tensor is: ringflow builds graphs only)."""
    return isinstance(tensor, Tensor)


def is_tensor(x):
    """Whether `x` is a graph Tensor (a Variable is one)."""
    return isinstance(x, Tensor)
