"""tf.contrib.lookup: TF1's lookup tables and the vocabulary tables built on them (ops/lookup_ops.py)."""
from ..ops.lookup_ops import (KeyValueTensorInitializer, StaticHashTable as HashTable, TextFileIndex,
                              TextFileInitializer, index_table_from_file, index_table_from_tensor,
                              index_to_string_table_from_file, index_to_string_table_from_tensor)

__all__ = ["HashTable", "KeyValueTensorInitializer", "TextFileIndex", "TextFileInitializer", "index_table_from_file",
           "index_table_from_tensor", "index_to_string_table_from_file", "index_to_string_table_from_tensor"]
