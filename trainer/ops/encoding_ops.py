"""Tensors and strings as bytes, TF's way (tf.io): web-safe base64, zlib and gzip decompression, and a whole tensor as
a serialized TensorProto (serialize_tensor / parse_tensor). Host kernels, as TF places its string ops on the CPU."""
import base64
import binascii
import gzip
import zlib

import numpy as np

from ..framework import dtypes
from ..framework.graph import get_default_graph
from ..framework.registry import host_kernel, op_def, register
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_util import TensorProto, make_ndarray
from ..platform.errors import DataLossError, InvalidArgumentError
from .core_ops import convert_to_tensor


def _strings(array):
    return [v if isinstance(v, bytes) else str(v).encode() for v in np.asarray(array, dtype=object).ravel()]


def _each(strings, fn):
    """fn on each string of a tg.string array, in an array of its shape."""
    out = np.empty(np.shape(strings), dtype=object)
    out.reshape(-1)[:] = [fn(s) for s in _strings(strings)] if out.size else []
    return out


def _encode_base64(strings, pad):
    def encode(s):
        text = base64.urlsafe_b64encode(s)
        return text if pad else text.rstrip(b"=")
    return _each(strings, encode)


def _decode_base64(strings):
    def decode(s):
        if s.rstrip(b"=").strip(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") or \
                len(s.rstrip(b"=")) % 4 == 1:
            raise InvalidArgumentError(f"Invalid character found in base64: {s[:20]!r} (web-safe base64 uses - "
                                       "and _ where standard base64 has + and /)")
        body = s.rstrip(b"=")
        return base64.urlsafe_b64decode(body + b"=" * (-len(body) % 4))
    return _each(strings, decode)


def _decode_compressed(strings, compression_type):
    def decompress(s):
        try:
            return {"": bytes, "ZLIB": zlib.decompress, "GZIP": gzip.decompress}[compression_type](s)
        except (zlib.error, OSError, EOFError) as exc:
            raise DataLossError(f"Failed to decompress a {compression_type} string of {len(s)} bytes ({exc})") \
                from None
    return _each(strings, decompress)


def _serialize_tensor(value):
    array = np.asarray(value)
    proto = TensorProto(tensor_shape=TensorShape(array.shape).as_proto())
    if array.dtype.kind in "OSU":
        proto.dtype = dtypes.string.as_datatype_enum
        proto.string_val.extend(_strings(array))
    else:  # every element's raw little-endian bytes, as TF's Tensor::AsProtoTensorContent writes them
        proto.dtype = dtypes.as_dtype(array.dtype).as_datatype_enum
        proto.tensor_content = array.astype(array.dtype.newbyteorder("<")).tobytes()
    return np.array(proto.SerializeToString(), dtype=object)


def _parse_tensor(serialized, out_type):
    try:
        proto = TensorProto.FromString(_strings(serialized)[0])
    except (ValueError, TypeError, UnicodeDecodeError, IndexError):
        raise InvalidArgumentError("Could not parse `serialized` as TensorProto: pass what serialize_tensor made") \
            from None
    parsed = dtypes.as_dtype(proto.dtype) if proto.dtype else None
    if parsed != out_type:
        raise InvalidArgumentError(f"Type mismatch between parsed tensor ({parsed and parsed.name}) and dtype "
                                   f"({out_type.name})")
    value = make_ndarray(proto)
    return value.astype(object) if out_type == dtypes.string else value


register("EncodeBase64", kernel=host_kernel(_encode_base64), infer=lambda x, **a: [(x.shape, dtypes.string)])
register("DecodeBase64", kernel=host_kernel(_decode_base64), infer=lambda x, **a: [(x.shape, dtypes.string)])
register("DecodeCompressed", kernel=host_kernel(_decode_compressed), infer=lambda x, **a: [(x.shape, dtypes.string)])
register("SerializeTensor", kernel=host_kernel(_serialize_tensor), infer=lambda x, **a: [((), dtypes.string)])
register("ParseTensor", kernel=host_kernel(_parse_tensor), infer=lambda x, **a: [(None, a["out_type"])])


def _op(op_type, inputs, name, **attrs):
    specs = op_def(op_type).infer(*inputs, **attrs)
    return get_default_graph().create_op(op_type, inputs, specs, name=name or op_type, attrs=attrs).outputs[0]


def encode_base64(input, pad=False, name=None):  # noqa: A002  (TF's argument name)
    """Each string in web-safe base64 (- and _ for + and /), with '=' padding when `pad`."""
    return _op("EncodeBase64", [convert_to_tensor(input, dtype=dtypes.string)], name, pad=bool(pad))


def decode_base64(input, name=None):  # noqa: A002
    """Each web-safe base64 string decoded (padded or not); InvalidArgumentError at run for a bad one."""
    return _op("DecodeBase64", [convert_to_tensor(input, dtype=dtypes.string)], name)


def decode_compressed(bytes, compression_type="", name=None):  # noqa: A002
    """Each string decompressed: compression_type "" (as it is), "ZLIB" or "GZIP"; DataLossError for bad data."""
    if compression_type not in ("", "ZLIB", "GZIP"):
        raise ValueError(f"compression_type must be '', 'ZLIB' or 'GZIP', got {compression_type!r}")
    return _op("DecodeCompressed", [convert_to_tensor(bytes, dtype=dtypes.string)], name,
               compression_type=compression_type)


def serialize_tensor(tensor, name=None):
    """The whole tensor as one serialized TensorProto (a scalar string)."""
    return _op("SerializeTensor", [convert_to_tensor(tensor)], name)


def parse_tensor(serialized, out_type, name=None):
    """The tensor a serialized TensorProto holds, of dtype `out_type` (InvalidArgumentError at run when it is
    another); its shape is known only at run time."""
    return _op("ParseTensor", [convert_to_tensor(serialized, dtype=dtypes.string)], name,
               out_type=dtypes.as_dtype(out_type))
