"""Python operators on Tensors build graph ops, named like TF1's ("add", "mul", "truediv", ...)."""
from ..graph import Tensor
from . import math_ops


def _binary(fn, name, reverse=False):
    if reverse:
        return lambda self, other: fn(other, self, name=name)
    return lambda self, other: fn(self, other, name=name)


for _dunder, _fn, _name in [("add", math_ops.add, "add"), ("sub", math_ops.subtract, "sub"),
                            ("mul", math_ops.multiply, "mul"), ("truediv", math_ops.divide, "truediv"),
                            ("matmul", math_ops.matmul, "matmul")]:
    setattr(Tensor, f"__{_dunder}__", _binary(_fn, _name))
    setattr(Tensor, f"__r{_dunder}__", _binary(_fn, _name, reverse=True))
