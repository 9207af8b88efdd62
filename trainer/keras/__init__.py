"""tf.keras in ringflow: only tf.keras.datasets' MNIST and Fashion-MNIST loaders, reading local files.

Every other tf.keras name fails as before, saying to build the model with tf.layers or plain variables.
"""
from ..unsupported import MISSING, missing_names
from . import datasets  # noqa: F401

__all__ = ["datasets"]

__getattr__ = missing_names(__name__, have=f"{MISSING['keras']}; of tf.keras only tf.keras.datasets.mnist and "
                            "fashion_mnist are here")
