"""tf.keras.preprocessing: sequence (pad_sequences, TimeseriesGenerator, skipgrams), text (Tokenizer, one_hot,
hashing_trick, tokenizer_from_json), image (ImageDataGenerator, the affine transformations)."""
from ...unsupported import missing_names
from . import image, sequence, text

__getattr__ = missing_names(__name__, have="of tf.keras.preprocessing sequence, text and image are here")
