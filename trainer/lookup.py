"""tg.lookup: TF1's tf.lookup namespace, the lookup tables of ops/lookup_ops.py, and tf.lookup.experimental's
mutable ones (ops/mutable_lookup_ops.py)."""
import types

from .ops.lookup_ops import (KeyValueTensorInitializer, StaticHashTable, StaticVocabularyTable, TextFileIndex,
                             TextFileInitializer)
from .ops.mutable_lookup_ops import DenseHashTable, MutableHashTable
from .unsupported import missing_names

experimental = types.SimpleNamespace(DenseHashTable=DenseHashTable, MutableHashTable=MutableHashTable)

__all__ = ["KeyValueTensorInitializer", "StaticHashTable", "StaticVocabularyTable", "TextFileIndex",
           "TextFileInitializer", "experimental"]

__getattr__ = missing_names(__name__, have="tf.lookup has " + ", ".join(__all__))
