"""tf.keras.layers.serialize and deserialize: a layer as {'class_name', 'config'} and back, models included, the
user's classes found through custom_objects and the global custom objects."""
from ..engine.base_layer import LAYERS
from ..utils.generic_utils import deserialize_keras_object, serialize_keras_object


def serialize(layer):
    """{'class_name': the layer's class name, 'config': its get_config()}."""
    return serialize_keras_object(layer)


def deserialize(config, custom_objects=None):
    """A new layer (or model) from serialize()'s form."""
    return deserialize_keras_object(config, LAYERS, custom_objects, "layer")
