"""A categorical feature column's vocabulary lookup as one host op: strings (or integers) to their index in the
vocabulary, other values to FarmHash buckets after it or a default, missing values to -1. On the host, as TF1's
lookup tables run on the CPU; its ids go to the session's device, where the columns' embeddings and one-hots are."""
import numpy as np

from ..framework import dtypes
from ..framework.registry import apply_op, on_host, register
from .kernels.string_hash import fingerprint64


def _as_bytes(value):
    return value if isinstance(value, bytes) else str(value).encode()


def _lookup(op, session):
    vocabulary, oov, default, missing = (op.attrs[k] for k in ("vocabulary", "num_oov_buckets", "default_value",
                                                                "missing"))
    index = {}
    for i, word in enumerate(vocabulary):
        index.setdefault(word, i)

    def run(values):
        ids = np.empty(np.shape(values), dtype=np.int64)
        flat, out = np.asarray(values, dtype=object).ravel(), ids.reshape(-1)
        for k, value in enumerate(flat):
            key = value if isinstance(value, bytes) or not isinstance(value, str) else value.encode()
            if key == missing:
                out[k] = -1
            elif key in index:
                out[k] = index[key]
            elif oov:  # integers hash as their decimal text, as TF1's tables do
                out[k] = len(vocabulary) + fingerprint64(_as_bytes(key)) % oov
            else:
                out[k] = default
        return ids
    return run


register("VocabularyLookup", kernel=on_host(_lookup), infer=lambda values, **attrs: [(values.shape, dtypes.int64)])


def vocabulary_lookup(values, vocabulary, num_oov_buckets, default_value, missing, name=None):
    """int64 ids of `values` (a string or integer Tensor) in `vocabulary` (bytes or ints)."""
    return apply_op("VocabularyLookup", [values], name=name or "VocabularyLookup",
                    vocabulary=tuple(vocabulary), num_oov_buckets=int(num_oov_buckets),
                    default_value=int(default_value), missing=missing)
