"""tf.keras.datasets.boston_housing: 506 houses, 13 features each, and their median values, from
~/.keras/datasets/boston_housing.npz."""
import numpy as np

from ...platform.data_files import read_npz
from .cache import cached_path

_WHERE = "tf.keras.datasets.boston_housing.load_data"


def load_data(path="boston_housing.npz", test_split=0.2, seed=113):
    """((x_train, y_train), (x_test, y_test)): the houses shuffled by `seed`, the last test_split for testing."""
    x, y = read_npz(_WHERE, cached_path(_WHERE, path), ("x", "y"))
    indices = np.arange(len(x))
    np.random.RandomState(seed).shuffle(indices)
    x, y = x[indices], y[indices]
    cut = int(len(x) * (1 - test_split))
    return (x[:cut], y[:cut]), (x[cut:], y[cut:])
