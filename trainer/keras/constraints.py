"""tf.keras.constraints: projections applied to a weight after each optimizer update."""
import numpy as np

from ..ops import math_ops
from ..ops.clip_ops import clip_by_value
from ..ops.reduction_ops import reduce_sum
from .utils.generic_utils import deserialize_keras_object, serialize_keras_object


class Constraint:
    """Base: called on a weight tensor, returns the projected tensor."""

    def __call__(self, w):
        return w

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _norms(w, axis):
    return math_ops.sqrt(reduce_sum(math_ops.square(w), axis=axis, keepdims=True))


class MaxNorm(Constraint):
    """Rescales weights whose norm along `axis` exceeds max_value."""

    def __init__(self, max_value=2, axis=0):
        self.max_value, self.axis = max_value, axis

    def __call__(self, w):
        norms = _norms(w, self.axis)
        desired = clip_by_value(norms, 0.0, self.max_value)
        return w * (desired / (1e-7 + norms))

    def get_config(self):
        return {"max_value": self.max_value, "axis": self.axis}


class NonNeg(Constraint):
    """Zeroes negative weights."""

    def __call__(self, w):
        return clip_by_value(w, 0.0, np.inf)


class UnitNorm(Constraint):
    """Weights of unit norm along `axis`."""

    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        return w / (1e-7 + _norms(w, self.axis))

    def get_config(self):
        return {"axis": self.axis}


class MinMaxNorm(Constraint):
    """Norms along `axis` pulled into [min_value, max_value] at `rate`."""

    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value, self.max_value, self.rate, self.axis = min_value, max_value, rate, axis

    def __call__(self, w):
        norms = _norms(w, self.axis)
        desired = self.rate * clip_by_value(norms, self.min_value, self.max_value) + (1 - self.rate) * norms
        return w * (desired / (1e-7 + norms))

    def get_config(self):
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate, "axis": self.axis}


def radial_rings(size):
    """(ring masks, the kernel position whose value each ring takes), innermost first, of TF 1.15's
    RadialConstraint on a size x size kernel: the centre (one entry, or 2 x 2 for an even size) takes the value at
    (size // 2 - 1) twice, and each ring around it the next value down the diagonal."""
    half = size // 2
    offset = np.abs(2 * np.arange(size) - (size - 1))
    distance = np.maximum(offset[:, None], offset[None, :]) // 2
    first = 0 if size % 2 else 1  # TF's loop index where the rings start
    masks = [(distance == d).astype(np.float32) for d in range(distance.max() + 1)]
    sources = [half - 1] + [half + i for i in range(first, half)]
    return masks, sources


class RadialConstraint(Constraint):
    """Each 2-D slice of a (height, width, in, out) kernel made radially symmetric, as TF 1.15 makes it."""

    def __call__(self, w):
        shape = tuple(w.shape)
        if len(shape) != 4 or shape[0] is None or shape[0] != shape[1]:
            raise ValueError(f"The weight tensor must be of rank 4 with square kernels, but is of shape: {shape}")
        masks, sources = radial_rings(shape[0])
        rings = [math_ops.multiply(w[i:i + 1, i:i + 1], mask[:, :, None, None].astype(np.dtype(w.dtype)))
                 for mask, i in zip(masks, sources)]
        return math_ops.add_n(rings) if len(rings) > 1 else rings[0]


max_norm, non_neg, unit_norm, min_max_norm, radial_constraint = MaxNorm, NonNeg, UnitNorm, MinMaxNorm, RadialConstraint
_BY_NAME = {"MaxNorm": MaxNorm, "NonNeg": NonNeg, "UnitNorm": UnitNorm, "MinMaxNorm": MinMaxNorm,
            "RadialConstraint": RadialConstraint, "max_norm": MaxNorm, "non_neg": NonNeg, "unit_norm": UnitNorm,
            "min_max_norm": MinMaxNorm, "radial_constraint": RadialConstraint}


def serialize(constraint):
    return serialize_keras_object(constraint)


def deserialize(config, custom_objects=None):
    return deserialize_keras_object(config, _BY_NAME, custom_objects, "constraint")


def get(identifier):
    """A constraint from a name, a config dict, or a callable (as is)."""
    if identifier is None or callable(identifier) and not isinstance(identifier, type):
        return identifier
    if isinstance(identifier, (str, dict)):
        return deserialize(identifier)
    raise ValueError(f"Could not interpret constraint identifier: {identifier!r}")
