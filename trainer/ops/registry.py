"""The op registry: each op type's forward kernel, shape/dtype inference and gradient, side by side."""
import functools

import numpy as np

from ..graph import Tensor, get_default_graph


class OpDef:
    """How to run, shape and differentiate one op type.

    forward(*arrays, **attrs) computes a pure op's outputs; stateful ops give kernel(op, session)
    instead, a factory returning that callable. infer(*input_tensors, **attrs) returns a list of
    (shape, dtype), one per output. grad(op, *output_grads) returns one gradient Tensor (or None)
    per input. `view` marks ops whose output may share memory with input 0; `ref_inputs` counts the
    leading inputs that are variables updated in place (passed by reference, not read). `fresh` ops
    always return new arrays, and `inplace`, where set, computes the op into its input 0's buffer: the
    session uses it when that buffer is fresh and dead after the op. `persistent` ops return buffers
    that outlive the run (a variable's storage, reused communication buckets): fetches of them are copied.
    `destinations(op)` gives, per input, a buffer the op would copy that input into (or None), and
    `into(out, *arrays, **attrs)` computes an op straight into `out`: when an op with `into` feeds only
    such an input, the session has it write there and the copy disappears.
    """

    fresh = False
    inplace = None
    persistent = False
    destinations = None
    into = None

    def __init__(self, op_type, forward, kernel, infer, grad, view, ref_inputs, constant):
        self.type, self.forward, self.kernel, self.infer = op_type, forward, kernel, infer
        self.grad, self.view, self.ref_inputs, self.constant = grad, view, ref_inputs, constant


OPS = {}


def register(op_type, forward=None, *, kernel=None, infer=None, grad=None, view=False, ref_inputs=0,
             constant=False):
    """Register an op type; returns its OpDef."""
    if op_type in OPS:
        raise ValueError(f"Op type {op_type!r} is already registered")
    OPS[op_type] = OpDef(op_type, forward, kernel, infer or infer_broadcast, grad, view, ref_inputs, constant)
    return OPS[op_type]


def register_gradient(op_type):
    """Decorator setting the gradient rule of a registered op type."""
    def decorate(fn):
        OPS[op_type].grad = fn
        return fn
    return decorate


def op_def(op_type):
    try:
        return OPS[op_type]
    except KeyError:
        raise NotImplementedError(f"No op type {op_type!r} is registered; known: {sorted(OPS)}") from None


def make_kernel(op, session):
    """The callable that computes `op`'s outputs from its input arrays in `session`."""
    d = op_def(op.type)
    if d.kernel is not None:
        return d.kernel(op, session)
    return functools.partial(d.forward, **op.attrs) if op.attrs else d.forward


def apply_op(op_type, inputs, name=None, **attrs):
    """Build an op of `op_type` from input Tensors; returns its Tensor (or tuple of Tensors)."""
    inputs = list(inputs)
    graph = inputs[0].graph if inputs else get_default_graph()
    specs = op_def(op_type).infer(*inputs, **attrs)
    op = graph.create_op(op_type, inputs, specs, name=name, attrs=attrs)
    return op.outputs[0] if len(op.outputs) == 1 else op.outputs


def broadcast_shapes(*shapes):
    """numpy broadcasting on static shapes with None for unknown dims (None rank if any rank is unknown)."""
    if any(s is None or getattr(s, "ndims", 0) is None for s in shapes):  # TensorShape(None): unknown rank
        return None
    rank = max((len(s) for s in shapes), default=0)
    out = []
    for dims in zip(*[(1,) * (rank - len(s)) + tuple(s) for s in shapes]):
        known = {d for d in dims if d is not None and d != 1}
        if len(known) > 1:
            raise ValueError(f"Shapes {', '.join(map(str, shapes))} cannot be broadcast together: "
                             f"dimensions {sorted(known)} differ")
        if known:
            out.append(known.pop())
        elif None in dims:
            out.append(None)
        else:
            out.append(1)
    return tuple(out)


def infer_broadcast(*inputs, **attrs):
    """Default inference: numpy broadcasting of the inputs, the dtype of the first input."""
    return [(broadcast_shapes(*[t.shape for t in inputs]), inputs[0].dtype)]


def infer_same(x, *rest, **attrs):
    """Output has the shape and dtype of the first input."""
    return [(x.shape, x.dtype)]


def check_same_dtype(op_type, tensors):
    dtypes = {t.dtype for t in tensors}
    if len(dtypes) > 1:
        desc = ", ".join(f"{t.name!r} ({t.dtype.name})" for t in tensors)
        raise TypeError(f"{op_type} needs inputs of one dtype, got {desc}; use tg.cast to convert")


def is_tensor(x):
    return isinstance(x, Tensor)


def get_array_module(x):
    """numpy, or cupy when `x` is a CuPy array (CuPy is imported only if it is already loaded)."""
    module = type(x).__module__
    if module.startswith("cupy"):
        import cupy
        return cupy
    return np
