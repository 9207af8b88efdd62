"""Indexing by coordinate tuples: gather_nd, scatter_nd and the tensor_scatter_nd family (out-of-place updates of a
tensor at coordinates). Each is the others' adjoint, so their gradients are built from one another."""
from ..framework.registry import apply_op, get_array_module, register
from ..platform.errors import InvalidArgumentError
from .array_ops import cast, concat, reshape, shape as shape_of
from ..framework.graph_wrappers import name_scope
from .fill_ops import range as range_
from .gather_ops import gather
from .reduction_ops import reduce_prod
from .core_ops import convert_to_tensor
from ..framework.registry import host_kernel
from .kernels.scatter_at import ufunc_at
from .math_ops import equal, zeros_like
from .tensor_util import constant_value, static_shape


def _coordinates(indices, shape, what):
    """indices [..., K] as a tuple of K index arrays into `shape`, checked (TF1's InvalidArgumentError)."""
    depth = indices.shape[-1]
    if depth > len(shape):
        raise InvalidArgumentError(f"{what}: index depth {depth} is more than the rank {len(shape)} of shape "
                                   f"{tuple(shape)}")
    for k in range(depth):
        column = indices[..., k]
        if column.size and (column.min() < 0 or column.max() >= shape[k]):
            bad = indices.reshape(-1, depth)[((column < 0) | (column >= shape[k])).reshape(-1)][0]
            raise InvalidArgumentError(f"{what}: index {bad.tolist()} does not point into shape {tuple(shape)}")
    return tuple(indices[..., k] for k in range(depth))


def _gather_nd(params, indices):
    return params[_coordinates(indices, params.shape, "gather_nd")]


def _scatter_nd(indices, updates, shape):
    out = get_array_module(updates).zeros(tuple(int(d) for d in shape), dtype=updates.dtype)
    ufunc_at("add", out, _coordinates(indices, out.shape, "scatter_nd"), updates)
    return out


def _tensor_scatter(update):
    def run(tensor, indices, updates):
        out = tensor.copy()
        update(out, _coordinates(indices, out.shape, "tensor_scatter_nd"), updates)
        return out
    return run


def _assign(out, at, updates):
    out[at] = updates


def _gathered_shape(params, indices):
    p, i = static_shape(params), static_shape(indices)
    if p is None or i is None or i[-1] is None:
        return None
    return i[:-1] + p[i[-1]:]


def _scatter_infer(indices, updates, shape):
    known = constant_value(shape)
    return [(None if known is None else tuple(int(d) for d in known), updates.dtype)]


register("GatherNd", kernel=host_kernel(_gather_nd), fresh=True, infer=lambda p, i: [(_gathered_shape(p, i), p.dtype)],
         grad=lambda op, g: [scatter_nd(op.inputs[1], g, cast(shape_of(op.inputs[0]), op.inputs[1].dtype)), None])
register("ScatterNd", kernel=host_kernel(_scatter_nd), fresh=True, infer=_scatter_infer,
         grad=lambda op, g: [None, gather_nd(g, op.inputs[0]), None])
register("TensorScatterUpdate", kernel=host_kernel(_tensor_scatter(_assign)), fresh=True,
         infer=lambda t, i, u: [(t.shape, t.dtype)],
         grad=lambda op, g: [tensor_scatter_nd_update(g, op.inputs[1], zeros_like(op.inputs[2])), None,
                             gather_nd(g, op.inputs[1])])
register("TensorScatterAdd", kernel=host_kernel(_tensor_scatter(lambda out, at, u: ufunc_at("add", out, at, u))),
         fresh=True,
         infer=lambda t, i, u: [(t.shape, t.dtype)], grad=lambda op, g: [g, None, gather_nd(g, op.inputs[1])])
register("TensorScatterSub", kernel=host_kernel(_tensor_scatter(lambda out, at, u: ufunc_at("subtract", out, at, u))),
         fresh=True,
         infer=lambda t, i, u: [(t.shape, t.dtype)], grad=lambda op, g: [g, None, -gather_nd(g, op.inputs[1])])



def _min_max_grad(op, g):
    # the gradient goes where the output came from, shared equally where tensor and updates tie (TF's rule)
    x, indices, y = op.inputs
    out = op.outputs[0]
    x_hit = cast(equal(x, out), g.dtype)
    y_hit = cast(equal(y, gather_nd(out, indices)), g.dtype)
    hits = x_hit + scatter_nd(indices, y_hit, cast(shape_of(x), indices.dtype))
    return [g * x_hit / hits, None, gather_nd(g / hits, indices) * y_hit]


for _type, _ufunc in (("TensorScatterMax", "maximum"), ("TensorScatterMin", "minimum")):
    register(_type, kernel=host_kernel(_tensor_scatter(lambda out, at, u, f=_ufunc: ufunc_at(f, out, at, u))),
             fresh=True, infer=lambda t, i, u: [(t.shape, t.dtype)], grad=_min_max_grad)


def _indices(indices, what):
    indices = convert_to_tensor(indices)
    if indices.dtype.kind not in "iu":
        raise TypeError(f"{what} needs integer indices, got {indices.name!r} of dtype {indices.dtype.name}")
    if indices.ndim == 0:
        raise ValueError(f"{what}: indices must have at least one dimension (the coordinates), got a scalar")
    return indices


def _check_updates(what, tensor_shape, indices, updates):
    """TF1's build-time check: updates' shape is indices' outer dims followed by the dims the indices leave."""
    s, i, u = tensor_shape, static_shape(indices), static_shape(updates)
    if s is None or i is None or u is None or i[-1] is None:
        return
    expected = i[:-1] + tuple(s[i[-1]:])
    if len(u) != len(expected) or any(a is not None and b is not None and a != b for a, b in zip(u, expected)):
        raise ValueError(f"{what}: updates of shape {u} do not fit indices of shape {i} into shape {tuple(s)}: "
                         f"expected {expected}")


def gather_nd(params, indices, name=None, batch_dims=0):
    """params at the coordinate tuples in the last axis of `indices`: shape indices.shape[:-1] + params.shape[K:]."""
    if batch_dims:
        raise NotImplementedError(f"gather_nd with batch_dims={batch_dims!r} is not supported; only batch_dims=0")
    params, indices = convert_to_tensor(params), _indices(indices, "gather_nd")
    p, i = static_shape(params), static_shape(indices)
    if p is not None and i is not None and i[-1] is not None and i[-1] > len(p):
        raise ValueError(f"gather_nd: index depth {i[-1]} of {indices.name!r} is more than the rank {len(p)} of "
                         f"{params.name!r}")
    return apply_op("GatherNd", [params, indices], name=name or "GatherNd")


def scatter_nd(indices, updates, shape, name=None):
    """A zero tensor of `shape` with `updates` added at the coordinate tuples in `indices` (repeats add up)."""
    indices, updates = _indices(indices, "scatter_nd"), convert_to_tensor(updates)
    shape = convert_to_tensor(shape, dtype=indices.dtype)
    known = constant_value(shape)
    _check_updates("scatter_nd", None if known is None else tuple(int(d) for d in known), indices, updates)
    return apply_op("ScatterNd", [indices, updates, shape], name=name or "ScatterNd")


def _tensor_scatter_builder(op_type, public_name, doc):
    def build(tensor, indices, updates, name=None):
        tensor, indices = convert_to_tensor(tensor), _indices(indices, public_name)
        updates = convert_to_tensor(updates, dtype=tensor.dtype)
        _check_updates(public_name, static_shape(tensor), indices, updates)
        return apply_op(op_type, [tensor, indices, updates], name=name or op_type)
    build.__name__ = build.__qualname__ = public_name
    build.__doc__ = doc
    return build


tensor_scatter_nd_update = _tensor_scatter_builder("TensorScatterUpdate", "tensor_scatter_nd_update",
                                                   "A copy of tensor with `updates` written at `indices`.")
tensor_scatter_nd_add = _tensor_scatter_builder("TensorScatterAdd", "tensor_scatter_nd_add",
                                                "A copy of tensor with `updates` added at `indices`.")
tensor_scatter_nd_sub = _tensor_scatter_builder("TensorScatterSub", "tensor_scatter_nd_sub",
                                                "A copy of tensor with `updates` subtracted at `indices`.")
tensor_scatter_nd_max = _tensor_scatter_builder("TensorScatterMax", "tensor_scatter_nd_max",
                                                "A copy of tensor, each element at `indices` the maximum of it and "
                                                "its `updates`.")
tensor_scatter_nd_min = _tensor_scatter_builder("TensorScatterMin", "tensor_scatter_nd_min",
                                                "A copy of tensor, each element at `indices` the minimum of it and "
                                                "its `updates`.")


def batch_gather(params, indices, name=None):
    """For each batch index (all of indices' dims but the last), params' rows at that batch's indices: shape
    indices.shape + params.shape[indices.ndim:] (TF1's gather with batch_dims = rank(indices) - 1)."""
    with name_scope(name, "BatchGather"):
        indices, params = convert_to_tensor(indices, name="indices"), convert_to_tensor(params, name="params")
        if indices.ndim is None:
            raise ValueError(f"batch_gather needs indices of known rank, got {indices.name!r} of shape {indices.shape}")
        batch = indices.ndim - 1
        if batch <= 0:
            return gather(params, indices)
        indices_shape, params_shape = shape_of(indices), shape_of(params)
        rows = cast(params_shape[batch], indices.dtype)
        offsets = cast(range_(reduce_prod(indices_shape[:batch])), indices.dtype) * rows
        offsets = reshape(offsets, concat([indices_shape[:batch], [1]], 0))
        flat = reshape(params, concat([[-1], params_shape[batch + 1:]], 0))
        return gather(flat, indices + offsets)
