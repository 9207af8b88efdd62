"""tf.keras.datasets: mnist and fashion_mnist, read from the local Keras cache (~/.keras/datasets), never
downloaded (cache.py); the other data sets fail naming what is missing."""
from ...unsupported import NotInRingflow
from . import fashion_mnist, mnist  # noqa: F401

__all__ = ["fashion_mnist", "mnist"]


def __getattr__(name):
    raise NotInRingflow(f"tf.keras.datasets.{name} is not available in ringflow: only mnist and fashion_mnist are "
                        "(read from local files); load other data sets with numpy")
