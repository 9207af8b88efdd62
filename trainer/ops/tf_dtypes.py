"""tg.dtypes: TF1's tf.dtypes namespace, the DTypes and as_dtype (framework/dtypes.py) with the casts TF1 files there
(tf.saturate_cast stays at the top level: it is built from tf.image's clipping)."""
from ..framework.dtypes import (QUANTIZED_DTYPES, DType, as_dtype, bfloat16, bool, complex64, complex128, double,
                                float16, float32, float64, half, int8, int16, int32, int64, qint8, qint16, qint32,
                                quint8, quint16, resource, string, uint8, uint16, uint32, uint64, variant)
from .array_ops import cast
from .complex_ops import complex
from .string_ops import as_string

__all__ = ["DType", "QUANTIZED_DTYPES", "as_dtype", "as_string", "bfloat16", "bool", "cast", "complex", "complex64",
           "complex128", "double", "float16", "float32", "float64", "half", "int8", "int16", "int32", "int64", "qint8",
           "qint16", "qint32", "quint8", "quint16", "resource", "string", "uint8", "uint16", "uint32", "uint64",
           "variant"]
