"""The op types TF1 declares NotDifferentiable: tg.gradients passes through them giving no gradient to their
inputs, where an op type without any gradient rule is an error.

TF1 registers these with ops.NotDifferentiable (random_ops.py, stateless_random_ops.py, array_grad.py, math_grad.py,
nn_grad.py):
random draws (their noise is a constant of the parameters, so z = mean + stddev * noise still reaches mean
and stddev), shapes and sizes, comparisons and logic, arg-extrema, one_hot and range. ringflow's op names
for TF1's RandomStandardNormal ("RandomNormal") and its argsort ("Argsort") stand in for them.
"""
from ..framework.registry import op_def, register_gradient

NOT_DIFFERENTIABLE = (
    "RandomNormal", "TruncatedNormal", "RandomUniform", "RandomUniformInt", "Multinomial", "RandomPoissonV2",
    "StatelessRandomNormal", "StatelessTruncatedNormal", "StatelessRandomUniform", "StatelessRandomUniformInt",
    "StatelessRandomUniformFullInt", "StatelessMultinomial", "StatelessRandomPoisson", "StatelessRandomBinomial",
    "Fingerprint",
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


def no_gradient(op_type):
    """Declare the registered op type `op_type` not differentiable (TF1's tf.NotDifferentiable): tg.gradients gives
    its inputs no gradient instead of raising."""
    if not isinstance(op_type, str):
        raise TypeError(f"op_type must be the name of an op type (a string), got {op_type!r}")
    _claim(op_type)
    register_gradient(op_type)(_no_gradient)


NoGradient = NotDifferentiable = no_gradient


class RegisterGradient:
    """Decorator making f(op, *output_grads) the gradient of the registered op type `op_type` (TF1's
    tf.RegisterGradient; f may return one Tensor for a one-input op). Graph.gradient_override_map is not
    available: a name registered here is an op type's own gradient."""

    def __init__(self, op_type):
        if not isinstance(op_type, str):
            raise TypeError(f"op_type must be the name of an op type (a string), got {op_type!r}")
        self._op_type = op_type

    def __call__(self, f):
        _claim(self._op_type)

        def rule(op, *grads):
            found = f(op, *grads)
            return list(found) if isinstance(found, (list, tuple)) else [found]
        register_gradient(self._op_type)(rule)
        return f


def _claim(op_type):
    if op_def(op_type).grad is not None:  # op_def names the known op types when op_type is not one
        raise KeyError(f"Registering two gradients with name {op_type!r}: op type {op_type!r} has one already")
