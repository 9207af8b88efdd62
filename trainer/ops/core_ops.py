"""Sources and plumbing: constants, placeholders, identity, no-op and group."""
import numpy as np

from .. import dtypes
from ..graph import Tensor, get_default_graph
from .registry import apply_op, register


def _const_infer(value, dtype):
    return [(value.shape, value.dtype)]


def _placeholder_kernel(op, session):
    raise ValueError(f"You must feed a value for placeholder tensor {op.name!r} with dtype "
                     f"{op.attrs['dtype'].name} and shape {op.attrs['shape']}")


register("Const", infer=_const_infer, constant=True)
register("Placeholder", kernel=_placeholder_kernel,
         infer=lambda dtype, shape: [(shape, dtype)])
register("Identity", lambda x: x, view=True, grad=lambda op, g: [g])
register("NoOp", kernel=lambda op, session: (lambda *args: None), infer=lambda *a: [])


def constant(value, dtype=None, shape=None, name="Const"):
    """A constant tensor; Python floats default to float32 and ints to int32 (TF1's rule)."""
    if isinstance(value, Tensor):
        raise TypeError(f"tg.constant needs a value, got the Tensor {value.name!r}; use tg.identity")
    dtype = dtypes.as_dtype(dtype) if dtype is not None else dtypes.default_dtype_for(value)
    try:
        array = np.array(value, dtype=dtype)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"tg.constant cannot convert {value!r} to {dtype.name}: {exc}") from None
    if shape is not None:
        shape = tuple(shape)
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


def placeholder(dtype, shape=None, name=None):
    """A tensor whose value must be fed at Session.run; None dims (or shape=None) accept any size."""
    dtype = dtypes.as_dtype(dtype)
    if shape is not None:
        shape = tuple(None if d is None or d == -1 else int(d) for d in shape)
    graph = get_default_graph()
    op = graph.create_op("Placeholder", [], [(shape, dtype)], name=name or "Placeholder",
                         attrs={"dtype": dtype, "shape": shape})
    return op.outputs[0]


def convert_to_tensor(value, dtype=None, name=None):
    """A Tensor as is (checking `dtype`), anything else as a constant of `dtype`."""
    if isinstance(value, Tensor):
        if dtype is not None and value.dtype != dtypes.as_dtype(dtype):
            raise TypeError(f"Tensor {value.name!r} has dtype {value.dtype.name}, expected "
                            f"{dtypes.as_dtype(dtype).name}; use tg.cast to convert")
        return value
    return constant(value, dtype=dtype, name=name or "Const")


def identity(x, name=None):
    """Return a tensor with the same value as x."""
    return apply_op("Identity", [convert_to_tensor(x)], name=name or "Identity")


def no_op(name=None, control_inputs=()):
    graph = get_default_graph()
    return graph.create_op("NoOp", [], [], name=name or "NoOp", control_inputs=control_inputs)


def group(*inputs, name=None):
    """An operation that runs all of `inputs` (Operations or Tensors)."""
    ops = [x.op if isinstance(x, Tensor) else x for x in inputs]
    graph = ops[0].graph if ops else get_default_graph()
    return graph.create_op("NoOp", [], [], name=name or "group_deps", control_inputs=ops)
