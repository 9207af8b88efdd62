"""Python operators on Tensors build graph ops, named like TF1's ("add", "mul", "truediv", ...)."""
from ..graph import Tensor
from . import array_ops, math_ops


def _binary(fn, name, reverse=False):
    if reverse:
        return lambda self, other: fn(other, self, name=name)
    return lambda self, other: fn(self, other, name=name)


for _dunder, _fn, _name in [("add", math_ops.add, "add"), ("sub", math_ops.subtract, "sub"),
                            ("mul", math_ops.multiply, "mul"), ("truediv", math_ops.divide, "truediv"),
                            ("matmul", math_ops.matmul, "matmul"), ("pow", math_ops.pow, "pow")]:
    setattr(Tensor, f"__{_dunder}__", _binary(_fn, _name))
    setattr(Tensor, f"__r{_dunder}__", _binary(_fn, _name, reverse=True))

for _dunder, _fn in [("lt", math_ops.less), ("le", math_ops.less_equal), ("gt", math_ops.greater),
                     ("ge", math_ops.greater_equal)]:
    setattr(Tensor, f"__{_dunder}__", _binary(_fn, _fn.__name__.capitalize()))

Tensor.__neg__ = lambda self: math_ops.negative(self, name="Neg")
Tensor.__abs__ = lambda self: math_ops.abs(self, name="Abs")
Tensor.__getitem__ = lambda self, key: array_ops.strided_slice(self, key)
