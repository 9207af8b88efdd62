"""tf.keras.models: Model, Sequential, saving and loading, and the JSON round trip of an architecture."""
import json

try:  # PyYAML is optional, as in Keras: model_from_yaml says so when it is missing
    import yaml
except ImportError:
    yaml = None

from .engine.base_layer import LAYERS
from .engine.saving import load_model, save_model
from .engine.sequential import Sequential
from .engine.training import Model
from .utils.generic_utils import known_objects

__all__ = ["Model", "Sequential", "load_model", "save_model", "model_from_json", "model_from_yaml",
           "model_from_config", "clone_model"]


def model_from_config(config, custom_objects=None):
    """A model (new weights) from {'class_name', 'config'}."""
    known = known_objects(LAYERS, custom_objects)
    name = config.get("class_name")
    if name not in known:
        raise ValueError(f"Unknown model class {name!r}; pass it in custom_objects")
    return known[name].from_config(config["config"], custom_objects=custom_objects) \
        if name in ("Model", "Sequential", "Network") else known[name].from_config(config["config"])


def model_from_json(json_string, custom_objects=None):
    """A model (new weights) from model.to_json()'s string."""
    return model_from_config(json.loads(json_string), custom_objects)


def model_from_yaml(yaml_string, custom_objects=None):
    """A model (new weights) from a YAML architecture (Keras' model.to_yaml()); needs PyYAML."""
    if yaml is None:
        raise ImportError("Requires yaml module installed (`pip install pyyaml`); model_from_json reads the JSON "
                          "form of an architecture without it")
    return model_from_config(yaml.load(yaml_string, Loader=getattr(yaml, "FullLoader", yaml.SafeLoader)),
                             custom_objects)


def clone_model(model, input_tensors=None):
    """A model of the same architecture with new weights."""
    if input_tensors is not None:
        raise ValueError("clone_model(input_tensors=...) is not available in ringflow; clone, then call the clone "
                         "on your tensors")
    return model_from_config({"class_name": type(model).__name__, "config": model.get_config()})
