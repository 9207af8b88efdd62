"""Keras' HDF5 layout (TF 1.15's hdf5_format.py), written and read with h5py when it is importable.

A model file holds the attributes keras_version, backend, model_config (the architecture's JSON) and
training_config (optimizer, loss, metrics), the group model_weights and the group optimizer_weights. A weights
group lists its layer_names; each layer's group lists its weight_names ('dense/kernel:0'), one dataset each. Long
name lists are split over attributes name0, name1, ... as Keras splits them (HDF5 caps an attribute at 64 KiB).
h5py is optional: ringflow's own .npz container (saving.py) and TF checkpoints need nothing.
"""
import json

import numpy as np

from .. import backend as K

HDF5_SIGNATURE = b"\x89HDF\r\n\x1a\n"
SUFFIXES = (".h5", ".hdf5", ".keras")  # the paths TF 1.15's Keras writes as HDF5 by default
KERAS_VERSION = "2.2.4-tf"


def h5py_or_none():
    """The h5py module, or None where it is not installed (ringflow then uses its own formats)."""
    try:
        import h5py
    except ImportError:
        return None
    return h5py


def is_hdf5(filepath):
    """Whether `filepath` starts with HDF5's signature."""
    try:
        with open(filepath, "rb") as f:
            return f.read(8) == HDF5_SIGNATURE
    except OSError:
        return False


def open_file(filepath, mode):
    h5py = h5py_or_none()
    if h5py is None:
        raise ImportError(f"Cannot write or read {str(filepath)!r} as HDF5: h5py is not installed (`pip install "
                          "h5py`); without it give a path without the .h5 suffix (a TF checkpoint for weights, "
                          "ringflow's .npz container for models)")
    try:
        return h5py.File(filepath, mode)
    except OSError as error:
        raise ValueError(f"{str(filepath)!r} is not a readable HDF5 file: {error}") from None


def save_attributes(group, name, values):
    chunks = max(1, -(-sum(len(v) for v in values) // 60000))  # stay under HDF5's 64 KiB attribute limit
    encoded = [v.encode("utf8") for v in values]
    if chunks == 1:
        group.attrs[name] = np.array(encoded, dtype="S") if encoded else np.zeros((0,), dtype="S1")
        return
    for i, part in enumerate(np.array_split(np.array(encoded, dtype="S"), chunks)):
        group.attrs[f"{name}{i}"] = part


def load_attributes(group, name):
    if name in group.attrs:
        parts = [group.attrs[name]]
    else:
        parts, i = [], 0
        while f"{name}{i}" in group.attrs:
            parts.append(group.attrs[f"{name}{i}"])
            i += 1
    return [v.decode("utf8") if isinstance(v, bytes) else str(v) for part in parts for v in part]


def save_weights_to_group(group, layers):
    """Every layer's weights under `group`, in Keras' layout."""
    save_attributes(group, "layer_names", [layer.name for layer in layers])
    group.attrs["backend"], group.attrs["keras_version"] = b"tensorflow", KERAS_VERSION.encode()
    for layer in layers:
        g = group.create_group(layer.name)
        weights = layer.weights
        save_attributes(g, "weight_names", [w.name for w in weights])
        for w, value in zip(weights, K.batch_get_value(weights)):
            g.create_dataset(w.name, data=value)


def _layer_weights(group):
    """[(layer name, [arrays])] of the layers in `group` that have weights, in the file's order."""
    out = []
    for name in load_attributes(group, "layer_names"):
        g = group[name]
        names = load_attributes(g, "weight_names")
        if names:
            out.append((name, [np.asarray(g[n]) for n in names]))
    return out


def load_weights_from_group(group, layers, by_name=False):
    """Set `layers`' weights from `group`: in order among the layers that have weights, or by layer name."""
    assign(_layer_weights(group), layers, by_name)


def assign(saved, layers, by_name=False):
    """Set `layers`' weights from [(layer name, [arrays])] as load_weights_from_group does."""
    if by_name:
        pairs = [(layer, values) for name, values in saved for layer in layers if layer.name == name]
    else:
        with_weights = [layer for layer in layers if layer.weights]
        if len(saved) != len(with_weights):
            raise ValueError(f"You are trying to load a weight file containing {len(saved)} layers into a model "
                             f"with {len(with_weights)} layers.")
        pairs = list(zip(with_weights, (values for _, values in saved)))
    assignments = []
    for layer, values in pairs:
        if len(values) != len(layer.weights):
            raise ValueError(f"Layer {layer.name!r} expects {len(layer.weights)} weights, but the saved weights "
                             f"have {len(values)} elements.")
        for w, value in zip(layer.weights, values):
            if tuple(K.int_shape(w)) != value.shape:
                raise ValueError(f"Layer {layer.name!r} weight {w.name!r} has shape {K.int_shape(w)}, the saved "
                                 f"weight has shape {value.shape}")
            assignments.append((w, value))
    K.batch_set_value(assignments)


def save_model(model, filepath, training_config, optimizer_weights):
    """The model file: its config, its weights, and (when compiled) training_config and the optimizer's state."""
    with open_file(filepath, "w") as f:
        f.attrs["keras_version"], f.attrs["backend"] = KERAS_VERSION.encode(), b"tensorflow"
        f.attrs["model_config"] = json.dumps(json.loads(model.to_json())).encode("utf8")
        save_weights_to_group(f.create_group("model_weights"), model.layers)
        if training_config is not None:
            f.attrs["training_config"] = json.dumps(training_config).encode("utf8")
            group = f.create_group("optimizer_weights")
            save_attributes(group, "weight_names", [w.name for w in optimizer_weights])
            for w, value in zip(optimizer_weights, K.batch_get_value(optimizer_weights)):
                group.create_dataset(w.name, data=value)


def load_model(filepath):
    """(model config dict, training config dict or None, [(layer name, [weight arrays])] for assign(), the
    optimizer's state arrays, their names)."""
    with open_file(filepath, "r") as f:
        if "model_config" not in f.attrs:
            raise ValueError(f"{str(filepath)!r} holds no model config (it is a weights file?): build the model and "
                             "use load_weights")
        config = json.loads(_text(f.attrs["model_config"]))
        training = json.loads(_text(f.attrs["training_config"])) if "training_config" in f.attrs else None
        weights = _layer_weights(f["model_weights"])
        state, names = [], []
        if "optimizer_weights" in f:
            group = f["optimizer_weights"]
            names = [_text(n) for n in load_attributes(group, "weight_names")]
            state = [np.asarray(group[n]) for n in names]
    return config, training, weights, state, names


def _text(value):
    return value.decode("utf8") if isinstance(value, bytes) else str(value)
