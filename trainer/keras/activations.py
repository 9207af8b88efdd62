"""tf.keras.activations: the activation functions by name ('relu', 'softmax', ...), as layers look them up."""
from ..ops.activation_ops import selu as tf_selu
from . import backend as K
from .utils.generic_utils import known_objects


def softmax(x, axis=-1):
    """Softmax along `axis`."""
    return K.softmax(x, axis=axis)


def elu(x, alpha=1.0):
    return K.elu(x, alpha)


def selu(x):
    return tf_selu(x)


def softplus(x):
    return K.softplus(x)


def softsign(x):
    return K.softsign(x)


def relu(x, alpha=0.0, max_value=None, threshold=0):
    return K.relu(x, alpha=alpha, max_value=max_value, threshold=threshold)


def tanh(x):
    return K.tanh(x)


def sigmoid(x):
    return K.sigmoid(x)


def exponential(x):
    return K.exp(x)


def hard_sigmoid(x):
    return K.hard_sigmoid(x)


def linear(x):
    """The identity."""
    return x


_BY_NAME = {f.__name__: f for f in (softmax, elu, selu, softplus, softsign, relu, tanh, sigmoid, exponential,
                                    hard_sigmoid, linear)}


def serialize(activation):
    return activation.__name__


def deserialize(name, custom_objects=None):
    found = known_objects(_BY_NAME, custom_objects)
    if name not in found:
        raise ValueError(f"Unknown activation function: {name!r}; known: {sorted(_BY_NAME)}")
    return found[name]


def get(identifier):
    """The activation for a name, a callable as is, None as linear."""
    if identifier is None:
        return linear
    if isinstance(identifier, str):
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret activation function identifier: {identifier!r}")
