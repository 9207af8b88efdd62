"""tf.keras.datasets.fashion_mnist: Zalando's 28x28 clothing images, from the four gzipped IDX files Keras keeps in
~/.keras/datasets/fashion-mnist/."""
import os

from ...platform.data_checks import DatasetError
from ...platform.data_files import read_idx
from .cache import cached_path

FILES = ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz", "t10k-images-idx3-ubyte.gz",
         "t10k-labels-idx1-ubyte.gz")
_WHERE = "tf.keras.datasets.fashion_mnist.load_data"


def _pair(images_file, labels_file):
    images, labels = (read_idx(_WHERE, cached_path(_WHERE, name, os.path.join("datasets", "fashion-mnist")))
                      for name in (images_file, labels_file))
    if images.ndim != 3 or labels.ndim != 1 or len(images) != len(labels):
        raise DatasetError(f"{_WHERE}: {images_file} holds an array of shape {images.shape} and {labels_file} one of "
                           f"shape {labels.shape}: expected [N, 28, 28] images and N labels")
    return images, labels


def load_data():
    """((x_train, y_train), (x_test, y_test)): uint8 images [N, 28, 28] and labels [N]; never downloaded."""
    return _pair(*FILES[:2]), _pair(*FILES[2:])
