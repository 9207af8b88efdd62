"""tf.keras in ringflow: TF 1.15's graph-mode tf.keras (Keras 2.2.4-tf) on ringflow's graph, variables and sessions.

Models (functional, Sequential, subclassed), compile/fit/evaluate/predict, the core, convolution, pooling,
embedding, normalization, merge, advanced-activation, attention, locally connected, recurrent, wrapper and noise
layers with masking, losses, metrics, optimizers, callbacks, backend, utils, preprocessing (sequence, text, image),
datasets from the local Keras cache, Keras' HDF5 files when h5py is importable, and the ImageNet applications.
Missing names (SequenceFeatures, ...) raise NotInRingflow saying so.
"""
from ..unsupported import MISSING, missing_names
from . import (activations, applications, backend, callbacks, constraints, datasets, estimator, experimental,
               initializers, layers, losses, metrics, mixed_precision, models, optimizers, preprocessing,
               regularizers, utils, wrappers)
from .engine.input_layer import Input
from .engine.sequential import Sequential
from .engine.training import Model

__version__ = "2.2.4-tf"

__all__ = ["Input", "Model", "Sequential", "activations", "applications", "backend", "callbacks", "constraints",
           "datasets", "estimator", "experimental", "initializers", "layers", "losses", "metrics", "mixed_precision",
           "models", "optimizers", "preprocessing", "regularizers", "utils", "wrappers"]

__getattr__ = missing_names(__name__, have=MISSING["keras"])
