"""Seeded random sources: every op draws from its own generator, seeded by (graph seed, op seed)."""
import numpy as np

from .. import dtypes
from ..graph import get_default_graph
from ..random_seed import get_seed
from .registry import register


def _random_kernel(draw):
    def make(op, session):
        rng, attrs, to_device = session.rng(op), op.attrs, session.to_device
        shape, dtype = attrs["shape"], attrs["dtype"]
        return lambda: to_device(draw(rng, shape, attrs).astype(dtype, copy=False))
    return make


def _truncated(rng, shape, attrs):
    # TF1's truncated normal: redraw every value more than two standard deviations out.
    values = rng.standard_normal(shape)
    bad = np.abs(values) > 2.0
    while bad.any():
        values[bad] = rng.standard_normal(int(bad.sum()))
        bad = np.abs(values) > 2.0
    return values * attrs["stddev"] + attrs["mean"]


_DRAWS = {
    "RandomNormal": lambda rng, shape, a: rng.normal(a["mean"], a["stddev"], shape),
    "TruncatedNormal": _truncated,
    "RandomUniform": lambda rng, shape, a: rng.uniform(a["minval"], a["maxval"], shape),
}
for _type, _draw in _DRAWS.items():
    register(_type, kernel=_random_kernel(_draw))


def random_op(op_type, shape, dtype, seed=None, name=None, **params):
    """Build a random source of a static shape; `params` are the distribution's (mean, stddev, minval...)."""
    seed1, seed2 = get_seed(seed)
    shape, dtype = tuple(int(d) for d in shape), dtypes.as_dtype(dtype)
    attrs = dict(shape=shape, dtype=dtype, seed=seed1, seed2=seed2, **params)
    op = get_default_graph().create_op(op_type, [], [(shape, dtype)], name=name or op_type, attrs=attrs)
    return op.outputs[0]


def random_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Normally distributed values."""
    return random_op("RandomNormal", shape, dtype, seed, name, mean=float(mean), stddev=float(stddev))


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Normal values redrawn when more than two standard deviations from the mean."""
    return random_op("TruncatedNormal", shape, dtype, seed, name, mean=float(mean), stddev=float(stddev))


def random_uniform(shape, minval=0.0, maxval=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Uniform values in [minval, maxval)."""
    return random_op("RandomUniform", shape, dtype, seed, name, minval=float(minval), maxval=float(maxval))
