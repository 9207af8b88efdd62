"""tf.fingerprint: a stable 8-byte FarmHash Fingerprint64 of each row of a tensor, TF's bytes (uint8 [rows, 8])."""
import numpy as np

from ..framework import dtypes
from ..framework.registry import apply_op, host_kernel, register
from .core_ops import convert_to_tensor
from .kernels.string_hash import fingerprint64
from .tensor_util import static_shape


def _rows(rows):
    # each row's fingerprint as its 8 little-endian bytes, as TF copies the uint64 out
    return np.array([fingerprint64(bytes(row)) for row in rows], "<u8").view(np.uint8).reshape(len(rows), 8)


def _fingerprint(data, method):
    rows = data.shape[0]
    if data.dtype.kind == "O":  # strings: each one's fingerprint, then (several a row) a fingerprint of those
        strings = _rows([[*s] for s in data.reshape(-1)]) if data.size else np.zeros((0, 8), np.uint8)
        return strings if data.size <= rows else _rows(strings.reshape(rows, -1))
    flat = np.ascontiguousarray(data).reshape(rows, -1).view(np.uint8) if data.size else np.zeros((rows, 0), np.uint8)
    return _rows(flat) if rows else np.zeros((0, 8), np.uint8)


register("Fingerprint", kernel=host_kernel(_fingerprint), fresh=True,
         infer=lambda data, method: [(((static_shape(data) or (None,))[0], 8), dtypes.uint8)])


def fingerprint(data, method="farmhash64", name=None):
    """uint8 [rows, 8]: a FarmHash Fingerprint64 of each row (slice along axis 0) of `data`, the same on every
    machine and run (strings are fingerprinted one by one first)."""
    data = convert_to_tensor(data, name="data")
    if method != "farmhash64":
        raise ValueError(f"fingerprint: unknown method {method!r}; TF has only 'farmhash64'")
    if data.ndim == 0:
        raise ValueError(f"fingerprint needs a tensor of rank >= 1, got the scalar {data.name!r}")
    return apply_op("Fingerprint", [data], name=name or "Fingerprint", method=method)
