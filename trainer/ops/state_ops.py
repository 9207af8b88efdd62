"""Variables' storage ops: the read of a variable and the assignments that update it in place."""
import threading

import numpy as np

from ..platform.errors import OutOfRangeError

from ..framework.registry import register


def _variable_kernel(op, session):
    store = session.variables
    return lambda: store[op]


def _assign_kernel(op, session):
    store, var, to_device = session.variables, op.inputs[0].op, session.to_device
    static_shape, dtype = op.inputs[0].shape, np.dtype(op.inputs[0].dtype)

    def assign(value):
        current = store.get(var)
        if current is not None and current.shape == value.shape:
            current[...] = value
            return current
        if static_shape.ndims is not None and not _fits(static_shape, value.shape):
            raise ValueError(f"Cannot assign a value of shape {value.shape} to variable {var.name!r} "
                             f"of shape {static_shape}")
        # A fresh C-ordered copy the variable owns: numpy for host values, else the device array's own astype
        # (CuPy's and the Array API's take order= and copy= as numpy's does).
        store[var] = new = to_device(np.array(value, dtype=dtype, copy=True, order="C")
                                     if isinstance(value, np.ndarray) or np.isscalar(value)
                                     else value.astype(dtype, order="C", copy=True))
        return new
    return assign


def _fits(static_shape, shape):
    return len(static_shape) == len(shape) and all(s is None or s == d for s, d in zip(static_shape, shape))


def _update_kernel(update):
    def make(op, session):
        store, var = session.variables, op.inputs[0].op

        def kernel(delta):
            current = store[var]
            update(current, delta)
            return current
        return kernel
    return make


def _add(current, delta):
    current += delta


def _sub(current, delta):
    current -= delta


def _infer_ref(var, value):
    return [(var.shape, var.dtype)]


register("VariableV2", kernel=_variable_kernel, infer=lambda shape, dtype: [(shape, dtype)], persistent=True)
register("Assign", kernel=_assign_kernel, infer=_infer_ref, ref_inputs=1)
register("AssignAdd", kernel=_update_kernel(_add), infer=_infer_ref, ref_inputs=1)
register("AssignSub", kernel=_update_kernel(_sub), infer=_infer_ref, ref_inputs=1)


def _count_up_to_kernel(op, session):
    store, var, limit, lock = session.variables, op.inputs[0].op, op.attrs["limit"], threading.Lock()

    def kernel():
        with lock:  # QueueRunner threads run it at once: each must see its own count (TF1 locks the ref too)
            current = store[var]
            if current >= limit:
                raise OutOfRangeError(f"Reached limit of {limit}")
            old = current.copy()
            current += 1
            return old
    return kernel


# TF1's CountUpTo: the variable's value before it adds one, OutOfRangeError once it reached `limit`
register("CountUpTo", kernel=_count_up_to_kernel, infer=lambda var, **attrs: [((), var.dtype)], ref_inputs=1)
