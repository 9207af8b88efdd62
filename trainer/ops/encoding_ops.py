"""Tensors and strings as bytes, TF's way (tf.io): web-safe base64, zlib and gzip decompression, a whole tensor as
a serialized TensorProto (serialize_tensor / parse_tensor), and a SparseTensor as three of them. Host kernels, as TF
places its string ops on the CPU."""
import base64
import gzip
import zlib

import numpy as np

from ..framework import dtypes
from ..framework.graph import get_default_graph
from ..framework.registry import host_kernel, op_def, register
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_util import TensorProto, make_ndarray
from ..platform.errors import DataLossError, InvalidArgumentError
from ..platform import protobuf_text
from ..platform.example_protos import Example
from ..platform.protobuf_wire import decode_varint, encode_varint
from .core_ops import convert_to_tensor
from .sparse_tensor import SparseTensor, is_sparse


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


def _serialize_tensor(value, strings_as_content=False):
    array = np.asarray(value)
    proto = TensorProto(tensor_shape=TensorShape(array.shape).as_proto())
    if array.dtype.kind in "OSU":
        proto.dtype = dtypes.string.as_datatype_enum
        items = _strings(array)
        if strings_as_content:  # TF's EncodeStringList: every length as a varint, then the bytes
            proto.tensor_content = b"".join(encode_varint(len(b)) for b in items) + b"".join(items)
        else:
            proto.string_val.extend(items)
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
    if out_type == dtypes.string and proto.tensor_content:
        return _string_content(proto)
    value = make_ndarray(proto)
    return value.astype(object) if out_type == dtypes.string else value


def _string_content(proto):
    """The strings of EncodeStringList's tensor_content: every length as a varint, then the bytes."""
    shape = TensorShape(proto.tensor_shape).as_list()
    data, pos, lengths = proto.tensor_content, 0, []
    for _ in range(int(np.prod(shape, dtype=np.int64))):
        length, pos = decode_varint(data, pos)
        lengths.append(length)
    items = []
    for length in lengths:
        items.append(data[pos:pos + length])
        pos += length
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out.reshape(shape)


def _serialize_sparse(indices, values, dense_shape):
    # TF writes a SparseTensor's parts with AsProtoTensorContent, strings included
    parts = (indices, values, dense_shape)
    return np.array([_serialize_tensor(part, strings_as_content=True).item() for part in parts], dtype=object)


def _serialize_many_sparse(indices, values, dense_shape):
    rows = int(dense_shape[0]) if len(dense_shape) else 0
    out = np.empty((rows, 3), dtype=object)
    for row in range(rows):
        mine = indices[:, 0] == row
        out[row] = _serialize_sparse(indices[mine, 1:], values[mine], dense_shape[1:])
    return out


def _deserialize_many_sparse(serialized, dtype, rank):
    del rank  # the output's static rank, as TF's set_shape gives it; the values decide at run time
    parts = [[_parse_tensor(np.array(s, dtype=object), kind) for s, kind in
              zip(row, (dtypes.int64, dtype, dtypes.int64))] for row in np.asarray(serialized, dtype=object)]
    if not parts:
        raise InvalidArgumentError("Serialized sparse should have at least 1 row, got 0")
    ranks = {len(shape) for _, _, shape in parts}
    if len(ranks) > 1:
        raise InvalidArgumentError(f"Inconsistent rank across SparseTensors: ranks {sorted(ranks)}; serialize "
                                   "SparseTensors of one rank together")
    found = ranks.pop()
    indices = np.concatenate([np.concatenate([np.full((len(i), 1), n, np.int64), np.reshape(i, (len(i), found))], 1)
                              for n, (i, _, _) in enumerate(parts)])
    values = np.concatenate([np.reshape(v, -1) for _, v, _ in parts]).astype(dtype.dtype)
    shape = np.array([len(parts)] + np.max([s for _, _, s in parts], axis=0).tolist(), np.int64)
    return indices, values.astype(object) if dtype == dtypes.string else values, shape


def _decode_json_example(json_examples):
    def decode(text):
        try:
            return protobuf_text.parse_json(text.decode("utf-8"), Example()).SerializeToString()
        except (ValueError, TypeError, KeyError) as exc:
            raise InvalidArgumentError(f"Error while parsing JSON: {exc}") from None
    return _each(json_examples, decode)


register("DecodeJSONExample", kernel=host_kernel(_decode_json_example),
         infer=lambda x, **a: [(x.shape, dtypes.string)])
register("EncodeBase64", kernel=host_kernel(_encode_base64), infer=lambda x, **a: [(x.shape, dtypes.string)])
register("DecodeBase64", kernel=host_kernel(_decode_base64), infer=lambda x, **a: [(x.shape, dtypes.string)])
register("DecodeCompressed", kernel=host_kernel(_decode_compressed), infer=lambda x, **a: [(x.shape, dtypes.string)])
register("SerializeSparse", kernel=host_kernel(_serialize_sparse), infer=lambda i, v, d: [((3,), dtypes.string)])
register("SerializeManySparse", kernel=host_kernel(_serialize_many_sparse),
         infer=lambda i, v, d: [((None, 3), dtypes.string)])
register("DeserializeManySparse", kernel=host_kernel(_deserialize_many_sparse),
         infer=lambda s, dtype, rank: [((None, rank), dtypes.int64), ((None,), dtype), ((rank,), dtypes.int64)])
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


def serialize_sparse(sp_input, name=None, out_type=dtypes.string):
    """A SparseTensor as three serialized TensorProtos (indices, values, dense_shape): a [3] string Tensor."""
    sp = _sparse(sp_input, "serialize_sparse", out_type)
    return _op("SerializeSparse", [sp.indices, sp.values, sp.dense_shape], name)


def serialize_many_sparse(sp_input, name=None, out_type=dtypes.string):
    """Each minibatch entry (first dimension) of a SparseTensor as serialize_sparse makes it: [N, 3] strings."""
    sp = _sparse(sp_input, "serialize_many_sparse", out_type)
    if sp.shape.ndims is not None and sp.shape.ndims < 1:
        raise ValueError(f"serialize_many_sparse needs a SparseTensor of rank >= 1 (a minibatch), got rank "
                         f"{sp.shape.ndims}")
    return _op("SerializeManySparse", [sp.indices, sp.values, sp.dense_shape], name)


def deserialize_many_sparse(serialized_sparse, dtype, rank=None, name=None):
    """The SparseTensor of serialize_many_sparse's [N, 3] strings: entries n of the batch at indices [n, ...], its
    dense shape N by the largest of each dimension; `rank` (the output's, batch included) sets its static shape."""
    serialized = convert_to_tensor(serialized_sparse, dtype=dtypes.string)
    dtype = dtypes.as_dtype(dtype)
    indices, values, shape = _op_outputs("DeserializeManySparse", [serialized], name, dtype=dtype,
                                         rank=None if rank is None else int(rank))
    return SparseTensor(indices, values, shape)


def _sparse(sp_input, what, out_type):
    if dtypes.as_dtype(out_type) != dtypes.string:
        raise NotImplementedError(f"{what}: out_type {dtypes.as_dtype(out_type).name} (TF's variant tensors) is "
                                  "not in ringflow; use tf.string")
    if not is_sparse(sp_input):
        raise TypeError(f"{what} takes a SparseTensor, got {type(sp_input).__name__}")
    return SparseTensor.from_value(sp_input)


def _op_outputs(op_type, inputs, name, **attrs):
    specs = op_def(op_type).infer(*inputs, **attrs)
    return get_default_graph().create_op(op_type, inputs, specs, name=name or op_type, attrs=attrs).outputs


def decode_json_example(json_examples, name=None):
    """Each JSON form of a tf.train.Example (protobuf's JSON: {"features": {"feature": {"x": {"floatList": ...}}}})
    as the serialized Example; InvalidArgumentError at run for text that is not one."""
    return _op("DecodeJSONExample", [convert_to_tensor(json_examples, dtype=dtypes.string)], name)
