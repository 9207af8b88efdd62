"""Optimizer update ops: each updates its variable and slot arrays in place in the session's store.

The leading `ref_inputs` inputs are variables passed by reference; the rest (learning rate,
hyper-parameters, gradient) arrive as arrays. The formulas are TF1's training_ops.
"""
import numpy as np

from ..ops.kernels import cuda_kernels
from ..framework.registry import register


def register_apply(op_type, update, num_refs):
    """Register `op_type` running update(*ref_arrays, *input_arrays, **attrs) in place; returns its OpDef."""
    def make(op, session):
        store, refs, attrs = session.variables, [t.op for t in op.inputs[:num_refs]], op.attrs
        if num_refs == 1 and not attrs:  # plain SGD's update, once per variable per step: no list, no kwargs
            ref = refs[0]

            def plain(*values):
                array = store[ref]
                update(array, *values)
                return array
            return plain

        def kernel(*values):
            arrays = [store[r] for r in refs]
            update(*arrays, *values, **attrs)
            return arrays[0]
        return kernel
    return register(op_type, kernel=make, infer=lambda var, *rest, **attrs: [(var.shape, var.dtype)],
                    ref_inputs=num_refs)


@cuda_kernels.on_cupy(cuda_kernels.apply_gradient_descent)
def apply_gradient_descent(var, lr, grad):
    var -= lr * grad


@cuda_kernels.on_cupy(cuda_kernels.apply_momentum)
def apply_momentum(var, accum, lr, grad, momentum, use_nesterov=False):
    accum *= momentum
    accum += grad
    if use_nesterov:  # TF1: var -= lr * grad + lr * momentum * accum
        var -= lr * (grad + momentum * accum)
    else:
        var -= lr * accum


def apply_adam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):
    # TF1: bias correction folded into the step size, epsilon added to sqrt(v) (not to sqrt(v-hat)).
    lr_t = lr * np.sqrt(1 - beta2_power) / (1 - beta1_power)
    m += (grad - m) * (1 - beta1)
    v += (grad * grad - v) * (1 - beta2)
    step = np.sqrt(v)
    if step.ndim == 0:  # numpy gives a scalar for a 0-d variable, which the in-place steps cannot write into
        var -= lr_t * m / (step + epsilon)
        return
    step += epsilon
    np.divide(m, step, out=step)
    step *= lr_t
    var -= step


for _type, _update, _refs in [("ApplyGradientDescent", apply_gradient_descent, 1),
                              ("ApplyMomentum", apply_momentum, 2), ("ApplyAdam", apply_adam, 3)]:
    register_apply(_type, _update, _refs)
