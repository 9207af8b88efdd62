"""Stateless random ops (tf.random.stateless_*): the numbers are a function of the shape and a seed pair alone, the
same on every run and in every session, TF's bit for bit. The seed pair is scrambled into a Philox key and counter
as TF's kernels do (kernels/philox.py's stateless_stream), then TF's distributions draw from there
(kernels/random_distributions.py), so a stateless op gives what the stateful op of the same key and counter would.

As in TF, the op draws the standard distribution and the graph scales and shifts it (noise * stddev + mean, the
add named after the scope), so gradients reach mean and stddev; the draw itself has none.
"""
import enum

import numpy as np

from ..framework import dtypes
from ..framework.graph import get_default_graph
from ..framework.graph_wrappers import name_scope
from ..framework.registry import apply_op, on_host, op_def, register, to_numpy
from ..platform.errors import InvalidArgumentError
from .array_ops import cast, concat, reshape, zeros
from .core_ops import constant, convert_to_tensor
from ..framework.tensor import Tensor
from .kernels import random_distributions as distributions
from .kernels.philox import stateless_stream
from .shape_tensors import shape_argument
from .stack_ops import stack
from .tensor_util import constant_value, static_shape

_DRAWS = {
    "StatelessRandomUniform": lambda stream, n, dtype, a: distributions.uniform(stream, n, dtype),
    "StatelessRandomNormal": lambda stream, n, dtype, a: distributions.normal(stream, n, dtype),
    "StatelessTruncatedNormal": lambda stream, n, dtype, a: distributions.truncated_normal(stream, n, dtype),
    "StatelessRandomUniformInt": lambda stream, n, dtype, a: distributions.uniform_int(stream, n, a[0], a[1], dtype),
    "StatelessRandomUniformFullInt": lambda stream, n, dtype, a: _full_int(stream, n, dtype),
}


def _full_int(stream, n, dtype):
    # TF's UniformFullIntDistribution: the raw uint32s (int32) or pairs of them, low word first (int64)
    if dtype.itemsize == 4:
        return distributions.uint32s(stream, n).view(dtype)
    bits = distributions.uint32s(stream, 2 * n).astype(np.uint64)
    return (bits[0::2] | bits[1::2] << np.uint64(32)).view(dtype)


class Algorithm(enum.Enum):
    """The counter-based generators of TF's stateless ops; on a CPU "auto_select" is Philox, ringflow's one."""
    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


def _algorithm(alg):
    if isinstance(alg, str) and alg.upper() in Algorithm.__members__:
        alg = Algorithm[alg.upper()]
    try:
        return Algorithm(alg)
    except ValueError:
        raise ValueError(f"Unknown random algorithm {alg!r}: use one of {[a.name.lower() for a in Algorithm]}") \
            from None


def _check_alg(alg):
    if _algorithm(alg) is Algorithm.THREEFRY:
        raise NotImplementedError("The ThreeFry generator is not implemented: use alg='philox' or 'auto_select' "
                                  "(TF's choice on a CPU)")


def _stream(seed):
    seed = np.asarray(seed).astype(np.int64)
    return stateless_stream(*seed.tolist())


def _draw_kernel(draw):
    def make(op, session):
        static, dtype = op.attrs["shape"], np.dtype(op.attrs["dtype"])

        def run(*inputs):  # (shape Tensor), seed, (minval, maxval)
            shape = tuple(int(d) for d in inputs[0]) if static is None else static
            seed, bounds = inputs[0 if static is not None else 1], inputs[2 if static is None else 1:]
            bounds = [int(b) for b in bounds]
            if bounds and bounds[0] >= bounds[1]:
                raise InvalidArgumentError(f"Need minval < maxval: {bounds[0]} >= {bounds[1]}")
            values = draw(_stream(seed), int(np.prod(shape, dtype=np.int64)), dtype, bounds)
            return values.reshape(shape)
        return run
    return make


for _type, _draw in _DRAWS.items():
    register(_type, kernel=on_host(_draw_kernel(_draw)), fresh=True,
             infer=lambda *inputs, shape, dtype, static: [(static, dtype)])


def seed_pair(seed):
    """`seed` as the int32 or int64 [2] Tensor a stateless op takes, checked."""
    seed = convert_to_tensor(seed, name="seed")
    if seed.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"A stateless random op's seed is an int32 or int64 pair, got {seed.name!r} of dtype "
                        f"{seed.dtype.name}")
    if static_shape(seed) not in (None, (2,), (None,)):
        raise ValueError(f"A stateless random op's seed has shape [2], got {seed.name!r} of shape {seed.shape}")
    return seed


def _draw(op_type, shape, seed, dtype, bounds=()):
    static, tensor = shape_argument(shape, op_type)
    inputs = ([] if tensor is None else [tensor]) + [seed_pair(seed)] + list(bounds)
    return apply_op(op_type, inputs, name=op_type, shape=None if tensor is not None else static, dtype=dtype,
                    static=static)


def _scaled(op_type, default_name, shape, seed, scale, shift, dtype, name, alg):
    _check_alg(alg)
    dtype = dtypes.as_dtype(dtype)
    if dtype not in (dtypes.float16, dtypes.float32, dtypes.float64):  # TF: the uniform's dtype check, the others'
        error = ValueError if op_type == "StatelessRandomUniform" else TypeError  # conversion of their mean
        raise error(f"{default_name} draws floats (float16, float32, float64), got dtype {dtype.name}")
    graph = get_default_graph()
    with name_scope(name, default_name) as scope:
        names = ("maxval", "minval") if op_type == "StatelessRandomUniform" else ("stddev", "mean")
        scale, shift = (convert_to_tensor(v, dtype=dtype, name=n) for v, n in zip((scale, shift), names))
        if op_type == "StatelessRandomUniform":
            scale = scale - shift
        inputs = [_draw(op_type, shape, seed, dtype) * scale, shift]
        return graph.create_op("Add", inputs, op_def("Add").infer(*inputs), name=scope[:-1], unique=False).outputs[0]


def stateless_random_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None, alg="auto_select"):
    """Normal values determined by `shape` and the int pair `seed` alone: the same on every run."""
    return _scaled("StatelessRandomNormal", "stateless_random_normal", shape, seed, stddev, mean, dtype, name, alg)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None,
                               alg="auto_select"):
    """Normal values within two standard deviations, determined by `shape` and the int pair `seed` alone."""
    return _scaled("StatelessTruncatedNormal", "stateless_truncated_normal", shape, seed, stddev, mean, dtype, name,
                   alg)


def stateless_random_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32, name=None,
                             alg="auto_select"):
    """Uniform values in [minval, maxval) determined by `shape` and the int pair `seed` alone (integer dtypes need
    maxval)."""
    dtype = dtypes.as_dtype(dtype)
    if dtype not in (dtypes.int32, dtypes.int64):
        return _scaled("StatelessRandomUniform", "stateless_random_uniform", shape, seed,
                       1 if maxval is None else maxval, minval, dtype, name, alg)
    _check_alg(alg)
    if (minval is None) != (maxval is None):
        raise ValueError(f"stateless_random_uniform of dtype {dtype.name} needs minval and maxval both given or "
                         f"both None (the full range), got minval={minval!r} and maxval={maxval!r}")
    op_type = "StatelessRandomUniformFullInt" if minval is None else "StatelessRandomUniformInt"
    with name_scope(name, "stateless_random_uniform") as scope:
        bounds = [] if minval is None else [
            convert_to_tensor(v, dtype=dtype, name=n) for v, n in ((minval, "min"), (maxval, "max"))]
        static, tensor = shape_argument(shape, "stateless_random_uniform")
        inputs = ([] if tensor is None else [tensor]) + [seed_pair(seed)] + bounds
        attrs = dict(shape=None if tensor is not None else static, dtype=dtype, static=static)
        return get_default_graph().create_op(op_type, inputs, [(static, dtype)], name=scope[:-1], attrs=attrs,
                                             unique=False).outputs[0]


def stateless_split(seed, num=2, alg="auto_select"):
    """`num` new seed pairs ([num, 2], seed's dtype) drawn from the pair `seed`, for further stateless ops."""
    seed = convert_to_tensor(seed)
    return stateless_random_uniform([num, 2], seed, None, None, dtype=seed.dtype, alg=alg)


def stateless_fold_in(seed, data, alg="auto_select"):
    """A new seed pair from the pair `seed` and the integer scalar `data` (a step number, say)."""
    data = convert_to_tensor(data)
    return stack([stateless_random_uniform([], seed, None, None, dtype=data.dtype, alg=alg), data])


def _multinomial_kernel(op, session):
    out_dtype = np.dtype(op.attrs["output_dtype"])

    def run(logits, num_samples, seed):
        n = int(num_samples)
        if logits.ndim != 2 or n < 0:
            raise InvalidArgumentError(f"stateless_multinomial: logits must be 2-D [batch, classes] and "
                                       f"num_samples >= 0, got shape {tuple(logits.shape)} and {n}")
        if logits.shape[0] * n == 0:
            return np.zeros((logits.shape[0], n), out_dtype)
        return distributions.categorical(_stream(seed), to_numpy(logits), n).astype(out_dtype)
    return run


register("StatelessMultinomial", kernel=on_host(_multinomial_kernel), fresh=True,
         infer=lambda logits, n, seed, output_dtype, static_n: [
             (((static_shape(logits) or (None,))[0], static_n), output_dtype)])


def stateless_multinomial(logits, num_samples, seed, output_dtype=dtypes.int64, name=None):
    """[batch, num_samples] class indices drawn from each row of `logits`, determined by the int pair `seed`."""
    with name_scope(name, "stateless_multinomial"):
        logits = convert_to_tensor(logits, name="logits")
        if logits.dtype.kind != "f" or logits.ndim not in (None, 2):
            raise ValueError(f"stateless_multinomial needs 2-D float logits [batch, classes], got {logits.name!r} "
                             f"of dtype {logits.dtype.name} and shape {logits.shape}")
        known = constant_value(num_samples)
        n = convert_to_tensor(num_samples, dtype=dtypes.int32, name="num_samples")
        return apply_op("StatelessMultinomial", [logits, n, seed_pair(seed)], name="StatelessMultinomial",
                        output_dtype=dtypes.as_dtype(output_dtype), static_n=None if known is None else int(known))


def stateless_categorical(logits, num_samples, seed, dtype=dtypes.int64, name=None):
    """tf.random.stateless_categorical: stateless_multinomial with the output dtype named `dtype`."""
    return stateless_multinomial(logits, num_samples, seed, output_dtype=dtype, name=name or "stateless_categorical")





_STATE_SIZES = {Algorithm.PHILOX: 3, Algorithm.THREEFRY: 2}  # int64s: Philox's 128-bit counter and 64-bit key


def create_rng_state(seed, alg):
    """The int64 state vector (a Tensor) a tf.random.Generator of algorithm `alg` starts from for `seed`: an int
    cut into 64-bit words low first, or a vector of words, cut to the state's size or zero-padded on the left, as
    TF makes it (a short seed then fills the key, not the counter)."""
    alg = _algorithm(alg)
    if alg not in _STATE_SIZES:
        raise ValueError(f"create_rng_state needs a concrete algorithm (philox or threefry), got {alg.name.lower()}")
    size = _STATE_SIZES[alg]
    if isinstance(seed, int):
        seed = [(seed >> (64 * i)) & 0xFFFFFFFFFFFFFFFF for i in range(size)]
    if not isinstance(seed, Tensor):
        words = [int(w) - (1 << 64) if int(w) >= 1 << 63 else int(w) for w in np.asarray(seed, object).ravel()][:size]
        return constant(np.array([0] * (size - len(words)) + words, np.int64), name="rng_state")
    seed = reshape(cast(seed, dtypes.int64), [-1])
    length = static_shape(seed)[0]
    if length is None:
        raise ValueError(f"create_rng_state needs a seed vector of known length, got {seed.name!r}")
    seed = seed[:size]
    return concat([zeros([max(size - length, 0)], dtypes.int64), seed], 0) if length < size else seed


def _shuffle_kernel(op, session):
    def run(value, seed):
        order = distributions.shuffled_order(_stream(seed), len(value)) if value.ndim else None
        return value if order is None else value[order]
    return run


register("StatelessShuffle", kernel=on_host(_shuffle_kernel), fresh=True, infer=lambda value, seed: [
    (static_shape(value), value.dtype)])


def stateless_shuffle(value, seed, alg="auto_select", name=None):
    """`value`'s rows (along axis 0) in an order determined by the int pair `seed` alone (TF's RandomShuffle order
    from the seed's Philox key and counter)."""
    _check_alg(alg)
    value = convert_to_tensor(value, name="value")
    return apply_op("StatelessShuffle", [value, seed_pair(seed)], name=name or "StatelessShuffle")
