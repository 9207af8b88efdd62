"""Keras' HDF5 weight files (model.save_weights('x.h5'), the applications' downloads) read into a model: the
file's layers that hold weights, in order, onto the model's (Keras' topological loading). Needs h5py."""
import numpy as np

from .. import backend as K


def _h5py():
    try:
        import h5py  # an optional dependency: only reading Keras' own files needs it
    except ImportError:
        raise ImportError("Reading Keras' HDF5 weight files needs h5py, which is not installed: "
                          "`pip install h5py`, or pass weights=None") from None
    return h5py


def _decoded(values):
    return [v.decode("utf8") if isinstance(v, bytes) else str(v) for v in values]


def load_hdf5_weights(model, path):
    """Each of the file's layers with weights onto the model's layer with weights at the same position."""
    with _h5py().File(path, "r") as f:
        group = f["model_weights"] if "model_weights" in f else f
        saved = []
        for name in _decoded(group.attrs["layer_names"]):
            names = _decoded(group[name].attrs["weight_names"])
            if names:
                saved.append((name, [np.asarray(group[name][w]) for w in names]))
    targets = [layer for layer in model.layers if layer.weights]
    if len(saved) != len(targets):
        raise ValueError(f"You are trying to load a weight file containing {len(saved)} layers into a model with "
                         f"{len(targets)} layers ({path})")
    pairs = []
    for layer, (name, values) in zip(targets, saved):
        if len(values) != len(layer.weights):
            raise ValueError(f"Layer {layer.name!r} has {len(layer.weights)} weights but the file's layer {name!r} "
                             f"has {len(values)} ({path})")
        for weight, value in zip(layer.weights, values):
            if tuple(K.int_shape(weight)) != value.shape:
                raise ValueError(f"Layer {layer.name!r}: weight {weight.name!r} has shape {K.int_shape(weight)} but "
                                 f"the file's {name!r} holds {value.shape} ({path})")
            pairs.append((weight, value))
    K.batch_set_value(pairs)
