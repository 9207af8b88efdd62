"""Helpers for optimizers beyond the core three: registering an Apply* op, and slots that do not start at zero.

An Apply* op updates its variable and slot arrays in place in the session's store: its leading `num_refs`
inputs are variables passed by reference, the rest (learning rate, hyper-parameters, gradient) arrive as
arrays, and its output is the variable. This is the kernel shape of training_ops.py, offered as one call
so each optimizer's module registers its own op next to its formula.
"""
from ..ops.core_ops import constant
from ..ops.registry import register
from ..variables import Variable


def register_apply(op_type, update, num_refs):
    """Register `op_type` running update(*ref_arrays, *input_arrays, **attrs) in place; returns its OpDef."""
    def make(op, session):
        store, refs, attrs = session.variables, [t.op for t in op.inputs[:num_refs]], op.attrs

        def kernel(*values):
            arrays = [store[r] for r in refs]
            update(*arrays, *values, **attrs)
            return arrays[0]
        return kernel
    return register(op_type, kernel=make, infer=lambda var, *rest, **attrs: [(var.shape, var.dtype)],
                    ref_inputs=num_refs)


def filled_slot(optimizer, var, slot_name, op_name, value):
    """The optimizer's slot `slot_name` for var, created filled with `value` (TF1's RMSProp ones, Adagrad's 0.1).

    Optimizer only makes zero slots (`_zeros_slot`); this adds the filled kind to the same table, so get_slot
    and variables() see it.
    """
    key = (slot_name, var)
    if key not in optimizer._slots:
        if var.ndim is None or None in var.shape:
            raise ValueError(f"Variable {var.name!r} needs a static shape for {op_name}'s slots, got {var.shape}")
        optimizer._slots[key] = Variable(lambda: constant(value, dtype=var.dtype, shape=var.shape), trainable=False,
                                         name=f"{var.op.name}/{op_name}")
    return optimizer._slots[key]
