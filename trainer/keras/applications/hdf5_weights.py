"""Keras' HDF5 weight files (model.save_weights('x.h5'), the applications' downloads) read into a model: the
file's layers that hold weights, in order, onto the model's (Keras' topological loading). Needs h5py."""
from ..engine import hdf5_format


def load_hdf5_weights(model, path):
    """Each of the file's layers with weights onto the model's layer with weights at the same position."""
    if hdf5_format.h5py_or_none() is None:
        raise ImportError("Reading Keras' HDF5 weight files needs h5py, which is not installed: "
                          "`pip install h5py`, or pass weights=None")
    with hdf5_format.open_file(path, "r") as f:
        hdf5_format.load_weights_from_group(f["model_weights"] if "model_weights" in f else f, model.layers)
