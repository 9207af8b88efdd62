"""The CIFAR batches Keras unpacks into ~/.keras/datasets: pickled dicts of uint8 rows [N, 3 * 32 * 32] and labels,
returned channels-last ([N, 32, 32, 3]) as Keras does under its default image_data_format."""
import pickle

import numpy as np

from .. import backend as K
from .cache import cached_path


def load_batch(fpath, label_key="labels"):
    """(data [N, 3, 32, 32] uint8, labels) of one CIFAR batch file."""
    with open(fpath, "rb") as f:
        d = {k.decode("utf8") if isinstance(k, bytes) else k: v for k, v in pickle.load(f, encoding="bytes").items()}
    data = np.asarray(d["data"], dtype="uint8")
    return data.reshape(data.shape[0], 3, 32, 32), np.asarray(d[label_key])


def load(caller, dirname, files, label_key):
    """The images (channels last unless image_data_format() is 'channels_first') and [N, 1] labels of `files`."""
    batches = [load_batch(cached_path(caller, f"{dirname}/{name}"), label_key) for name in files]
    x = np.concatenate([b[0] for b in batches])
    y = np.concatenate([b[1] for b in batches]).reshape(-1, 1)
    return (x.transpose(0, 2, 3, 1) if K.image_data_format() == "channels_last" else x), y
