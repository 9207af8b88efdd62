"""tf.contrib.tensorboard: the embedding projector's configuration (plugins.projector)."""
from . import plugins  # noqa: F401
