"""Hashed feature crosses as TF1's SparseCross (hashed_output=True) computes them, on dense rows: each example's
cartesian product of its values across the inputs, each combination hashed with FarmHash's FingerprintCat64 from
hash_key, modulo num_buckets. crossed_column's ids (tf.feature_column)."""
import itertools

import numpy as np

from ..framework import dtypes
from ..framework.registry import apply_op, host_kernel, register
from .core_ops import convert_to_tensor
from .kernels.string_hash import MASK, fingerprint64
from .tensor_util import static_shape

MUL = 0xC6A4A7935BD1E995  # FarmHash's FingerprintCat64 multiplier
DEFAULT_HASH_KEY = 0xDECAFCAFFE  # TF1's feature_column default


def _shift_mix(v):
    return v ^ (v >> 47)


def fingerprint_cat64(fp1, fp2):
    """FarmHash's FingerprintCat64 of two uint64 fingerprints (Python ints)."""
    result = fp1 ^ MUL
    result ^= (_shift_mix((fp2 * MUL) & MASK) * MUL) & MASK
    result = (result * MUL) & MASK
    result = (_shift_mix(result) * MUL) & MASK
    return _shift_mix(result)


def _value_hashes(row, dense):
    # a string is hashed by its Fingerprint64, an integer stands for itself (as uint64); b"" and -1 are no value,
    # but in a dense input, where TF crosses every value
    if row.dtype.kind == "O":
        return [fingerprint64(bytes(v)) for v in row if dense or v != b""]
    return [int(v) & MASK for v in row if dense or v != -1]


def _cross(*inputs, num_buckets, hash_key, dense):
    batch = inputs[0].shape[0]
    rows = []
    for b in range(batch):
        crosses = []
        for combination in itertools.product(*[_value_hashes(x[b], d) for x, d in zip(inputs, dense)]):
            hashed = hash_key
            for value in combination:
                hashed = fingerprint_cat64(hashed, value)
            crosses.append(hashed % num_buckets)
        rows.append(crosses)
    width = max((len(r) for r in rows), default=0)
    out = np.full((batch, width), -1, np.int64)
    for b, crosses in enumerate(rows):
        out[b, :len(crosses)] = crosses
    return out


register("DenseCrossHashed", kernel=host_kernel(_cross), fresh=True,
         infer=lambda *inputs, num_buckets, hash_key, dense: [(((static_shape(inputs[0]) or (None,))[0], None),
                                                        dtypes.int64)])


def dense_cross_hashed(sparse_inputs, dense_inputs, num_buckets, hash_key=None, name=None):
    """int64 [batch, crosses]: each example's crosses of its values, hashed into [0, num_buckets); -1 pads the rows
    with fewer. Each input is [batch, k], strings or integers; in `sparse_inputs` (a SparseTensor read densely) b""
    and -1 are no value, `dense_inputs` cross every value. TF's SparseCross hashes the sparse inputs first, in their
    order, then the dense ones: so does this."""
    inputs = [convert_to_tensor(x) for x in list(sparse_inputs) + list(dense_inputs)]
    return apply_op("DenseCrossHashed", inputs, name=name or "DenseCrossHashed", num_buckets=int(num_buckets),
                    hash_key=DEFAULT_HASH_KEY if hash_key is None else int(hash_key),
                    dense=tuple(i >= len(sparse_inputs) for i in range(len(inputs))))
