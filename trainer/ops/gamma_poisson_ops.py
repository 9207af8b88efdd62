"""tf.random.gamma and tf.random.poisson: a draw per parameter for each index of `shape` (output shape + the
parameters' shape), from the op's own stream like every random op (seeded by the graph and op seeds, resumed from
checkpoints). TF's samplers (Marsaglia-Tsang for gamma, Knuth's and the transformed rejection for Poisson) are not
reproduced bit for bit: the numbers are numpy's from a generator seeded by the op's Philox stream, with TF's
distributions, shapes, dtypes and graph. Their stateless forms draw the same way from a generator seeded by the
seed pair alone."""
import numpy as np

from ..framework import dtypes
from ..framework.random_seed import get_seed
from ..framework.registry import apply_op, on_host, register
from ..framework.graph_wrappers import name_scope
from .core_ops import convert_to_tensor
from .kernels.philox import stateless_stream
from .stateless_random_ops import seed_pair
from .mask_ops import broadcast_to
from .math_ops import maximum, zeros_like
from .shape_tensors import shape_argument
from .tensor_util import static_shape

_FLOATS = (dtypes.float16, dtypes.float32, dtypes.float64)


def _draw_kernel(sample):
    def make(op, session):
        stream, static, dtype = session.rng(op), op.attrs["shape"], np.dtype(op.attrs["dtype"])

        def run(*inputs):  # (shape Tensor), the distribution's parameter
            shape = tuple(int(d) for d in inputs[0]) if static is None else static
            param = np.asarray(inputs[-1], np.float64)
            return sample(stream.numpy_generator(), param, shape + param.shape).astype(dtype)
        return run
    return make


register("RandomGamma", kernel=on_host(_draw_kernel(lambda rng, alpha, size: rng.standard_gamma(alpha, size))),
         fresh=True, infer=lambda *inputs, dtype, out, **attrs: [(out, dtype)])
register("RandomPoissonV2", kernel=on_host(_draw_kernel(lambda rng, lam, size: rng.poisson(lam, size))),
         fresh=True, infer=lambda *inputs, dtype, out, **attrs: [(out, dtype)])
# TF's gradient of a gamma draw with respect to alpha (implicit reparameterization) is not implemented: asking for
# it raises NotImplementedError; beta's gradient flows (the draw is divided by it). The counts are not
# differentiable (not_differentiable.py).


def _draw(op_type, shape, param, dtype, seed):
    static, tensor = shape_argument(shape, op_type)
    params = static_shape(param)
    out = None if static is None or params is None else tuple(static) + tuple(params)
    seed1, seed2 = get_seed(seed)
    inputs = ([] if tensor is None else [tensor]) + [param]
    return apply_op(op_type, inputs, name=op_type, shape=None if tensor is not None else tuple(static),
                    dtype=dtype, out=out, seed=seed1, seed2=seed2)


def _broadcast_alpha(alpha, beta):
    """alpha broadcast against beta; with known shapes by broadcast_to, so that beta's gradient skips the draw."""
    a, b = static_shape(alpha), static_shape(beta)
    if a is None or b is None or None in a + b:
        return alpha + zeros_like(beta)
    both = np.broadcast_shapes(a, b)
    return alpha if a == both else broadcast_to(alpha, both)


def random_gamma(shape, alpha, beta=None, dtype=dtypes.float32, seed=None, name=None):
    """Gamma(alpha, beta) values of shape `shape` + the broadcast shape of alpha and beta (beta is the rate)."""
    dtype = dtypes.as_dtype(dtype)
    if dtype not in _FLOATS:
        raise TypeError(f"random_gamma draws floats (float16, float32, float64), got dtype {dtype.name}")
    with name_scope(name, "random_gamma"):
        alpha = convert_to_tensor(alpha, name="alpha", dtype=dtype)
        beta = convert_to_tensor(1 if beta is None else beta, name="beta", dtype=dtype)
        draw = _draw("RandomGamma", shape, _broadcast_alpha(alpha, beta), dtype, seed)
        return maximum(np.finfo(dtype).tiny.astype(dtype), draw / beta)


def random_poisson(lam, shape, dtype=dtypes.float32, seed=None, name=None):
    """Poisson(lam) counts of shape `shape` + lam's shape, as `dtype` (floats or ints)."""
    dtype = dtypes.as_dtype(dtype)
    if dtype not in _FLOATS + (dtypes.int32, dtypes.int64):
        raise TypeError(f"random_poisson draws float16, float32, float64, int32 or int64 values, got {dtype.name}")
    with name_scope(name, "random_poisson"):
        lam = convert_to_tensor(lam, name="lam")
        if lam.dtype not in _FLOATS + (dtypes.int32, dtypes.int64):
            raise TypeError(f"random_poisson: lam must be a float or int Tensor, got {lam.name!r} of dtype "
                            f"{lam.dtype.name}")
        return _draw("RandomPoissonV2", shape, lam, dtype, seed)


# the stateless forms: output shape `shape`, the parameters broadcast to it, the numbers a function of the seed pair
_STATELESS = {
    "StatelessRandomGammaV3": lambda rng, params, shape: rng.standard_gamma(np.broadcast_to(params[0], shape)),
    "StatelessRandomPoisson": lambda rng, params, shape: rng.poisson(np.broadcast_to(params[0], shape)),
    "StatelessRandomBinomial": lambda rng, params, shape: rng.binomial(
        np.broadcast_to(params[0], shape).astype(np.int64), np.broadcast_to(params[1], shape)),
}


def _stateless_kernel(sample):
    def make(op, session):
        static, dtype, count = op.attrs["shape"], np.dtype(op.attrs["dtype"]), op.attrs["params"]

        def run(*inputs):  # (shape Tensor), seed, the distribution's parameters
            shape = tuple(int(d) for d in inputs[0]) if static is None else static
            seed, params = inputs[-count - 1], [np.asarray(p, np.float64) for p in inputs[-count:]]
            rng = stateless_stream(*np.asarray(seed).astype(np.int64).tolist()).numpy_generator()
            return sample(rng, params, shape).astype(dtype)
        return run
    return make


for _type, _sample in _STATELESS.items():
    register(_type, kernel=on_host(_stateless_kernel(_sample)), fresh=True,
             infer=lambda *inputs, shape, dtype, params, out: [(out, dtype)])


def _stateless(op_type, shape, seed, params, dtype):
    static, tensor = shape_argument(shape, op_type)
    inputs = ([] if tensor is None else [tensor]) + [seed_pair(seed)] + list(params)
    return apply_op(op_type, inputs, name=op_type, shape=None if tensor is not None else tuple(static), dtype=dtype,
                    params=len(params), out=None if static is None else tuple(static))


def stateless_random_gamma(shape, seed, alpha, beta=None, dtype=dtypes.float32, name=None):
    """Gamma(alpha, beta) values of shape `shape` (alpha and beta broadcast to it), determined by the int pair
    `seed` alone; numpy's sampler, not TF's numbers."""
    dtype = dtypes.as_dtype(dtype)
    if dtype not in _FLOATS:
        raise TypeError(f"stateless_random_gamma draws floats (float16, float32, float64), got dtype {dtype.name}")
    with name_scope(name, "stateless_random_gamma"):
        alpha = convert_to_tensor(alpha, name="alpha", dtype=dtype)
        beta = convert_to_tensor(1 if beta is None else beta, name="beta", dtype=dtype)
        draw = _stateless("StatelessRandomGammaV3", shape, seed, [_broadcast_alpha(alpha, beta)], dtype)
        return maximum(np.finfo(dtype).tiny.astype(dtype), draw / beta)


def stateless_random_poisson(shape, seed, lam, dtype=dtypes.int32, name=None):
    """Poisson(lam) counts of shape `shape` (lam broadcast to it), determined by the int pair `seed` alone; numpy's
    sampler, not TF's numbers."""
    dtype = dtypes.as_dtype(dtype)
    with name_scope(name, "stateless_random_poisson"):
        return _stateless("StatelessRandomPoisson", shape, seed, [convert_to_tensor(lam, name="lam")], dtype)


def stateless_random_binomial(shape, seed, counts, probs, output_dtype=dtypes.int32, name=None):
    """Binomial(counts, probs) values of shape `shape` (the parameters broadcast to it), determined by the int pair
    `seed` alone; numpy's sampler, not TF's numbers."""
    with name_scope(name, "stateless_random_binomial"):
        params = [convert_to_tensor(counts, name="counts"), convert_to_tensor(probs, name="probs")]
        return _stateless("StatelessRandomBinomial", shape, seed, params, dtypes.as_dtype(output_dtype))
