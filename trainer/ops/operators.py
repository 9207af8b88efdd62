"""Python operators on Tensors build graph ops, named as TF1 names them ("add", "mul", "truediv", "LessEqual")."""
from ..framework.tensor import Tensor
from . import cwise_ops, math_ops, slice_ops


def _binary(fn, name, reverse=False):
    if reverse:
        return lambda self, other: fn(other, self, name=name)
    return lambda self, other: fn(self, other, name=name)


for _dunder, _fn, _name in [("add", math_ops.add, "add"), ("sub", math_ops.subtract, "sub"),
                            ("mul", math_ops.multiply, "mul"), ("truediv", math_ops.divide, "truediv"),
                            ("matmul", math_ops.matmul, "matmul"), ("pow", math_ops.pow, "pow"),
                            ("mod", cwise_ops.floormod, "mod"), ("floordiv", cwise_ops.floordiv, "floordiv"),
                            ("and", cwise_ops.logical_and, "and"), ("or", cwise_ops.logical_or, "or"),
                            ("xor", cwise_ops.logical_xor, "xor")]:
    setattr(Tensor, f"__{_dunder}__", _binary(_fn, _name))
    setattr(Tensor, f"__r{_dunder}__", _binary(_fn, _name, reverse=True))

# TF1 names comparison ops after their type: `x <= y` is the op "LessEqual".
for _dunder, _fn, _name in [("lt", math_ops.less, "Less"), ("le", math_ops.less_equal, "LessEqual"),
                            ("gt", math_ops.greater, "Greater"), ("ge", math_ops.greater_equal, "GreaterEqual")]:
    setattr(Tensor, f"__{_dunder}__", _binary(_fn, _name))

Tensor.__neg__ = lambda self: math_ops.negative(self, name="Neg")
Tensor.__abs__ = lambda self: math_ops.abs(self, name="Abs")
Tensor.__invert__ = lambda self: cwise_ops.logical_not(self, name="LogicalNot")
Tensor.__getitem__ = lambda self, key: slice_ops.strided_slice(self, key)
