"""tf.keras.datasets.mnist: the 28x28 handwritten digits from Keras' mnist.npz."""
from ...platform.data_files import read_npz
from .cache import cached_path

ARRAYS = ("x_train", "y_train", "x_test", "y_test")


def load_data(path="mnist.npz"):
    """((x_train, y_train), (x_test, y_test)): uint8 images [N, 28, 28] and labels [N], from `path` in the Keras
    cache (~/.keras/datasets/mnist.npz) or an absolute path; never downloaded."""
    x_train, y_train, x_test, y_test = read_npz("tf.keras.datasets.mnist.load_data",
                                                cached_path("tf.keras.datasets.mnist.load_data", path), ARRAYS)
    return (x_train, y_train), (x_test, y_test)
