"""Where the training machinery logs: tg.logging (the "ringflow" logger), as TF1's hooks log to tf.logging."""
from ..platform import tf_logging


def logger():
    """The tg.logging module: info, warning and error take `msg, *args` as in TF1."""
    return tf_logging
