"""tf.keras.initializers: Keras' initializer classes (with get_config) and their names, on ringflow's random ops."""
import numpy as np

from ..ops import initializers as tfi
from ..ops import scaling_initializers as tfs
from .utils.generic_utils import deserialize_keras_object, serialize_keras_object


class Initializer:
    """An initializer: called with (shape, dtype) it returns the initial value as a tensor."""

    def __call__(self, shape, dtype=None, partition_info=None):
        raise NotImplementedError(f"{type(self).__name__} must define __call__(shape, dtype=None)")

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        config = {k: v for k, v in config.items() if k != "dtype"}
        return cls(**config)


def _wrapping(name, make, defaults, doc):
    def __init__(self, **kwargs):
        unknown = set(kwargs) - set(defaults)
        if unknown:
            raise TypeError(f"{name} got unexpected arguments {sorted(unknown)}; it takes {sorted(defaults)}")
        self.config = dict(defaults, **kwargs)

    def __call__(self, shape, dtype=None, partition_info=None):
        return make(**self.config)(shape, dtype=dtype or "float32")

    def get_config(self):
        return dict(self.config)

    return type(name, (Initializer,), {"__init__": __init__, "__call__": __call__, "get_config": get_config,
                                       "__doc__": doc, "__module__": __name__})


def _positional(cls, order):
    original = cls.__init__

    def __init__(self, *args, **kwargs):
        kwargs.update(zip(order, args))
        original(self, **kwargs)
    cls.__init__ = __init__
    return cls


Zeros = _wrapping("Zeros", lambda: tfi.zeros_initializer(), {}, "All zeros.")
Ones = _wrapping("Ones", lambda: tfi.ones_initializer(), {}, "All ones.")
Constant = _positional(_wrapping("Constant", lambda value: tfi.constant_initializer(value), {"value": 0},
                                 "Every element `value`."), ["value"])
RandomNormal = _positional(_wrapping("RandomNormal", tfi.random_normal_initializer,
                                     {"mean": 0.0, "stddev": 0.05, "seed": None}, "Normal values (Keras' stddev "
                                     "0.05)."), ["mean", "stddev", "seed"])
RandomUniform = _positional(_wrapping("RandomUniform", tfs.random_uniform_initializer,
                                      {"minval": -0.05, "maxval": 0.05, "seed": None}, "Uniform values in "
                                      "[minval, maxval)."), ["minval", "maxval", "seed"])
TruncatedNormal = _positional(_wrapping("TruncatedNormal", tfi.truncated_normal_initializer,
                                        {"mean": 0.0, "stddev": 0.05, "seed": None}, "Normal values redrawn beyond "
                                        "two standard deviations."), ["mean", "stddev", "seed"])
VarianceScaling = _positional(_wrapping("VarianceScaling", tfs.variance_scaling_initializer,
                                        {"scale": 1.0, "mode": "fan_in", "distribution": "truncated_normal",
                                         "seed": None}, "Variance scale / fan."),
                              ["scale", "mode", "distribution", "seed"])
Orthogonal = _positional(_wrapping("Orthogonal", tfs.orthogonal_initializer, {"gain": 1.0, "seed": None},
                                   "A random orthogonal matrix."), ["gain", "seed"])


class Identity(Initializer):
    """gain times the identity matrix (2-D shapes)."""

    def __init__(self, gain=1.0):
        self.gain = gain

    def __call__(self, shape, dtype=None, partition_info=None):
        if len(shape) != 2:
            raise ValueError(f"Identity initializer needs a 2-D shape, got {tuple(shape)}")
        return tfi.constant_initializer(self.gain * np.eye(*shape))(shape, dtype=dtype or "float32")

    def get_config(self):
        return {"gain": self.gain}


def _scaling(name, scale, mode, distribution):
    def make(seed=None, dtype=None):  # dtype: TF1's GlorotUniform config holds one
        return VarianceScaling(scale=scale, mode=mode, distribution=distribution, seed=seed)
    make.__name__ = name
    make.__doc__ = f"VarianceScaling(scale={scale}, mode={mode!r}, distribution={distribution!r})."
    return make


glorot_uniform = _scaling("glorot_uniform", 1.0, "fan_avg", "uniform")
glorot_normal = _scaling("glorot_normal", 1.0, "fan_avg", "truncated_normal")
he_normal = _scaling("he_normal", 2.0, "fan_in", "truncated_normal")
he_uniform = _scaling("he_uniform", 2.0, "fan_in", "uniform")
lecun_normal = _scaling("lecun_normal", 1.0, "fan_in", "truncated_normal")
lecun_uniform = _scaling("lecun_uniform", 1.0, "fan_in", "uniform")
zeros, ones, constant, identity, orthogonal = Zeros, Ones, Constant, Identity, Orthogonal
random_normal, random_uniform, truncated_normal = RandomNormal, RandomUniform, TruncatedNormal
normal, uniform = RandomNormal, RandomUniform  # TF 1.15's tf.keras.initializers.normal and .uniform

_BY_NAME = {"Zeros": Zeros, "Ones": Ones, "Constant": Constant, "RandomNormal": RandomNormal,
            "RandomUniform": RandomUniform, "TruncatedNormal": TruncatedNormal, "VarianceScaling": VarianceScaling,
            "Orthogonal": Orthogonal, "Identity": Identity, "zeros": Zeros, "ones": Ones, "constant": Constant,
            "identity": Identity, "orthogonal": Orthogonal, "random_normal": RandomNormal,
            "random_uniform": RandomUniform, "truncated_normal": TruncatedNormal, "glorot_uniform": glorot_uniform,
            "glorot_normal": glorot_normal, "he_normal": he_normal, "he_uniform": he_uniform,
            "lecun_normal": lecun_normal, "lecun_uniform": lecun_uniform, "uniform": RandomUniform,
            "normal": RandomNormal, "GlorotUniform": glorot_uniform, "GlorotNormal": glorot_normal}


def serialize(initializer):
    return serialize_keras_object(initializer)


def deserialize(config, custom_objects=None):
    return deserialize_keras_object(config, _BY_NAME, custom_objects, "initializer")


def get(identifier):
    """An initializer from a name, a config dict, or a callable (as is)."""
    if identifier is None or callable(identifier) and not isinstance(identifier, type):
        return identifier
    if isinstance(identifier, (str, dict)):
        found = deserialize(identifier)
        return found if isinstance(found, Initializer) else found()
    raise ValueError(f"Could not interpret initializer identifier: {identifier!r}")
