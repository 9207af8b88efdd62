"""Helpers for optimizers beyond the core three: registering an Apply* op, and slots that do not start at zero.

register_apply (training_ops.py) registers an op that updates its variable and slot arrays in place; each
optimizer's module registers its own op next to its formula with it; the filled slots are here.
"""
from ..ops.core_ops import constant
from ..ops.variables import Variable


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
