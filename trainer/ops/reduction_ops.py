"""Reductions over axes (sum, mean, max, min, prod, any, all, logsumexp) and the broadcast that is their gradient."""
import numpy as np

from ..framework import dtypes
from ..framework.tensor import Tensor
from ..framework.graph_wrappers import name_scope
from .array_ops import cast
from .core_ops import convert_to_tensor
from .cwise_ops import is_finite, stop_gradient
from .math_ops import add, check_input_kind, equal, exp, log, not_equal, where, zeros_like
from ..framework.registry import apply_op, get_array_module, register
from ..platform.errors import InvalidArgumentError
from .scan_ops import cumsum
from .tensor_util import argument_lookup, constant_value, static_shape


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


def _reduce_infer(x, *axis_input, axis, keepdims):
    shape = static_shape(x)
    if axis_input:  # the axes come at run time (TF's own gradient graphs compute them): only the rank may be known
        known = constant_value(axis_input[0])
        if known is None:
            return [(None if shape is None or not keepdims else (None,) * len(shape), x.dtype)]
        axis = known.tolist()
    if shape is None:
        return [((), x.dtype) if axis is None and not keepdims else (None, x.dtype)]
    axes = _axes(axis, len(shape))
    shape = tuple(1 if i in axes else d for i, d in enumerate(shape) if keepdims or i not in axes)
    return [(shape, x.dtype)]


def _keep_shape(shape, axis):
    axes = range(len(shape)) if axis is None else [a % len(shape) for a in axis]
    return tuple(1 if i in axes else d for i, d in enumerate(shape))


def _reduce_grad_forward(g, x, *axis_input, axis, mean):
    """Broadcast the reduced gradient back over x's shape, scaled by 1/count for a mean."""
    xp = get_array_module(x)
    if axis_input:
        axis = _run_axes(axis_input[0], x.ndim)
    count = (x.size // max(g.size, 1) or 1) if mean else 1
    if x.size <= 4096 and g.ndim == 0:  # np.full's own steps, without its Python wrapper (about 1 us)
        out = xp.empty(x.shape, dtype=x.dtype)
        if mean and xp is np:  # the division writes the fill (numpy broadcasts into out=, CuPy does not; numpy's
            return np.true_divide(g, count, out=out, casting="unsafe")  # assignment casts unsafely too)
        out[...] = xp.true_divide(g, count) if mean else g
        return out
    if mean:
        g = xp.true_divide(g, count)
    if x.size <= 4096:  # filling a small array beats the Python overhead of a broadcast view
        return xp.reshape(g, _keep_shape(x.shape, axis)) * xp.ones(x.shape, dtype=x.dtype)
    return xp.broadcast_to(xp.reshape(g, _keep_shape(x.shape, axis)), x.shape)


def _reduce_grad_grad(op, gg):
    reducer = reduce_mean if op.attrs["mean"] else reduce_sum
    total = reducer(gg, axis=op.inputs[2] if len(op.inputs) == 3 else op.attrs["axis"], keepdims=True)
    return [apply_op("ReshapeLike", [total, op.inputs[0]], name="Reshape")] + [None] * (len(op.inputs) - 1)


register("ReduceGrad", _reduce_grad_forward, view=True, infer=lambda g, x, *a, axis, mean: [(x.shape, g.dtype)],
         grad=_reduce_grad_grad)


def reduce_grad(g, x, axis, mean=False):
    """g broadcast back over x; `axis` the reduction's axes (None: all), or a Tensor of them the run computes."""
    if isinstance(axis, Tensor):
        return apply_op("ReduceGrad", [g, x, axis], name="ReduceGrad", axis=None, mean=mean)
    return apply_op("ReduceGrad", [g, x], name="ReduceGrad", axis=axis, mean=mean)


def _run_axes(axis, rank):
    """A run-time axis tensor's value as numpy's axis tuple (an empty list reduces nothing, as in TF)."""
    axes = [int(a) for a in np.ravel(axis.get() if hasattr(axis, "get") else axis)]
    for a in axes:
        if not -rank <= a < rank:
            raise InvalidArgumentError(f"Invalid reduction dimension ({a} for input with {rank} dimension(s))")
    return tuple(a % rank for a in axes)


def _reduce_kernel(fn):
    def make(op, session):
        axis, keepdims = op.attrs["axis"], op.attrs["keepdims"]
        if len(op.inputs) == 2:
            return lambda x, a: fn(x, axis=_run_axes(a, x.ndim), keepdims=keepdims)
        if axis is None and not keepdims:
            return fn
        return lambda x: fn(x, axis=axis, keepdims=keepdims)
    return make


def _same_dtype(fn):
    """numpy sums and multiplies int32 in int64; TF1 keeps the input's dtype (and wraps around as it does)."""
    return lambda x, axis=None, keepdims=False: fn(x, axis=axis, keepdims=keepdims, dtype=x.dtype)


def _mean(x, axis=None, keepdims=False):
    total = np.add.reduce(x, axis=axis, keepdims=keepdims, dtype=x.dtype)
    count = x.size // max(np.size(total), 1) or 1
    if x.dtype.kind in "iu":  # TF1's integer mean divides in integers, toward zero
        return (np.true_divide(total, count)).astype(x.dtype)
    return np.true_divide(total, count, dtype=x.dtype)


def _axis_of(op):
    """The reduction's axes: its attr, or the Tensor of them the run computes."""
    return op.inputs[1] if len(op.inputs) == 2 else op.attrs["axis"]


def _reduction_grads(op, grad_x):
    return [grad_x] + [None] * (len(op.inputs) - 1)


def _extreme_grad(op, g):
    """reduce_max/reduce_min: the gradient goes to the elements equal to the result, split between ties."""
    x, axis = op.inputs[0], _axis_of(op)
    y = reduce_grad(op.outputs[0], x, axis)
    mask = apply_op("Cast", [equal(x, y)], dtype=x.dtype)
    count = reduce_sum(mask, axis=axis, keepdims=True)
    return _reduction_grads(op, reduce_grad(g, x, axis) * mask / count)


def _prod_others(x, axis):
    """For each element, the product of the other elements of its reduction group (exact with zeros)."""
    axes = tuple(range(x.ndim)) if axis is None else tuple(sorted(a % x.ndim for a in axis))
    rest = [i for i in range(x.ndim) if i not in axes]
    moved = np.transpose(x, axes + tuple(rest))
    flat = moved.reshape(int(np.prod([x.shape[a] for a in axes])), -1)
    xp = get_array_module(x)
    ones = xp.ones((1, flat.shape[1]), dtype=x.dtype)
    left = xp.cumprod(xp.concatenate([ones, flat[:-1]]), axis=0)
    right = xp.cumprod(xp.concatenate([ones, flat[:0:-1]]), axis=0)[::-1]
    return xp.transpose((left * right).reshape(moved.shape), np.argsort(axes + tuple(rest)).tolist())


register("ProdOthers", _prod_others, infer=lambda x, axis: [(x.shape, x.dtype)], fresh=True)


def _prod_grad(op, g):
    x, axis = op.inputs[0], op.attrs["axis"]
    if len(op.inputs) == 2:
        raise NotImplementedError(f"ringflow has no gradient for Prod {op.name!r}, whose axes are computed while the "
                                  "graph runs: give the axes as Python ints or a constant")
    return [reduce_grad(g, x, axis) * apply_op("ProdOthers", [x], axis=axis)]


def _no_grad(op, g):
    return [None] * len(op.inputs)


register("Sum", kernel=_reduce_kernel(_same_dtype(np.sum)), infer=_reduce_infer,
         grad=lambda op, g: _reduction_grads(op, reduce_grad(g, op.inputs[0], _axis_of(op))), fresh=True)
register("Mean", kernel=_reduce_kernel(_mean), infer=_reduce_infer,
         grad=lambda op, g: _reduction_grads(op, reduce_grad(g, op.inputs[0], _axis_of(op), mean=True)),
         fresh=True)
register("Max", kernel=_reduce_kernel(np.max), infer=_reduce_infer, grad=_extreme_grad, fresh=True)
register("Min", kernel=_reduce_kernel(np.min), infer=_reduce_infer, grad=_extreme_grad, fresh=True)
register("Prod", kernel=_reduce_kernel(_same_dtype(np.prod)), infer=_reduce_infer, grad=_prod_grad, fresh=True)
register("Any", kernel=_reduce_kernel(np.any), infer=_reduce_infer, grad=_no_grad, fresh=True)
register("All", kernel=_reduce_kernel(np.all), infer=_reduce_infer, grad=_no_grad, fresh=True)


def reduction_args(x, axis, keepdims, reduction_indices, keep_dims):
    """(axes, keepdims) from TF1's reduce_* keywords and their older names reduction_indices / keep_dims."""
    axis = argument_lookup("axis", axis, "reduction_indices", reduction_indices)
    keepdims = bool(argument_lookup("keepdims", keepdims, "keep_dims", keep_dims))
    if axis is not None:
        value = constant_value(axis)
        if value is None:
            raise NotImplementedError(f"The reduction axis {axis.name!r} is computed while the graph runs; "
                                      "give the axes as Python ints (or a constant)")
        axis = value.tolist()
    axes = _axes(axis, x.ndim)
    if axes is not None and x.ndim is not None and len(axes) == x.ndim:
        axes = None
    return axes, keepdims


def _reduction(op_type, public_name, doc, needs_bool=False):
    def build(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None):
        x = convert_to_tensor(input_tensor)
        if needs_bool and x.dtype != np.bool_:
            raise TypeError(f"{public_name} needs a bool tensor, got {x.name!r} of dtype {x.dtype.name}")
        check_input_kind(op_type, x)
        given = argument_lookup("axis", axis, "reduction_indices", reduction_indices)
        if isinstance(given, Tensor) and constant_value(given) is None:  # axes the run computes: no gradient
            keep = bool(argument_lookup("keepdims", keepdims, "keep_dims", keep_dims))
            return apply_op(op_type, [x, given], name=name or op_type, axis=None, keepdims=keep)
        axes, keepdims = reduction_args(x, axis, keepdims, reduction_indices, keep_dims)
        return apply_op(op_type, [x], name=name or op_type, axis=axes, keepdims=keepdims)
    build.__name__ = build.__qualname__ = public_name
    build.__doc__ = doc
    return build


reduce_sum = _reduction("Sum", "reduce_sum", "Sum over `axis` (all axes when None), keeping reduced dims if "
                        "`keepdims`.")
reduce_mean = _reduction("Mean", "reduce_mean", "Mean over `axis` (all axes when None), keeping reduced dims if "
                         "`keepdims`.")
reduce_max = _reduction("Max", "reduce_max", "Maximum over `axis` (all axes when None); ties share the gradient "
                        "equally.")
reduce_min = _reduction("Min", "reduce_min", "Minimum over `axis` (all axes when None); ties share the gradient "
                        "equally.")
reduce_prod = _reduction("Prod", "reduce_prod", "Product over `axis` (all axes when None); exact gradient with "
                         "zeros.")
reduce_any = _reduction("Any", "reduce_any", "Logical OR over `axis` of a bool tensor.", needs_bool=True)
reduce_all = _reduction("All", "reduce_all", "Logical AND over `axis` of a bool tensor.", needs_bool=True)


def reduce_logsumexp(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None):
    """log(sum(exp(x))) over `axis`, computed after subtracting the (finite) max so large values do not overflow."""
    x = convert_to_tensor(input_tensor)
    axes, keepdims = reduction_args(x, axis, keepdims, reduction_indices, keep_dims)
    with name_scope(name or "ReduceLogSumExp") as scope:
        raw_max = reduce_max(x, axis=axes, keepdims=True)
        shift = stop_gradient(where(is_finite(raw_max), raw_max, zeros_like(raw_max)))
        result = log(reduce_sum(exp(x - shift), axis=axes, keepdims=keepdims))
        return add(result, shift if keepdims else reduce_sum(shift, axis=axes), name=scope)


def count_nonzero(input_tensor=None, axis=None, keepdims=None, dtype=dtypes.int64, name=None, reduction_indices=None,
                  keep_dims=None, input=None):  # noqa: A002 - TF1's name
    """The number of non-zero (true, non-empty) elements over `axis`, as `dtype` (int64 by default)."""
    x = convert_to_tensor(argument_lookup("input", input, "input_tensor", input_tensor))
    axes, keepdims = reduction_args(x, axis, keepdims, reduction_indices, keep_dims)
    with name_scope(name or "count_nonzero"):
        nonzero = apply_op("Cast", [not_equal(x, np.zeros((), dtype=x.dtype))], dtype=dtypes.int64)
        return cast(reduce_sum(nonzero, axis=axes, keepdims=keepdims), dtype)



def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """The mean squared deviation from the mean over `axis` (of |x - mean| for complex x), as tf.math's."""
    x = convert_to_tensor(input_tensor)
    if x.dtype.kind not in "fc":
        raise TypeError(f"reduce_variance needs a floating-point or complex input, got {x.name!r} of dtype "
                        f"{x.dtype.name}: tg.cast it first")
    axes, keepdims = reduction_args(x, axis, keepdims, None, None)
    with name_scope(name or "reduce_variance"):
        deviations = x - reduce_mean(x, axis=axes, keepdims=True)
        squared = apply_op("Square", [deviations]) if x.dtype.kind == "f" else apply_op("Abs", [deviations]) ** 2
        return reduce_mean(squared, axis=axes, keepdims=keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    """The standard deviation over `axis`: sqrt(reduce_variance)."""
    with name_scope(name or "reduce_std"):
        return apply_op("Sqrt", [reduce_variance(input_tensor, axis=axis, keepdims=keepdims)])


def reduce_euclidean_norm(input_tensor, axis=None, keepdims=False, name=None):
    """sqrt(sum(x ** 2)) over `axis`, in x's dtype (integer inputs give the truncated integer root, as TF's)."""
    x = convert_to_tensor(input_tensor)
    axes, keepdims = reduction_args(x, axis, keepdims, None, None)
    with name_scope(name or "EuclideanNorm"):
        squares = reduce_sum(x * x, axis=axes, keepdims=keepdims)
        if x.dtype.kind in "iu":
            return cast(apply_op("Sqrt", [cast(squares, dtypes.float64)]), x.dtype)
        return apply_op("Sqrt", [squares])


def cumulative_logsumexp(x, axis=0, exclusive=False, reverse=False, name=None):
    """log(cumsum(exp(x))) along `axis`, shifted by the (finite) max so large values do not overflow."""
    x = convert_to_tensor(x)
    if x.dtype.kind != "f":
        raise TypeError(f"cumulative_logsumexp needs a floating-point input, got {x.name!r} of dtype "
                        f"{x.dtype.name}")
    with name_scope(name or "CumulativeLogsumexp"):
        raw_max = reduce_max(x, axis=axis, keepdims=True)
        shift = stop_gradient(where(is_finite(raw_max), raw_max, zeros_like(raw_max)))
        total = cumsum(exp(x - shift), axis=axis, exclusive=exclusive, reverse=reverse)
        return log(total) + shift
