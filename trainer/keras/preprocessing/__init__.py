"""tf.keras.preprocessing: sequence.pad_sequences; image and text preprocessing are missing."""
from ...unsupported import missing_names
from . import sequence

__getattr__ = missing_names(__name__, have="of tf.keras.preprocessing only sequence.pad_sequences is here")
