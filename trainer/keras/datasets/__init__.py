"""tf.keras.datasets: mnist and fashion_mnist, read from the local Keras cache (~/.keras/datasets), never
downloaded (cache.py); the other data sets fail naming what is missing."""
from ...unsupported import missing_names
from . import fashion_mnist, mnist  # noqa: F401

__all__ = ["fashion_mnist", "mnist"]

__getattr__ = missing_names(__name__, have="only mnist and fashion_mnist are here (read from local files); load "
                            "other data sets with numpy")
