"""tf.keras.regularizers: L1L2 and its l1, l2, l1_l2 shorthands; a regularizer maps a weight to a scalar loss."""
from ..ops import math_ops
from ..ops.reduction_ops import reduce_sum
from .utils.generic_utils import deserialize_keras_object, serialize_keras_object


class Regularizer:
    """Base: called on a weight tensor, returns its penalty."""

    def __call__(self, x):
        return 0.0

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class L1L2(Regularizer):
    """l1 * sum(|x|) + l2 * sum(x**2)."""

    def __init__(self, l1=0.0, l2=0.0):
        self.l1, self.l2 = float(l1), float(l2)

    def __call__(self, x):
        penalty = 0.0
        if self.l1:
            penalty += self.l1 * reduce_sum(math_ops.abs(x))
        if self.l2:
            penalty += self.l2 * reduce_sum(math_ops.square(x))
        return penalty

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}


def l1(l=0.01):  # noqa: E741 - Keras' argument name
    return L1L2(l1=l)


def l2(l=0.01):  # noqa: E741 - Keras' argument name
    return L1L2(l2=l)


def l1_l2(l1=0.01, l2=0.01):  # noqa: F811
    return L1L2(l1=l1, l2=l2)


_BY_NAME = {"Regularizer": Regularizer, "L1L2": L1L2, "l1": l1, "l2": l2, "l1_l2": l1_l2}


def serialize(regularizer):
    return serialize_keras_object(regularizer)


def deserialize(config, custom_objects=None):
    return deserialize_keras_object(config, _BY_NAME, custom_objects, "regularizer")


def get(identifier):
    """A regularizer from a name ('l2'), a config dict, or a callable (as is)."""
    if identifier is None or callable(identifier) and not isinstance(identifier, type):
        return identifier
    if isinstance(identifier, (str, dict)):
        found = deserialize(identifier)
        return found if isinstance(found, Regularizer) else found()
    raise ValueError(f"Could not interpret regularizer identifier: {identifier!r}")
