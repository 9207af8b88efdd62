"""tf.contrib.learn.preprocessing: TF1's text to word-id matrices (VocabularyProcessor, ByteProcessor) and the
vocabulary under them."""
from ......unsupported import missing_names
from .categorical_vocabulary import CategoricalVocabulary
from .text import ByteProcessor, VocabularyProcessor, tokenizer

__all__ = ["ByteProcessor", "CategoricalVocabulary", "VocabularyProcessor", "tokenizer"]

__getattr__ = missing_names(__name__, have=f"tf.contrib.learn.preprocessing here has {', '.join(__all__)}")
