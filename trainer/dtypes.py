"""Dtypes are numpy dtypes; TF1 spellings such as "float" are accepted where a dtype is expected."""
import numpy as np

float16 = np.dtype(np.float16)
float32 = np.dtype(np.float32)
float64 = np.dtype(np.float64)
int32 = np.dtype(np.int32)
int64 = np.dtype(np.int64)
bool = np.dtype(np.bool_)  # noqa: A001 - TF1's name
string = np.dtype(object)  # TF1's tf.string: elements are Python bytes

_ALIASES = {"float": float32, "double": float64, "half": float16, "int": int32, "long": int64}


def as_dtype(dtype):
    """Return the numpy dtype for a dtype, a numpy type or a TF1 name such as "float"."""
    if isinstance(dtype, str) and dtype in _ALIASES:
        return _ALIASES[dtype]
    try:
        return np.dtype(dtype)
    except TypeError:
        raise TypeError(f"Cannot interpret {dtype!r} as a dtype; use tg.float32, tg.int32, ... or a numpy dtype") from None


def default_dtype_for(value):
    """TF1's rule for Python values: floats become float32, ints int32; numpy arrays keep their dtype."""
    if isinstance(value, np.ndarray) or isinstance(value, np.generic):
        return value.dtype
    array = np.asarray(value)
    if array.dtype == np.float64:
        return float32
    if array.dtype == np.int64:
        return int32
    return array.dtype
