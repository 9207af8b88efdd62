"""tf.custom_gradient: a function that gives its own gradient. Its outputs pass through one IdentityN op whose
inputs are the outputs and the function's Tensor arguments; that op's gradient rule is the function's grad_fn,
whose results go to the arguments, so nothing flows back through the function's own ops (TF1 does the same with a
gradient override on IdentityN)."""
import functools
import inspect

from ..framework.graph import get_default_graph
from ..framework.registry import register
from ..framework.tensor import Tensor
from .core_ops import convert_to_tensor
from .math_ops import zeros_like


def _identity_n(*inputs, grad_fn, n):
    return inputs[0] if n == 1 else list(inputs[:n])


def _custom_grad(op, *grads):
    n, args = op.attrs["n"], op.inputs[op.attrs["n"]:]
    grads = [zeros_like(y) if g is None else g for y, g in zip(op.outputs, grads)]
    found = op.attrs["grad_fn"](*grads)
    found = list(found) if isinstance(found, (list, tuple)) else [found]
    if len(found) != len(args):
        raise ValueError(f"The grad_fn of the custom gradient {op.name!r} returned {len(found)} gradients for "
                         f"{len(args)} Tensor arguments: return one per argument (None where there is none)")
    return [None] * n + [None if g is None else convert_to_tensor(g) for g in found]


register("CustomGradientIdentityN", _identity_n, grad=_custom_grad,
         infer=lambda *inputs, grad_fn, n: [(y.shape, y.dtype) for y in inputs[:n]])


def custom_gradient(f):
    """Decorate f(*tensors) -> (outputs, grad_fn), grad_fn(*output_grads) -> one gradient per argument: the
    decorated function returns f's outputs, and tg.gradients uses grad_fn for them (variables f reads get no
    gradient through it: pass them as arguments)."""
    @functools.wraps(f)
    def decorated(*args, **kwargs):
        args = [convert_to_tensor(x) for x in args]
        result, grad_fn = f(*args, **kwargs)
        if "variables" in inspect.signature(grad_fn).parameters:
            raise NotImplementedError(f"custom_gradient of {f.__name__!r}: a grad_fn that takes `variables` (gradients "
                                      "for the variables f reads) is not implemented; pass the variables to f as "
                                      "arguments instead")
        several = isinstance(result, (list, tuple))
        outputs = [convert_to_tensor(y) for y in (result if several else [result])]
        graph = outputs[0].graph if outputs and isinstance(outputs[0], Tensor) else get_default_graph()
        op = graph.create_op("CustomGradientIdentityN", outputs + args,
                             [(y.shape, y.dtype) for y in outputs], name="IdentityN",
                             attrs={"grad_fn": grad_fn, "n": len(outputs)})
        return list(op.outputs) if several else op.outputs[0]
    return decorated


def grad_pass_through(f):
    """f with the identity as its gradient (a straight-through estimator: round in the forward pass, pass the
    gradient on unchanged); f's outputs match its Tensor arguments one for one."""
    @functools.wraps(f)
    def wrapped(*args, **kwargs):
        return custom_gradient(lambda *xs: (f(*xs, **kwargs), lambda *grads: grads))(*args)
    return wrapped
