"""Seeded random sources: every op draws from its own generator, seeded by (graph seed, op seed)."""
import numpy as np

from ..framework import dtypes
from ..framework.tensor import Tensor
from ..framework.graph import get_default_graph
from ..framework.random_seed import get_seed
from ..framework.registry import register
from .tensor_util import constant_value, static_shape


def _random_kernel(draw):
    def make(op, session):
        rng, attrs, to_device = session.rng(op), op.attrs, session.to_device
        static, dtype = attrs["shape"], attrs["dtype"]

        def run(*shape_input):  # a shape Tensor arrives as the op's input
            shape = tuple(int(d) for d in shape_input[0]) if shape_input else static
            return to_device(draw(rng, shape, attrs).astype(dtype, copy=False))
        return run
    return make


def _truncated(rng, shape, attrs):
    # TF1's truncated normal: redraw every value more than two standard deviations out.
    values = rng.standard_normal(shape)
    bad = np.abs(values) > 2.0
    while bad.any():
        values[bad] = rng.standard_normal(int(bad.sum()))
        bad = np.abs(values) > 2.0
    return values * attrs["stddev"] + attrs["mean"]


def _uniform(rng, shape, a):
    if np.dtype(a["dtype"]).kind in "iu":
        return rng.integers(a["minval"], a["maxval"], shape)
    return rng.uniform(a["minval"], a["maxval"], shape)


_DRAWS = {
    "RandomNormal": lambda rng, shape, a: rng.normal(a["mean"], a["stddev"], shape),
    "TruncatedNormal": _truncated,
    "RandomUniform": _uniform,
    "RandomUniformInt": _uniform,
}
for _type, _draw in _DRAWS.items():
    register(_type, kernel=_random_kernel(_draw))


def random_op(op_type, shape, dtype, seed=None, name=None, **params):
    """Build a random source of `shape` (ints, or an int vector Tensor such as tg.shape(x)); `params` are the
    distribution's (mean, stddev, minval...)."""
    seed1, seed2 = get_seed(seed)
    dtype = dtypes.as_dtype(dtype)
    inputs, known = [], constant_value(shape) if isinstance(shape, Tensor) else shape
    if known is None:
        inputs = [shape]
        n = (static_shape(shape) or [None])[0]
        static, shape = (None if n is None else (None,) * n), None
    else:
        static = shape = tuple(int(d) for d in np.ravel(known)) if np.ndim(known) else (int(known),)
    attrs = dict(shape=shape, dtype=dtype, seed=seed1, seed2=seed2, **params)
    op = get_default_graph().create_op(op_type, inputs, [(static, dtype)], name=name or op_type, attrs=attrs)
    return op.outputs[0]


def random_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Normally distributed values."""
    return random_op("RandomNormal", shape, dtype, seed, name, mean=float(mean), stddev=float(stddev))


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Normal values redrawn when more than two standard deviations from the mean."""
    return random_op("TruncatedNormal", shape, dtype, seed, name, mean=float(mean), stddev=float(stddev))


def random_uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    """Uniform values in [minval, maxval) (maxval defaults to 1 for floats; integer dtypes need it)."""
    dtype = dtypes.as_dtype(dtype)
    if dtype.kind in "iu":
        if maxval is None:
            raise ValueError(f"random_uniform needs maxval for the integer dtype {dtype.name}")
        return random_op("RandomUniformInt", shape, dtype, seed, name, minval=int(minval), maxval=int(maxval))
    maxval = 1.0 if maxval is None else maxval
    return random_op("RandomUniform", shape, dtype, seed, name, minval=float(minval), maxval=float(maxval))
