"""Random ops that draw from their input: multinomial / categorical samples of logits, and random_crop.

Like every random op, each draws TF's numbers on the host from the op's own stream (session.rng, seeded by
the graph and op seeds, saved with checkpoints so a resumed run continues the stream). random_crop then slices
beside its input's array module; multinomial reads the logits on the host, as TF's CPU kernel does.
"""
import numpy as np

from ..framework import dtypes
from ..platform.errors import InvalidArgumentError
from ..framework.random_seed import get_seed
from .core_ops import convert_to_tensor
from .kernels import random_distributions as distributions
from ..framework.registry import apply_op, get_array_module, register, to_numpy
from .shape_tensors import known_shape
from .tensor_util import constant_value, static_shape

_INT32_MAX = 2 ** 31 - 1  # random_crop draws its offsets as TF does: int32s up to the type's maximum


def _multinomial_kernel(op, session):
    stream, to_device, out_dtype = session.rng(op), session.to_device, op.attrs["output_dtype"]

    def run(logits, num_samples):
        n = int(num_samples)
        if logits.ndim != 2:
            raise InvalidArgumentError(f"multinomial: logits must be 2-D [batch, classes], got shape "
                                       f"{tuple(logits.shape)}")
        if n < 0:
            raise InvalidArgumentError(f"multinomial: num_samples must be >= 0, got {n}")
        batch, classes = logits.shape
        if classes == 0 and batch * n:
            raise InvalidArgumentError("multinomial: logits have no classes to draw from")
        if batch * n == 0:  # TF draws nothing for an empty output
            return to_device(np.zeros((batch, n), out_dtype))
        # TF's algorithm on the host (its numbers, its stream), the indices then placed beside the logits.
        return to_device(distributions.categorical(stream, to_numpy(logits), n).astype(out_dtype))
    return run


register("Multinomial", kernel=_multinomial_kernel,
         infer=lambda logits, n, output_dtype, **a: [((*(static_shape(logits) or (None,))[:1], a["static_n"]),
                                                       output_dtype)], fresh=True)


def multinomial(logits, num_samples, seed=None, name=None, output_dtype=None):
    """[batch, num_samples] class indices drawn from each row of [batch, classes] unnormalized log-probabilities."""
    logits = convert_to_tensor(logits)
    if logits.ndim not in (None, 2):
        raise ValueError(f"multinomial needs 2-D logits [batch, classes], got {logits.name!r} of shape {logits.shape}")
    if logits.dtype.kind != "f":
        raise TypeError(f"multinomial needs floating logits, got {logits.name!r} of dtype {logits.dtype.name}")
    output_dtype = dtypes.as_dtype(dtypes.int64 if output_dtype is None else output_dtype)
    if output_dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"multinomial: output_dtype must be int32 or int64, got {output_dtype.name}")
    known = constant_value(num_samples)
    n = convert_to_tensor(num_samples, dtype=dtypes.int32)
    seed1, seed2 = get_seed(seed)
    return apply_op("Multinomial", [logits, n], name=name or "multinomial", output_dtype=output_dtype,
                    static_n=None if known is None else int(known), seed=seed1, seed2=seed2)


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """tf.random.categorical: multinomial with the output dtype named `dtype` (int64 by default)."""
    return multinomial(logits, num_samples, seed=seed, name=name or "categorical", output_dtype=dtype)


def _crop_kernel(op, session):
    stream, to_device = session.rng(op), session.to_device

    def run(value, size):
        size = [int(s) for s in to_numpy(size)]
        shape = list(value.shape)
        if len(size) != len(shape) or any(s > d or s < 0 for s, d in zip(size, shape)):
            raise InvalidArgumentError(f"random_crop: Need value.shape >= size, got {shape} and {size}")
        # TF's random_crop: int32 bits below 2**31 - 1, modulo the room for the crop in each dimension.
        draws = distributions.uniform_int(stream, len(shape), 0, _INT32_MAX, np.int32).astype(np.int64)
        offsets = [int(r % (d - s + 1)) for r, d, s in zip(draws, shape, size)]
        crop = value[tuple(slice(o, o + s) for o, s in zip(offsets, size))]
        return get_array_module(value).ascontiguousarray(crop), to_device(np.array(offsets, dtype=np.int64))
    return run


def _uncrop(g, offsets, value):
    xp = get_array_module(g)
    out = xp.zeros(value.shape, dtype=g.dtype)
    start = [int(o) for o in to_numpy(offsets)]
    out[tuple(slice(o, o + s) for o, s in zip(start, g.shape))] = g
    return out


register("RandomCrop", kernel=_crop_kernel,
         infer=lambda value, size, static, **a: [(static, value.dtype), ((len(static) if static else None,),
                                                                        dtypes.int64)],
         grad=lambda op, g, _: [apply_op("RandomCropGrad", [g, op.outputs[1], op.inputs[0]]), None], fresh=True)
# The gradient puts g back where the crop came from (the offsets this run drew), zeros elsewhere.
register("RandomCropGrad", _uncrop, infer=lambda g, offsets, value: [(static_shape(value), g.dtype)], fresh=True)


def random_crop(value, size, seed=None, name=None):
    """A `size` slice of `value` at a uniformly random offset, a new one each run (size <= value's shape)."""
    value = convert_to_tensor(value)
    size_t = convert_to_tensor(size, dtype=dtypes.int32)
    static = known_shape(size_t)
    static = None if static is None or None in static else static
    if static is not None and value.ndim is not None and len(static) != value.ndim:
        raise ValueError(f"random_crop: size {list(static)} has {len(static)} entries but {value.name!r} has rank "
                         f"{value.ndim}")
    seed1, seed2 = get_seed(seed)
    crop, _ = apply_op("RandomCrop", [value, size_t], name=name or "random_crop", static=static, seed=seed1,
                       seed2=seed2)
    return crop
