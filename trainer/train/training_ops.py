"""Optimizer update ops: each updates its variable and slot arrays in place in the session's store.

The leading `ref_inputs` inputs are variables passed by reference; the rest (learning rate,
hyper-parameters, gradient) arrive as arrays. The formulas are TF1's training_ops.
"""
import numpy as np

from ..ops.kernels import cuda_kernels
from ..framework.registry import make_kernel, register


# A gradient of at least this many elements that nobody reads after SGD's update takes lr * grad in its own
# buffer instead of a new one (var -= lr * grad, the same two roundings): on one core, float32, 65,536 elements
# 9.7 -> 7.0 us, LeNet's fc1 weight (3.2M) 790 -> 620 us; under 16,384 the two are within 0.2 us, so small
# variables keep the plain kernel.
DONATED_GRADIENT_SIZE = 1 << 16
# Momentum's and Adam's updates make 4 and 12 passes over their arrays: a variable larger than this goes through
# them a block at a time, so that the block's arrays (Adam: var, m, v, grad and one work buffer, 640 KiB) stay in
# the core's L2 (1 MiB per core here) from the first pass to the last instead of coming from memory every pass.
# Float32, one core, caches flushed: Adam on LeNet's fc1 weight (3.2 M) 7.5 -> 4.5 ms, on 1 M 1.9 -> 1.6 ms;
# blocks of 64 and 256 KiB gave about the same.
BLOCK_BYTES = 1 << 17


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
    # TF1: accum = accum * momentum + grad; var -= accum * lr (Nesterov: var -= grad * lr + accum * momentum * lr)
    blocks = _blocks((var, accum, grad), 2 if use_nesterov else 1)
    if blocks:
        for x, a, g, step, *work in blocks:
            a *= momentum
            a += g
            if use_nesterov:
                np.multiply(a, momentum, out=step)
                step *= lr
                step += np.multiply(g, lr, out=work[0])
            else:
                np.multiply(a, lr, out=step)
            x -= step
        return
    accum *= momentum
    accum += grad
    var -= grad * lr + accum * momentum * lr if use_nesterov else lr * accum


def apply_adam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):
    # TF1: bias correction folded into the step size, epsilon added to sqrt(v) (not to sqrt(v-hat)).
    lr_t = lr * np.sqrt(1 - beta2_power) / (1 - beta1_power)
    blocks = _blocks((var, m, v, grad), 1)
    if blocks:
        c1, c2 = 1 - beta1, 1 - beta2
        for x, m_, v_, g, step in blocks:  # the roundings of the formula below
            np.subtract(g, m_, out=step)
            step *= c1
            m_ += step
            np.multiply(g, g, out=step)
            step -= v_
            step *= c2
            v_ += step
            np.sqrt(v_, out=step)
            step += epsilon
            np.divide(m_, step, out=step)
            step *= lr_t
            x -= step
        return
    m += (grad - m) * (1 - beta1)  # CuPy arrays, other layouts: numpy's ufuncs dispatch to their module
    v += (grad * grad - v) * (1 - beta2)
    step = np.sqrt(v)
    if step.ndim == 0:  # numpy gives a scalar for a 0-d variable, which the in-place steps cannot write into
        var -= lr_t * m / (step + epsilon)
        return
    step += epsilon
    np.divide(m, step, out=step)
    step *= lr_t
    var -= step


def _blocks(arrays, scratch):
    """[(*views of the arrays, *`scratch` work buffers of their size)] for each block of BLOCK_BYTES of the arrays,
    one block (the arrays themselves) when they fit in one; None unless all are C-ordered numpy arrays of one shape
    and dtype (CuPy arrays, other layouts)."""
    first = arrays[0]
    if type(first) is not np.ndarray or not first.flags.c_contiguous:
        return None
    for a in arrays[1:]:
        if type(a) is not np.ndarray or a.shape != first.shape or a.dtype != first.dtype or not a.flags.c_contiguous:
            return None
    step = max(1, BLOCK_BYTES // first.itemsize)
    if first.size <= step:
        return [(*arrays, *map(np.empty_like, (first,) * scratch))]
    flat = [a.reshape(-1) for a in arrays]
    work = [np.empty(step, first.dtype) for _ in range(scratch)]
    return [(*[f[i:i + step] for f in flat], *[w[:min(step, first.size - i)] for w in work])
            for i in range(0, first.size, step)]


register_apply("ApplyGradientDescent", apply_gradient_descent, 1, inplace=_gradient_descent_into_grad,
               inplace_input=1)
for _type, _update, _refs in [("ApplyMomentum", apply_momentum, 2), ("ApplyAdam", apply_adam, 3)]:
    register_apply(_type, _update, _refs)
