"""Reductions over axes (sum, mean, max) and the broadcast that is their gradient."""
import numpy as np

from .core_ops import convert_to_tensor
from .math_ops import equal
from .registry import OPS, apply_op, register


def _axes(axis, rank):
    if axis is None:
        return None if rank is None else tuple(range(rank))
    axes = (axis,) if np.ndim(axis) == 0 else tuple(axis)
    if rank is None:
        return tuple(int(a) for a in axes)
    for a in axes:
        if not -rank <= a < rank:
            raise ValueError(f"Invalid reduction axis {a} for a tensor of rank {rank}")
    return tuple(sorted(int(a) % rank for a in axes))


def _reduce_infer(x, axis, keepdims):
    if x.shape is None:
        return [(None, x.dtype)]
    axes = _axes(axis, len(x.shape))
    shape = tuple(1 if i in axes else d for i, d in enumerate(x.shape) if keepdims or i not in axes)
    return [(shape, x.dtype)]


def _keep_shape(shape, axis):
    axes = range(len(shape)) if axis is None else [a % len(shape) for a in axis]
    return tuple(1 if i in axes else d for i, d in enumerate(shape))


def _reduce_grad_forward(g, x, axis, mean):
    """Broadcast the reduced gradient back over x's shape, scaled by 1/count for a mean."""
    if mean:
        g = np.true_divide(g, x.size // max(np.size(g), 1) or 1)
    if x.size <= 4096:  # filling a small array beats the Python overhead of a broadcast view
        return np.full(x.shape, g, dtype=x.dtype) if np.ndim(g) == 0 else \
            np.reshape(g, _keep_shape(x.shape, axis)) * np.ones(x.shape, dtype=x.dtype)
    return np.broadcast_to(np.reshape(g, _keep_shape(x.shape, axis)), x.shape)


def _reduce_grad_grad(op, gg):
    reducer = reduce_mean if op.attrs["mean"] else reduce_sum
    total = reducer(gg, axis=op.attrs["axis"], keepdims=True)
    return [apply_op("ReshapeLike", [total, op.inputs[0]], name="Reshape"), None]


register("ReduceGrad", _reduce_grad_forward, view=True, infer=lambda g, x, axis, mean: [(x.shape, g.dtype)],
         grad=_reduce_grad_grad)


def reduce_grad(g, x, axis, mean=False):
    return apply_op("ReduceGrad", [g, x], name="ReduceGrad", axis=axis, mean=mean)


def _reduce_kernel(fn):
    def make(op, session):
        axis, keepdims = op.attrs["axis"], op.attrs["keepdims"]
        if axis is None and not keepdims:
            return fn
        return lambda x: fn(x, axis=axis, keepdims=keepdims)
    return make


def _mean(x, axis=None, keepdims=False):
    total = np.add.reduce(x, axis=axis, keepdims=keepdims)
    return np.true_divide(total, x.size // max(np.size(total), 1) or 1, dtype=x.dtype if x.dtype.kind == "f" else None)


def _max_grad(op, g):
    x, axis = op.inputs[0], op.attrs["axis"]
    y = reduce_grad(op.outputs[0], x, axis)
    mask = apply_op("Cast", [equal(x, y)], dtype=x.dtype)
    count = reduce_sum(mask, axis=axis, keepdims=True)
    return [reduce_grad(g, x, axis) * mask / count]


register("Sum", kernel=_reduce_kernel(np.sum), infer=_reduce_infer,
         grad=lambda op, g: [reduce_grad(g, op.inputs[0], op.attrs["axis"])])
register("Mean", kernel=_reduce_kernel(_mean), infer=_reduce_infer,
         grad=lambda op, g: [reduce_grad(g, op.inputs[0], op.attrs["axis"], mean=True)])
register("Max", kernel=_reduce_kernel(np.max), infer=_reduce_infer, grad=_max_grad)


def _reduction(op_type, doc):
    def build(input_tensor, axis=None, keepdims=False, name=None):
        x = convert_to_tensor(input_tensor)
        axes = _axes(axis, x.ndim)
        if axes is not None and x.ndim is not None and len(axes) == x.ndim:
            axes = None
        return apply_op(op_type, [x], name=name or op_type, axis=axes, keepdims=bool(keepdims))
    build.__name__, build.__doc__ = f"reduce_{op_type.lower()}", doc
    build.__qualname__ = build.__name__
    return build


reduce_sum = _reduction("Sum", "Sum over `axis` (all axes when None), keeping reduced dims if `keepdims`.")
reduce_mean = _reduction("Mean", "Mean over `axis` (all axes when None), keeping reduced dims if `keepdims`.")
reduce_max = _reduction("Max", "Maximum over `axis` (all axes when None); ties share the gradient equally.")

OPS["Sum"].fresh = OPS["Mean"].fresh = OPS["Max"].fresh = True
