"""TF1's dropout as one op: the drop rate is an input (a Tensor may carry it), the mask is drawn from the
session's per-op random stream (Session.rng) as TF draws it (uniforms in x's dtype kept where >= rate), so
seeds reproduce TF's mask and checkpoints resume it."""
import numpy as np

from ..framework.tensor import Tensor
from ..framework.graph_wrappers import name_scope
from ..framework.random_seed import get_seed
from .core_ops import convert_to_tensor
from .kernels.random_distributions import uniform
from .reduction_ops import reduce_sum
from ..framework.registry import apply_op, get_array_module, register
from .tensor_util import constant_value, static_shape


def _dropout_kernel(op, session):
    # The mask is drawn on the host from the op's stream and then moved to the device: the stream stays the
    # one checkpoints save (exact resume on any device), at the cost of one transfer per step.
    stream, noise_shape, to_device = session.rng(op), op.attrs["noise_shape"], session.to_device
    scale = op.attrs.get("scale")

    def dropout(x, rate):
        rate = float(rate)
        if not 0.0 <= rate < 1.0:
            raise ValueError(f"dropout {op.name!r}: the drop rate fed at run time must be in [0, 1) (keep_prob in "
                             f"(0, 1]), got rate {rate!r} (keep_prob {1.0 - rate!r})")
        shape = x.shape if noise_shape is None else tuple(d if n is None else n for n, d in zip(noise_shape, x.shape))
        dtype = np.dtype(x.dtype)
        keep = uniform(stream, int(np.prod(shape, dtype=np.int64)), dtype).reshape(shape) >= dtype.type(rate)
        # TF scales by 1 / keep_prob computed in Python for a number rate, divides by (1 - rate) for a Tensor.
        factor = dtype.type(scale) if scale is not None else dtype.type(1) / (dtype.type(1) - dtype.type(rate))
        keep = to_device(keep)
        kept = x * factor if scale is not None else x / (dtype.type(1) - dtype.type(rate))
        return get_array_module(x).where(keep, kept, dtype.type(0)), keep.astype(dtype) * factor
    return dropout


def _dropout_grad(op, g, _):
    # y = x * mask / (1 - rate): the rate's gradient is sum(g * y) / (1 - rate).
    y, rate = op.outputs[0], op.inputs[1]
    return [g * op.outputs[1], reduce_sum(g * y) / (1.0 - rate)]


register("Dropout", kernel=_dropout_kernel, infer=lambda x, rate, **a: [(static_shape(x), x.dtype)] * 2,
         grad=_dropout_grad, fresh=True)


def _noise_shape(x, noise_shape):
    """noise_shape as a tuple whose None dims take x's size at run time; checked to broadcast against x."""
    if noise_shape is None:
        return None
    if isinstance(noise_shape, Tensor):
        known = constant_value(noise_shape)
        if known is None:
            raise NotImplementedError(f"dropout noise_shape {noise_shape.name!r} is computed while the graph runs; "
                                      "give it as a list of ints (None for x's size)")
        noise_shape = known.tolist()
    noise = tuple(None if d is None else int(d) for d in noise_shape)
    shape = static_shape(x)
    if shape is not None:
        if len(noise) != len(shape) or any(n not in (None, 1) and d is not None and n != d
                                           for n, d in zip(noise, shape)):
            raise ValueError(f"dropout noise_shape {list(noise_shape)!r} does not broadcast to the shape {shape} of "
                             f"{x.name!r}: give one entry per dimension, each 1, None or the dimension's size")
    return noise


def dropout(x, keep_prob=None, noise_shape=None, seed=None, name=None, rate=None):
    """TF1's dropout: keep each element with probability keep_prob (or drop it with probability `rate`: give
    exactly one) and scale the kept ones by 1 / keep_prob. Either may be a scalar Tensor (a placeholder fed 1.0
    at evaluation makes it the identity). `noise_shape` picks which dims share one keep/drop decision."""
    if keep_prob is not None and rate is not None:
        raise ValueError(f"dropout takes keep_prob or rate, not both: got keep_prob={keep_prob!r}, rate={rate!r}")
    if keep_prob is None and rate is None:
        raise ValueError("dropout needs keep_prob (the second argument) or rate=")
    x = convert_to_tensor(x, name="x")
    if x.dtype.kind != "f":
        raise ValueError(f"dropout needs a floating point x since it scales it, got {x.name!r} of dtype "
                         f"{x.dtype.name}")
    for label, value in (("keep_prob", keep_prob), ("rate", rate)):
        if value is None or isinstance(value, Tensor):
            continue
        if isinstance(value, bool) or np.ndim(value) != 0 or not np.isreal(value):
            raise ValueError(f"dropout {label} must be a float or a scalar Tensor, got {value!r}")
        low_ok = value > 0 if label == "keep_prob" else value >= 0
        high_ok = value <= 1 if label == "keep_prob" else value < 1
        if not (low_ok and high_ok):
            interval = "(0, 1]" if label == "keep_prob" else "[0, 1)"
            raise ValueError(f"dropout {label} must be in {interval}, got {value!r}")
    if rate is None and not isinstance(keep_prob, Tensor):
        rate = 1.0 - float(keep_prob)
    if not isinstance(rate, Tensor) and rate == 0:
        return x
    scale = None if rate is None or isinstance(rate, Tensor) else 1.0 / (1.0 - float(rate))  # TF's factor for a number rate
    with name_scope(name or "dropout"):
        if rate is None:
            keep_prob = convert_to_tensor(keep_prob, dtype=x.dtype, name="keep_prob")
            _check_scalar(keep_prob, "keep_prob")
            rate = 1.0 - keep_prob
        rate = convert_to_tensor(rate, dtype=x.dtype, name="rate")
        _check_scalar(rate, "rate")
        seed1, seed2 = get_seed(seed)
        # TF1's dropout result is the tensor "dropout/mul_1:0": same name here, one fused op.
        return apply_op("Dropout", [x, rate], name="mul_1", noise_shape=_noise_shape(x, noise_shape),
                        seed=seed1, seed2=seed2, scale=scale)[0]


def _check_scalar(t, label):
    if t.ndim not in (None, 0):
        raise ValueError(f"dropout {label} must be a scalar, got {t.name!r} of shape {t.shape}")

