"""The op types TF1 declares NotDifferentiable: tg.gradients passes through them giving no gradient to their
inputs, where an op type without any gradient rule is an error.

TF1 registers these with ops.NotDifferentiable (random_ops.py, array_grad.py, math_grad.py, nn_grad.py):
random draws (their noise is a constant of the parameters, so z = mean + stddev * noise still reaches mean
and stddev), shapes and sizes, comparisons and logic, arg-extrema, one_hot and range. ringflow's op names
for TF1's RandomStandardNormal ("RandomNormal") and its argsort ("Argsort") stand in for them.
"""
from ..framework.registry import op_def, register_gradient

NOT_DIFFERENTIABLE = (
    "RandomNormal", "TruncatedNormal", "RandomUniform", "RandomUniformInt", "Multinomial",
    "Shape", "Rank", "Size", "OneHot", "Range", "Unique", "Where",
    "ArgMax", "ArgMin", "Argsort", "InTopKV2",
    "Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual",
    "LogicalAnd", "LogicalOr", "LogicalNot", "IsFinite", "IsInf", "IsNan",
)


def _no_gradient(op, *output_grads):
    return [None] * len(op.inputs)


for _type in NOT_DIFFERENTIABLE:
    if op_def(_type).grad is not None:
        raise ValueError(f"Op type {_type!r} has a gradient rule, but TF1 declares it NotDifferentiable")
    register_gradient(_type)(_no_gradient)
