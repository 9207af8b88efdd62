"""save_model/load_model: Keras' HDF5 file (hdf5_format.py) for a .h5, .hdf5 or .keras path when h5py is
importable, else ringflow's format: one numpy .npz file holding Keras' model config JSON, the training config JSON
(optimizer, loss, metrics), the weights in get_weights order and the optimizer's state, written under the exact
name given whatever its suffix. load_model tells the two apart by the file's first bytes.

save_format='tf' asks for TF's SavedModel, which ringflow does not write: the path becomes a directory holding
ringflow's file as SAVED_MODEL_FILE, which load_model reads back (TF Serving cannot).
"""
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
        config, training, weights, state = hdf5_format.load_model(filepath)
        model = _from_config(config, custom_objects)
        hdf5_format.assign(weights, model.layers)
        return _compiled(model, training, state, custom_objects) if compile and training else model
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
        return _compiled(model, json.loads(str(data["training_config"])), _numbered(data, "optimizer_weight_"),
                         custom_objects)
    return model


def _from_config(config, custom_objects):
    known = known_objects(LAYERS, custom_objects)
    cls = known.get(config["class_name"])
    if cls is None:
        raise ValueError(f"Unknown model class {config['class_name']!r}; pass it in custom_objects")
    return cls.from_config(config["config"], custom_objects=custom_objects)


def _compiled(model, training, state, custom_objects):
    optimizer = optimizers.deserialize(training["optimizer_config"], custom_objects)
    model.compile(optimizer, loss=training["loss"], metrics=training["metrics"],
                  loss_weights=training.get("loss_weights"), sample_weight_mode=training.get("sample_weight_mode"))
    if state:
        model.make_train_function()
        optimizer.set_weights(state)
    return model
