"""Bitwise operations on integers (tf.bitwise): and, or, xor, invert and the shifts; TF1 gives them no gradient."""
import numpy as np

from ..framework.registry import host_kernel
from ..framework.registry import apply_op, register
from .core_ops import convert_to_tensor
from .math_ops import binary_operands


def _shift(shift):
    """`shift` with the shift count clamped to [0, bits - 1], as TF's kernel does (C leaves larger ones undefined)."""
    def run(x, y):
        return shift(x, np.clip(y, 0, x.dtype.itemsize * 8 - 1).astype(x.dtype)).astype(x.dtype)
    return run


BINARY = {"BitwiseAnd": np.bitwise_and, "BitwiseOr": np.bitwise_or, "BitwiseXor": np.bitwise_xor,
          "LeftShift": _shift(np.left_shift), "RightShift": _shift(np.right_shift)}
for _type, _forward in BINARY.items():
    register(_type, kernel=host_kernel(_forward), fresh=True)
register("Invert", kernel=host_kernel(np.invert), infer=lambda x: [(x.shape, x.dtype)], fresh=True)


def _integers(what, *tensors):
    for t in tensors:
        if t.dtype.kind not in "iu":
            raise TypeError(f"{what} takes integer inputs, got {t.name!r} of dtype {t.dtype.name}")


def _builder(op_type, public_name, doc):
    def build(x, y, name=None):
        x, y = binary_operands(op_type, x, y)
        _integers(public_name, x, y)
        return apply_op(op_type, [x, y], name=name or op_type)
    build.__name__ = build.__qualname__ = public_name
    build.__doc__ = doc
    return build


bitwise_and = _builder("BitwiseAnd", "bitwise_and", "x & y elementwise, on integers.")
bitwise_or = _builder("BitwiseOr", "bitwise_or", "x | y elementwise, on integers.")
bitwise_xor = _builder("BitwiseXor", "bitwise_xor", "x ^ y elementwise, on integers.")
left_shift = _builder("LeftShift", "left_shift", "x << y elementwise (y clamped to [0, bits - 1]).")
right_shift = _builder("RightShift", "right_shift", "x >> y elementwise, arithmetic for signed x (y clamped to "
                       "[0, bits - 1]).")


def invert(x, name=None):
    """~x elementwise: every bit flipped, on integers."""
    x = convert_to_tensor(x)
    _integers("invert", x)
    return apply_op("Invert", [x], name=name or "Invert")
