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
# variables keep the plain kernel. Momentum's update takes accum * lr there the same way (caches flushed: 65,536
# elements 49 -> 40 us, 262,144 166 -> 140 us).
DONATED_GRADIENT_SIZE = 1 << 16
# Momentum's and Adam's updates make 4 and 12 passes over their arrays. A variable of BLOCKED_BYTES or more goes
# through them BLOCK_BYTES at a time, into reused work buffers, so that a block's arrays (Adam's var, m, v, grad
# and two work buffers: 3 MiB) stay in cache from the first pass to the last instead of coming from memory each pass.
# Float32, one core, caches flushed before each call, blocks of 128 KiB to 2 MiB tried: Adam on LeNet's fc1 weight
# (3.2 M elements) 5.5 -> 4.3 ms (4.7 in TF1's order of rounding, which takes the second buffer), momentum 2.2 ->
# 1.7 ms; on 1 M 1.70 -> 1.57 and 0.65 -> 0.62 ms; at 400 K and under no gain, and the extra Python calls cost
# more than they save, so smaller variables keep numpy's formula.
BLOCK_BYTES = 1 << 19
BLOCKED_BYTES = 1 << 22


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
    blocks = _blocks((var, accum, grad), (lr, momentum), 2 if use_nesterov else 1)
    if blocks is not None:
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


def _momentum_into_grad(op, session):
    """ApplyMomentum's kernel when its gradient buffer dies with it: the step (accum * lr; Nesterov: grad * lr +
    accum * momentum * lr) written over the gradient, then subtracted, where the gradient is a host array of the
    variable's dtype and size, of DONATED_GRADIENT_SIZE elements or more and under BLOCKED_BYTES (else the update)."""
    store, (var_ref, accum_ref) = session.variables, [t.op for t in op.inputs[:2]]
    shape, nesterov = op.inputs[0].shape, op.attrs.get("use_nesterov", False)
    if not shape.is_fully_defined() or int(np.prod(shape.as_list())) < DONATED_GRADIENT_SIZE:
        return make_kernel(op, session)

    def run(lr, grad, momentum):
        var, accum = store[var_ref], store[accum_ref]
        if (type(grad) is not np.ndarray or not grad.flags.writeable or grad.shape != var.shape
                or var.nbytes >= BLOCKED_BYTES or not grad.dtype == var.dtype == accum.dtype
                or not _typed((lr, momentum), var.dtype)):
            apply_momentum(var, accum, lr, grad, momentum, nesterov)
            return var
        accum *= momentum
        accum += grad
        if nesterov:
            grad *= lr
            step = accum * momentum
            step *= lr
            grad += step
        else:
            np.multiply(accum, lr, out=grad)
        var -= grad
        return var
    return run


def apply_adam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):
    # TF1: bias correction folded into the step size, epsilon added to sqrt(v) (not to sqrt(v-hat)), rounded in
    # its order: var -= (m * lr_t) / (sqrt(v) + epsilon).
    lr_t = lr * np.sqrt(1 - beta2_power) / (1 - beta1_power)
    blocks = _blocks((var, m, v, grad), (beta1_power, beta2_power, lr, beta1, beta2, epsilon), 2)
    if blocks is not None:
        c1, c2 = 1 - beta1, 1 - beta2
        for x, m_, v_, g, step, scaled in blocks:  # the roundings of the formula below
            np.subtract(g, m_, out=step)
            step *= c1
            m_ += step
            np.multiply(g, g, out=step)
            step -= v_
            step *= c2
            v_ += step
            np.sqrt(v_, out=step)
            step += epsilon
            np.multiply(m_, lr_t, out=scaled)
            np.divide(scaled, step, out=step)
            x -= step
        return
    m += (grad - m) * (1 - beta1)  # numpy's ufuncs dispatch CuPy arrays to CuPy
    v += (grad * grad - v) * (1 - beta2)
    step = np.sqrt(v)
    if step.ndim == 0:  # numpy gives a scalar for a 0-d variable, which the in-place steps cannot write into
        var -= m * lr_t / (step + epsilon)
        return
    step += epsilon
    np.divide(m * lr_t, step, out=step)
    var -= step


def _blocks(arrays, scalars, scratch):
    """[(*views of the arrays, *`scratch` work buffers of their size)] for each block of BLOCK_BYTES of the arrays,
    where they are C-ordered numpy arrays of one shape and dtype, of BLOCKED_BYTES or more, and the scalars have
    that dtype too (which keeps the roundings of numpy's formula); else None."""
    first = arrays[0]
    if type(first) is not np.ndarray or first.nbytes < BLOCKED_BYTES or not first.flags.c_contiguous:
        return None
    for a in arrays[1:]:
        if type(a) is not np.ndarray or a.shape != first.shape or a.dtype != first.dtype or not a.flags.c_contiguous:
            return None
    if not _typed(scalars, first.dtype):
        return None
    step, flat = BLOCK_BYTES // first.itemsize, [a.reshape(-1) for a in arrays]
    work = [np.empty(step, first.dtype) for _ in range(scratch)]
    return [(*[f[i:i + step] for f in flat], *[w[:min(step, first.size - i)] for w in work])
            for i in range(0, first.size, step)]


def _typed(scalars, dtype):
    return all(type(s) in (np.ndarray, dtype.type) and s.dtype == dtype for s in scalars)


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
register_apply("ApplyMomentum", apply_momentum, 2, inplace=_momentum_into_grad, inplace_input=1)
register_apply("ApplyAdam", apply_adam, 3)
register_fusion("ApplyGradientDescent", 1, "MatMul", kernel=_gradient_descent_of_product)
