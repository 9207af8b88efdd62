"""tg.lookup: TF1's tf.lookup namespace, the lookup tables of ops/lookup_ops.py."""
from .ops.lookup_ops import (KeyValueTensorInitializer, StaticHashTable, StaticVocabularyTable, TextFileIndex,
                             TextFileInitializer)
from .unsupported import missing_names

__all__ = ["KeyValueTensorInitializer", "StaticHashTable", "StaticVocabularyTable", "TextFileIndex",
           "TextFileInitializer"]

__getattr__ = missing_names(__name__, have="tf.lookup has " + ", ".join(__all__), reasons={
    "experimental": "mutable and dense hash tables: fill a StaticHashTable once instead"})
