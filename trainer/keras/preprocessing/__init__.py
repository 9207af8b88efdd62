"""tf.keras.preprocessing: sequence.pad_sequences, text (Tokenizer, one_hot, hashing_trick), image
(ImageDataGenerator)."""
from ...unsupported import missing_names
from . import image, sequence, text

__getattr__ = missing_names(__name__, have="of tf.keras.preprocessing sequence, text and image are here")
