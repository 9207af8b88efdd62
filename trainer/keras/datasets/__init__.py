"""tf.keras.datasets: mnist, fashion_mnist, cifar10, cifar100, imdb, reuters and boston_housing, read from the
local Keras cache (~/.keras/datasets) under the file names Keras uses, never downloaded (cache.py)."""
from ...unsupported import missing_names
from . import boston_housing, cifar10, cifar100, fashion_mnist, imdb, mnist, reuters  # noqa: F401

__all__ = ["boston_housing", "cifar10", "cifar100", "fashion_mnist", "imdb", "mnist", "reuters"]

__getattr__ = missing_names(__name__, have="the data sets here are " + ", ".join(__all__) + " (read from local "
                            "files); load other data sets with numpy")
