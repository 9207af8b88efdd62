"""save_model/load_model: Keras' HDF5 file (hdf5_format.py) for a .h5, .hdf5 or .keras path when h5py is
importable, else ringflow's format: one numpy .npz file holding Keras' model config JSON, the training config JSON
(optimizer, loss, metrics), the weights in get_weights order and the optimizer's state, written under the exact
name given whatever its suffix. load_model tells the two apart by the file's first bytes.

save_format='tf' asks for TF's SavedModel, which ringflow does not write: the path becomes a directory holding
ringflow's file as SAVED_MODEL_FILE, which load_model reads back (TF Serving cannot).
"""
import functools
import io
import json
import os
import warnings

import numpy as np

from .. import optimizers
from . import hdf5_format
from ..utils.generic_utils import known_objects
from .base_layer import LAYERS

FORMAT = "ringflow-keras-1"
# The order of the optimizer's state in the file: TF's OptimizerV2 order (iterations, then slot by slot over the
# variables). Files without this key hold the order ringflow used before: variable by variable, each variable's
# slots together (RMSprop always with three), which load_model converts.
SLOT_ORDER = "slot-major"
_PER_VARIABLE_SLOTS = {"SGD": lambda c: ("momentum",) if c.get("momentum") else (),
                       "Adam": lambda c: ("m", "v", "vhat") if c.get("amsgrad") else ("m", "v"),
                       "RMSprop": lambda c: ("rms", "momentum", "mg"), "Adagrad": lambda c: ("accumulator",),
                       "Adadelta": lambda c: ("accum_grad", "accum_var"), "Adamax": lambda c: ("m", "v"),
                       "Nadam": lambda c: ("m", "v")}
SAVED_MODEL_FILE = "ringflow_model.npz"  # inside the directory save_format='tf' makes


def _name_of(fn):
    if fn is None or isinstance(fn, str):
        return fn
    if isinstance(fn, dict):
        return {k: _name_of(v) for k, v in fn.items()}
    if isinstance(fn, (list, tuple)):
        return [_name_of(v) for v in fn]
    return getattr(fn, "__name__", None) or {"class_name": type(fn).__name__, "config": fn.get_config()}


def save_model(model, filepath, overwrite=True, include_optimizer=True, save_format=None):
    """Write `model` (config, weights, optimizer state) to `filepath` (save_format: None, 'h5' or 'tf')."""
    if save_format not in (None, "h5", "tf"):
        raise ValueError(f"Unknown format {save_format!r}: save_format is None, 'h5' or 'tf'")
    if save_format == "tf":
        os.makedirs(filepath, exist_ok=True)
        filepath = os.path.join(filepath, SAVED_MODEL_FILE)
    if not overwrite and os.path.exists(filepath):
        raise FileExistsError(f"{filepath!r} exists and overwrite=False")
    optimizer = getattr(model, "optimizer", None)
    if isinstance(optimizer, optimizers.TFOptimizer):
        warnings.warn("A tf.train optimizer has no Keras config, so the model is saved without its optimizer "
                      "(as Keras does); load_model returns it uncompiled")
        optimizer = None
    training = None
    if include_optimizer and optimizer is not None:
        training = {"optimizer_config": optimizers.serialize(optimizer), "loss": _name_of(model.loss),
                    "metrics": _name_of(model.metrics), "loss_weights": model.loss_weights,
                    "sample_weight_mode": model.sample_weight_mode}
    if save_format == "h5" or str(filepath).endswith(hdf5_format.SUFFIXES) and \
            hdf5_format.h5py_or_none() is not None:
        hdf5_format.save_model(model, filepath, training, optimizer.weights if training else [])
        return
    arrays = {"format": np.array(FORMAT),
              "model_config": np.array(model.to_json())}
    for i, value in enumerate(model.get_weights()):
        arrays[f"weight_{i}"] = value
    if training is not None:
        arrays["training_config"] = np.array(json.dumps(training))
        arrays["optimizer_slot_order"] = np.array(SLOT_ORDER)
        for i, value in enumerate(optimizer.get_weights()):
            arrays[f"optimizer_weight_{i}"] = value
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    with open(filepath, "wb") as f:
        f.write(buffer.getvalue())


def _numbered(data, prefix):
    count = sum(1 for k in data.files if k.startswith(prefix))
    return [data[f"{prefix}{i}"] for i in range(count)]


def load_model(filepath, custom_objects=None, compile=True):  # noqa: A002 - Keras' argument name
    """The model save_model wrote, with its weights, compiled (optimizer state restored) unless compile=False."""
    if os.path.isdir(filepath):
        if not os.path.isfile(os.path.join(filepath, SAVED_MODEL_FILE)):
            raise ValueError(f"{filepath!r} is a directory without {SAVED_MODEL_FILE!r}: a TF SavedModel, which "
                             "ringflow cannot read; load a model saved by ringflow's model.save()")
        filepath = os.path.join(filepath, SAVED_MODEL_FILE)
    if hdf5_format.is_hdf5(filepath):
        config, training, weights, state, names = hdf5_format.load_model(filepath)
        model = _from_config(config, custom_objects)
        hdf5_format.assign(weights, model.layers)
        if not (compile and training):
            return model
        return _compiled(model, training, state, custom_objects, functools.partial(_by_names, filepath, names))
    try:
        data = np.load(filepath, allow_pickle=False)
        fmt = str(data["format"]) if "format" in data.files else None
    except (OSError, ValueError) as error:
        raise ValueError(f"{filepath!r} is not a model saved by model.save() (ringflow's .npz file or Keras' "
                         f"HDF5): {error}") from None
    if fmt != FORMAT:
        raise ValueError(f"{filepath!r} is not a model saved by ringflow's model.save() (format {fmt!r})")
    model = _from_config(json.loads(str(data["model_config"])), custom_objects)
    model.set_weights(_numbered(data, "weight_"))
    if compile and "training_config" in data.files:
        reorder = None if "optimizer_slot_order" in data.files else functools.partial(_from_per_variable, filepath)
        return _compiled(model, json.loads(str(data["training_config"])), _numbered(data, "optimizer_weight_"),
                         custom_objects, reorder)
    return model


def _lead(optimizer):
    """How many of the optimizer's weights come before its slots: the iteration count, and Nadam's momentum cache."""
    return 2 if any(c.__name__ == "Nadam" for c in type(optimizer).__mro__) else 1


def _by_names(filepath, names, state, optimizer):
    """A Keras HDF5 file's optimizer state in today's order. Keras' files (and today's) are slot by slot already;
    an earlier ringflow's are variable by variable, which the names tell ("dense/kernel/m", "dense/kernel/v")."""
    lead = _lead(optimizer)
    parsed = [n.rsplit(":", 1)[0].rsplit("/", 1) for n in names[lead:]]
    if len(parsed) < 2 or len(parsed[0]) < 2 or parsed[0][0] != parsed[1][0]:
        return state
    stems = list(dict.fromkeys(stem for stem, _ in parsed))
    table = {(stems.index(stem), slot): value for (stem, slot), value in zip(parsed, state[lead:])}
    today = [w.name.rsplit(":", 1)[0].rsplit("/", 1) for w in optimizer.weights[lead:]]
    variables = list(dict.fromkeys(var for var, _ in today))
    try:
        return list(state[:lead]) + [table[variables.index(var), slot] for var, slot in today]
    except KeyError:
        raise ValueError(f"{filepath!r} was saved by an earlier ringflow, whose {type(optimizer).__name__} state "
                         "ringflow cannot map to today's: load it with load_model(..., compile=False) and compile "
                         "again (the optimizer starts afresh)") from None


def _from_per_variable(filepath, state, optimizer):
    """The optimizer state of a file an earlier ringflow wrote (each variable's slots together) in today's order."""
    kind = next((c.__name__ for c in type(optimizer).__mro__ if c.__name__ in _PER_VARIABLE_SLOTS), None)
    weights, lead = optimizer.weights, _lead(optimizer)
    old_slots = _PER_VARIABLE_SLOTS[kind](optimizer.get_config()) if kind else None
    names = [w.name.rsplit(":", 1)[0].rsplit("/", 1) for w in weights[lead:]]
    variables = list(dict.fromkeys(var for var, _ in names))
    if old_slots is None or any(slot not in old_slots for _, slot in names) or \
            len(state) != lead + len(variables) * len(old_slots):
        raise ValueError(f"{filepath!r} was saved by an earlier ringflow, whose {type(optimizer).__name__} state "
                         "ringflow cannot map to today's: load it with load_model(..., compile=False) and compile "
                         "again (the optimizer starts afresh)")
    return list(state[:lead]) + [state[lead + variables.index(var) * len(old_slots) + old_slots.index(slot)]
                                 for var, slot in names]


def _from_config(config, custom_objects):
    known = known_objects(LAYERS, custom_objects)
    cls = known.get(config["class_name"])
    if cls is None:
        raise ValueError(f"Unknown model class {config['class_name']!r}; pass it in custom_objects")
    return cls.from_config(config["config"], custom_objects=custom_objects)


def _compiled(model, training, state, custom_objects, reorder=None):
    optimizer = optimizers.deserialize(training["optimizer_config"], custom_objects)
    model.compile(optimizer, loss=training["loss"], metrics=training["metrics"],
                  loss_weights=training.get("loss_weights"), sample_weight_mode=training.get("sample_weight_mode"))
    if state:
        model.make_train_function()
        optimizer.set_weights(reorder(state, optimizer) if reorder else state)
    return model
