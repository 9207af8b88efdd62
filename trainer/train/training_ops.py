"""Optimizer update ops: each updates its variable and slot arrays in place in the session's store.

The leading `ref_inputs` inputs are variables passed by reference; the rest (learning rate,
hyper-parameters, gradient) arrive as arrays. The formulas are TF1's training_ops.
"""
import numpy as np

from ..ops.kernels import cuda_kernels, gemm
from ..framework.registry import make_kernel, register, register_fusion


# A gradient of at least this many elements that nobody reads after SGD's update takes lr * grad in its own
# buffer instead of a new one (var -= lr * grad, the same two roundings): on one core, float32, 65,536 elements
# 9.7 -> 7.0 us, LeNet's fc1 weight (3.2M) 790 -> 620 us; under 16,384 the two are within 0.2 us, so small
# variables keep the plain kernel.
DONATED_GRADIENT_SIZE = 1 << 16


def register_apply(op_type, update, num_refs, inplace=None, inplace_input=0):
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
                    ref_inputs=num_refs, inplace=inplace, inplace_input=inplace_input)


@cuda_kernels.on_cupy(cuda_kernels.apply_gradient_descent)
def apply_gradient_descent(var, lr, grad):
    var -= lr * grad


def _gradient_descent_into_grad(op, session):
    """ApplyGradientDescent's kernel when its gradient buffer dies with it: lr * grad written over the gradient,
    then subtracted, where the gradient is a large host array of the variable's dtype (else the plain update)."""
    store, ref = session.variables, op.inputs[0].op
    shape = op.inputs[0].shape
    if not shape.is_fully_defined() or int(np.prod(shape.as_list())) < DONATED_GRADIENT_SIZE:
        return make_kernel(op, session)

    def run(lr, grad):
        var = store[ref]
        if type(grad) is np.ndarray and grad.dtype == var.dtype == getattr(lr, "dtype", None) and grad.flags.writeable:
            np.multiply(grad, lr, out=grad)
            var -= grad
        else:
            apply_gradient_descent(var, lr, grad)
        return var
    return run


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


def _gradient_descent_of_product(op, producer, session):
    """ApplyGradientDescent of a MatMul's product that nothing else reads, as one GEMM into the variable (gemm.dot_add:
    var += -lr * (a @ b), BLAS's beta = 1), where the variable is large (DONATED_GRADIENT_SIZE): the gradient is never
    written out and read back (LeNet's fc1 weight: 12.8 MB, twice) and the update is no pass of its own. One rounding
    fewer than the two kernels: within float32's rounding of them. Arrays BLAS cannot take get the two kernels."""
    shape = op.inputs[0].shape
    if not shape.is_fully_defined() or int(np.prod(shape.as_list())) < DONATED_GRADIENT_SIZE:
        return None
    store, ref = session.variables, op.inputs[0].op
    ta, tb = producer.attrs["transpose_a"], producer.attrs["transpose_b"]
    product, update = make_kernel(producer, session), make_kernel(op, session)

    def run(lr, a, b):
        var = store[ref]
        if (isinstance(lr, (np.ndarray, np.generic)) and lr.dtype == var.dtype and lr.ndim == 0
                and gemm.dot_add(a.T if ta else a, b.T if tb else b, var, -float(lr)) is not None):
            return var
        return update(lr, product(a, b))
    return run


register_apply("ApplyGradientDescent", apply_gradient_descent, 1, inplace=_gradient_descent_into_grad,
               inplace_input=1)
register_fusion("ApplyGradientDescent", 1, "MatMul", kernel=_gradient_descent_of_product)
for _type, _update, _refs in [("ApplyMomentum", apply_momentum, 2), ("ApplyAdam", apply_adam, 3)]:
    register_apply(_type, _update, _refs)
