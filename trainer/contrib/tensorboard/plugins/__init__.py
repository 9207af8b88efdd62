"""tf.contrib.tensorboard.plugins: the embedding projector."""
from . import projector  # noqa: F401
