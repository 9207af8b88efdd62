"""tg.strings: TF1's tf.strings namespace, the ops on tf.string tensors (ops/string_ops.py)."""
from .ops.string_ops import (as_string, lower, reduce_join, regex_full_match, regex_replace, split, string_join as join,
                             string_length as length, string_strip as strip, string_to_number as to_number, substr,
                             upper)
from .unsupported import missing_names

__all__ = ["as_string", "join", "length", "lower", "reduce_join", "regex_full_match", "regex_replace", "split",
           "strip", "substr", "to_number", "upper"]

# TF1 hashes strings into buckets with FarmHash and SipHash, which ringflow does not implement
HASHES = "string hashing (FarmHash, SipHash): map strings to ids with a vocabulary instead"
__getattr__ = missing_names(__name__, have="tf.strings has " + ", ".join(__all__), reasons={
    "to_hash_bucket": HASHES, "to_hash_bucket_fast": HASHES, "to_hash_bucket_strong": HASHES})
