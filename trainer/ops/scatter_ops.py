"""Sparse updates of a variable in place: scatter_update/add/sub/mul/div/max/min at rows `indices`, the nd forms at
coordinate tuples, and batch_scatter_update."""

from ..platform.errors import InvalidArgumentError
from ..framework.tensor import Tensor
from .array_ops import cast, concat, reshape, shape as shape_of
from .core_ops import convert_to_tensor
from .fill_ops import range as range_
from ..framework.graph_wrappers import name_scope
from .math_ops import ones_like
from .shape_ops import expand_dims
from ..framework.registry import apply_op, register
from .kernels.scatter_at import ufunc_at


def _assign_rows(current, indices, updates):
    current[indices] = updates  # with repeated indices one of the updates wins, as in TF1


_UPDATES = {  # op type: how rows are updated; the ufunc.at forms accumulate repeated indices
    "ScatterUpdate": _assign_rows,
    "ScatterAdd": lambda current, i, u: ufunc_at("add", current, i, u),
    "ScatterSub": lambda current, i, u: ufunc_at("subtract", current, i, u),
    "ScatterMul": lambda current, i, u: ufunc_at("multiply", current, i, u),
    "ScatterDiv": lambda current, i, u: ufunc_at("divide" if current.dtype.kind in "fc" else "floor_divide",
                                                 current, i, u),
    "ScatterMax": lambda current, i, u: ufunc_at("maximum", current, i, u),
    "ScatterMin": lambda current, i, u: ufunc_at("minimum", current, i, u),
}


def _scatter_kernel(update):
    def make(op, session):
        store, var = session.variables, op.inputs[0].op

        def kernel(indices, updates):
            current = store[var]
            if indices.size and (indices.min() < 0 or indices.max() >= len(current)):
                bad = indices[(indices < 0) | (indices >= len(current))].flat[0]
                raise InvalidArgumentError(f"indices {int(bad)} is not in [0, {len(current)}): variable "
                                           f"{var.name!r} has {len(current)} rows")
            expected = indices.shape + current.shape[1:]
            if updates.shape != expected and updates.ndim:
                raise InvalidArgumentError(f"updates of shape {updates.shape} do not fit indices of shape "
                                           f"{indices.shape} into variable {var.name!r} of shape {current.shape}: "
                                           f"expected {expected}")
            update(current, indices, updates)
            return current
        return kernel
    return make


for _type, _update in _UPDATES.items():
    register(_type, kernel=_scatter_kernel(_update), infer=lambda ref, i, u: [(ref.shape, ref.dtype)], ref_inputs=1)


def _scatter(op_type, default_name):
    def build(ref, indices, updates, use_locking=False, name=None):
        if not (isinstance(ref, Tensor) and ref.op.type == "VariableV2"):
            raise TypeError(f"{default_name} updates a variable in place, got {ref!r}: pass a tg.Variable")
        with ref.graph.as_default():
            indices, updates = convert_to_tensor(indices), convert_to_tensor(updates, dtype=ref.dtype)
            if indices.dtype.kind not in "iu":
                raise TypeError(f"{default_name} needs integer indices, got {indices.name!r} of dtype "
                                f"{indices.dtype.name}")
            return apply_op(op_type, [ref, indices, updates], name=name or op_type)
    build.__name__ = build.__qualname__ = default_name
    build.__doc__ = (f"{op_type}: updates rows `indices` of the variable `ref` with `updates` when run; returns "
                     "ref's new value (use_locking is ignored: one session runs one op at a time).")
    return build


scatter_update = _scatter("ScatterUpdate", "scatter_update")
scatter_add = _scatter("ScatterAdd", "scatter_add")
scatter_sub = _scatter("ScatterSub", "scatter_sub")
scatter_mul = _scatter("ScatterMul", "scatter_mul")
scatter_div = _scatter("ScatterDiv", "scatter_div")
scatter_max = _scatter("ScatterMax", "scatter_max")
scatter_min = _scatter("ScatterMin", "scatter_min")


# the nd forms: each row of `indices` (its last axis K long) names a slice var[i0, ..., iK-1]
_ND_UPDATES = {"ScatterNdUpdate": _assign_rows,
               "ScatterNdAdd": lambda current, i, u: ufunc_at("add", current, i, u),
               "ScatterNdSub": lambda current, i, u: ufunc_at("subtract", current, i, u)}


def _scatter_nd_kernel(update):
    def make(op, session):
        store, var = session.variables, op.inputs[0].op

        def kernel(indices, updates):
            current = store[var]
            depth = indices.shape[-1] if indices.ndim else 0
            rows = indices.reshape(-1, depth)
            expected = indices.shape[:-1] + current.shape[depth:]
            if depth > current.ndim or updates.shape != expected:
                raise InvalidArgumentError(f"scatter_nd: updates of shape {updates.shape} and indices of shape "
                                           f"{indices.shape} do not fit variable {var.name!r} of shape "
                                           f"{current.shape}: expected updates of shape {expected}")
            bad = ((rows < 0) | (rows >= current.shape[:depth])).any(axis=1)
            if bad.any():
                raise InvalidArgumentError(f"indices{rows[bad][0].tolist()} does not index into variable {var.name!r} "
                                           f"of shape {current.shape}")
            # one flat row index per coordinate tuple, into a view of the variable with its first `depth` dims
            # flattened: the same update, with the single index array CuPy's scatter kernels take
            flat_index = rows[:, 0] if depth else rows.sum(axis=1)
            for k in range(1, depth):
                flat_index = flat_index * current.shape[k] + rows[:, k]
            rows_view = current.reshape((-1,) + current.shape[depth:])
            update(rows_view, flat_index, updates.reshape((len(rows),) + current.shape[depth:]))
            if not current.flags.c_contiguous:  # the reshape was a copy: write it back
                current[...] = rows_view.reshape(current.shape)
            return current
        return kernel
    return make


for _type, _update in _ND_UPDATES.items():
    register(_type, kernel=_scatter_nd_kernel(_update), infer=lambda ref, i, u: [(ref.shape, ref.dtype)],
             ref_inputs=1)

scatter_nd_update = _scatter("ScatterNdUpdate", "scatter_nd_update")
scatter_nd_add = _scatter("ScatterNdAdd", "scatter_nd_add")
scatter_nd_sub = _scatter("ScatterNdSub", "scatter_nd_sub")


def batch_scatter_update(ref, indices, updates, use_locking=True, name=None):
    """scatter_update with leading batch dimensions: ref[b..., indices[b..., j]] = updates[b..., j] (TF1's, through
    scatter_nd_update: each index is given its batch coordinates)."""
    with name_scope(name, "BatchScatterUpdate"):
        indices = convert_to_tensor(indices, name="indices")
        if indices.ndim is None:
            raise ValueError(f"batch_scatter_update needs indices of known rank, got {indices.name!r}")
        coordinates, shape = [], shape_of(indices)
        for axis in range(indices.ndim - 1):  # each batch axis's position, broadcast to the indices' shape
            along = reshape(cast(range_(shape[axis]), indices.dtype),
                            [-1 if k == axis else 1 for k in range(indices.ndim)])
            coordinates.append(expand_dims(along * ones_like(indices), -1))
        return scatter_nd_update(ref, concat(coordinates + [expand_dims(indices, -1)], -1), updates,
                                 use_locking=use_locking)
