"""TF1's sparse optimizer updates (SparseApplyMomentum, SparseApplyAdagrad, ...): an optimizer's dense rule applied
to the rows `indices` names, with `grad` holding those rows' gradients; the other rows, and their slots, are left
as they are. The inputs are in TF's order, the indices right after the gradient.

TF1's optimizers sum the gradients at repeated indices before they call these ops (Optimizer's
_apply_sparse_duplicate_indices), so the rows are usually distinct and the rule runs once on all of them; repeated
rows (an op called directly, an imported graph) are updated one after the other, as TF's kernels loop.
"""
import inspect

from ..framework.registry import get_array_module, register
from ..platform.errors import InvalidArgumentError


def register_sparse_apply(op_type, update, num_refs, grad_at):
    """Register `op_type`, whose input `grad_at` holds the rows' gradients and the next their indices, running the
    dense update(*ref_rows, *inputs_without_indices, **attrs) on the named rows of the ref inputs in place."""
    takes = set(inspect.signature(update).parameters)

    def make(op, session):
        store, refs, at = session.variables, [t.op for t in op.inputs[:num_refs]], grad_at - num_refs
        attrs = {k: v for k, v in op.attrs.items() if k in takes}  # not the index type a graph TF wrote names

        def kernel(*values):
            arrays, indices = [store[r] for r in refs], values[at + 1]
            inputs = list(values[:at + 1] + values[at + 2:])
            _check(op_type, refs[0], arrays[0], indices, inputs[at])
            xp = get_array_module(arrays[0])
            if len(xp.unique(indices)) == len(indices):
                rows = [a[indices] for a in arrays]
                update(*rows, *inputs, **attrs)
                for a, r in zip(arrays, rows):
                    a[indices] = r
                return arrays[0]
            grad = inputs[at]
            for i, index in enumerate(indices.tolist()):  # a repeated row takes each of its updates in turn
                inputs[at] = grad[i:i + 1]
                update(*[a[index:index + 1] for a in arrays], *inputs, **attrs)
            return arrays[0]
        return kernel
    return register(op_type, kernel=make, infer=lambda var, *rest, **attrs: [(var.shape, var.dtype)],
                    ref_inputs=num_refs)


def _check(op_type, ref, var, indices, grad):
    if indices.ndim != 1 or grad.shape != indices.shape + var.shape[1:]:
        raise InvalidArgumentError(f"{op_type}: gradient rows of shape {grad.shape} and indices of shape "
                                   f"{indices.shape} do not fit variable {ref.name!r} of shape {var.shape}: give one "
                                   f"row of shape {var.shape[1:]} per index")
    if indices.size and (indices.min() < 0 or indices.max() >= len(var)):
        bad = indices[(indices < 0) | (indices >= len(var))][0]
        raise InvalidArgumentError(f"{op_type}: index {int(bad)} is not in [0, {len(var)}): variable {ref.name!r} "
                                   f"has {len(var)} rows")


def sparse_momentum(var, accum, lr, grad, momentum, use_nesterov=False):
    # TF's sparse kernel: Nesterov's step is lr * grad + (lr * momentum) * accum, where the dense one multiplies
    # accum * momentum * lr
    accum *= momentum
    accum += grad
    var -= lr * grad + (lr * momentum) * accum if use_nesterov else lr * accum


register_sparse_apply("SparseApplyMomentum", sparse_momentum, 2, grad_at=3)
