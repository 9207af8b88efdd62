"""Seeded random sources: every op draws from its own Philox stream, seeded by (graph seed, op seed), with TF's
algorithms (kernels/random_distributions.py), so a seeded op gives TF's numbers and each run TF's next draw.

The distribution's parameters are attributes when they are Python numbers (one op), applied as TF's graph
applies them: noise * stddev + mean, (maxval - minval) * noise + minval, each step rounded in the op's dtype.
A Tensor parameter is built as TF1 builds it: a standard draw scaled and shifted by ops, so gradients reach
the parameters; the draw itself has no gradient (TF1's NotDifferentiable, see not_differentiable.py).
"""
import numpy as np

from ..framework import dtypes
from ..framework.tensor import Tensor
from ..framework.graph import get_default_graph
from ..framework.random_seed import get_seed
from ..framework.registry import op_def, register
from ..framework.graph_wrappers import name_scope
from .core_ops import convert_to_tensor
from .kernels import random_distributions as distributions
from .shape_tensors import shape_argument


def _random_kernel(draw):
    def make(op, session):
        stream, attrs, to_device = session.rng(op), op.attrs, session.to_device
        static, dtype, given = attrs["shape"], attrs["dtype"], attrs.get("tensor_params", ())

        def run(*inputs):  # a shape Tensor arrives first, then the parameters given as Tensors
            shape = tuple(int(d) for d in inputs[0]) if static is None else static
            params = dict(attrs, **{k: _scalar(v) for k, v in zip(given, inputs[len(inputs) - len(given):])})
            values = draw(stream, int(np.prod(shape, dtype=np.int64)), np.dtype(dtype), params)
            return to_device(values.reshape(shape))
        return run
    return make


def _scalar(value):
    return value.item() if hasattr(value, "item") else value


def _scaled(sample):
    # TF's graph around the standard draw: mul by stddev, then add the mean, both in the draw's dtype.
    def draw(stream, n, dtype, a):
        return sample(stream, n, dtype) * dtype.type(a["stddev"]) + dtype.type(a["mean"])
    return draw


def _uniform(stream, n, dtype, a):
    low, high = dtype.type(a["minval"]), dtype.type(a["maxval"])
    return distributions.uniform(stream, n, dtype) * (high - low) + low


def _uniform_int(stream, n, dtype, a):
    if a["minval"] >= a["maxval"]:
        raise ValueError(f"random_uniform needs minval < maxval for integers, got {a['minval']!r} and "
                         f"{a['maxval']!r}")
    return distributions.uniform_int(stream, n, a["minval"], a["maxval"], dtype)


_DRAWS = {
    "RandomNormal": _scaled(distributions.normal),
    "TruncatedNormal": _scaled(distributions.truncated_normal),
    "RandomUniform": _uniform,
    "RandomUniformInt": _uniform_int,
}
def _infer(*inputs, shape, dtype, **params):
    """The draw's static shape where an attr holds it (a graph read from a GraphDef without "_output_shapes")."""
    return [(shape, dtype)]


for _type, _draw in _DRAWS.items():
    register(_type, kernel=_random_kernel(_draw), infer=_infer)


def random_op(op_type, shape, dtype, seed=None, name=None, tensor_params=None, **params):
    """Build a random source of `shape` (ints, an int vector Tensor such as tg.shape(x), or a list mixing ints
    and scalar Tensors); `params` are the distribution's numbers (mean, stddev, minval...), `tensor_params`
    those of them given as scalar Tensors, which become inputs."""
    seed1, seed2 = get_seed(seed)
    dtype = dtypes.as_dtype(dtype)
    static, tensor = shape_argument(shape, op_type)
    tensor_params = dict(tensor_params or {})
    inputs = ([] if tensor is None else [tensor]) + list(tensor_params.values())
    attrs = dict(shape=None if tensor is not None else static, dtype=dtype, seed=seed1, seed2=seed2,
                 tensor_params=tuple(tensor_params), **params)
    op = get_default_graph().create_op(op_type, inputs, [(static, dtype)], name=name or op_type, attrs=attrs)
    return op.outputs[0]


def _numbers(*values):
    return not any(isinstance(v, Tensor) for v in values)


def _shifted(op_type, shape, scale, shift, dtype, seed, name, default_name, names=("stddev", "mean")):
    """TF1's graph for Tensor parameters: add(draw * scale, shift), the add named after the scope
    ("random_normal:0"), the standard draw inside it."""
    graph = get_default_graph()
    with name_scope(name or default_name) as scope:
        scale = convert_to_tensor(scale, dtype=dtype, name=names[0])
        shift = convert_to_tensor(shift, dtype=dtype, name=names[1])
        if op_type == "RandomUniform":
            scale = scale - shift
            noise = random_op(op_type, shape, dtype, seed, op_type, minval=0.0, maxval=1.0)
        else:
            noise = random_op(op_type, shape, dtype, seed, op_type, mean=0.0, stddev=1.0)
        inputs = [noise * scale, shift]
        return graph.create_op("Add", inputs, op_def("Add").infer(*inputs), name=scope[:-1], unique=False).outputs[0]


def random_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Normally distributed values; mean and stddev may be Tensors (gradients then reach them)."""
    dtype = dtypes.as_dtype(dtype)
    if _numbers(mean, stddev):
        return random_op("RandomNormal", shape, dtype, seed, name, mean=float(mean), stddev=float(stddev))
    return _shifted("RandomNormal", shape, stddev, mean, dtype, seed, name, "random_normal")


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Normal values redrawn when more than two standard deviations from the mean; mean and stddev may be
    Tensors."""
    dtype = dtypes.as_dtype(dtype)
    if _numbers(mean, stddev):
        return random_op("TruncatedNormal", shape, dtype, seed, name, mean=float(mean), stddev=float(stddev))
    return _shifted("TruncatedNormal", shape, stddev, mean, dtype, seed, name, "truncated_normal")


def random_uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    """Uniform values in [minval, maxval) (maxval defaults to 1 for floats; integer dtypes need it); the
    bounds may be scalar Tensors."""
    dtype = dtypes.as_dtype(dtype)
    if dtype.kind in "iu":
        if maxval is None:
            raise ValueError(f"random_uniform needs maxval for the integer dtype {dtype.name}")
        if _numbers(minval, maxval):
            return random_op("RandomUniformInt", shape, dtype, seed, name, minval=int(minval), maxval=int(maxval))
        bounds = {k: convert_to_tensor(v, dtype=dtype, name=k) for k, v in (("minval", minval), ("maxval", maxval))}
        return random_op("RandomUniformInt", shape, dtype, seed, name or "random_uniform", tensor_params=bounds)
    maxval = 1.0 if maxval is None else maxval
    if _numbers(minval, maxval):
        return random_op("RandomUniform", shape, dtype, seed, name, minval=float(minval), maxval=float(maxval))
    return _shifted("RandomUniform", shape, maxval, minval, dtype, seed, name, "random_uniform", ("max", "min"))
