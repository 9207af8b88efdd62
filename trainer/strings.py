"""tg.strings: TF1's tf.strings namespace, the ops on tf.string tensors (ops/string_ops.py)."""
from .ops.string_ops import (as_string, lower, reduce_join, regex_full_match, regex_replace, split,  # noqa: A004
                             string_format as format, string_join as join,
                             string_length as length, string_strip as strip, string_to_hash_bucket as to_hash_bucket,
                             string_to_hash_bucket_fast as to_hash_bucket_fast,
                             string_to_hash_bucket_strong as to_hash_bucket_strong, string_to_number as to_number,
                             substr, unsorted_segment_join, upper)
from .unsupported import missing_names

__all__ = ["as_string", "format", "join", "length", "lower", "reduce_join", "regex_full_match", "regex_replace", "split",
           "strip", "substr", "to_hash_bucket", "to_hash_bucket_fast", "to_hash_bucket_strong", "to_number",
           "unsorted_segment_join", "upper"]

from .ops.unicode_ops import unicode_encode, unicode_transcode  # noqa: E402

__all__ += ["unicode_encode", "unicode_transcode"]

# what answers a RaggedTensor in TF (unicode_decode, unicode_split, ngrams, bytes_split), and unicode_script (ICU's
# script table), are not implemented
__getattr__ = missing_names(__name__, have="tf.strings has " + ", ".join(__all__))
