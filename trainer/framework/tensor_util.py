"""TF1's TensorProto, the value of a tensor as a message (a Const's "value" attr, a tensor summary), with
tf.make_tensor_proto and tf.make_ndarray between it and numpy arrays."""
import numpy as np

from ..platform.protobuf import Field, Message
from .dtypes import as_dtype
from .tensor_shape import TensorShape, TensorShapeProto

# TF's DataType enum by name (types.proto), as the text format prints it: DT_FLOAT for float32.
DATA_TYPE_NAMES = {as_dtype(name).as_datatype_enum: "DT_" + {"float32": "FLOAT", "float64": "DOUBLE",
                                                             "float16": "HALF"}.get(name, name.upper())
                   for name in ("float16", "float32", "float64", "bfloat16", "int8", "int16", "int32", "int64",
                                "uint8", "uint16", "uint32", "uint64", "complex64", "complex128", "bool", "string")}
_STRING = as_dtype("string").as_datatype_enum


class TensorProto(Message):
    """A tensor's value: raw little-endian bytes in tensor_content, or a typed value list (float_val, int_val,
    string_val, ...), where fewer values than elements repeat the last one."""
    FIELDS = {"dtype": Field(1, "enum", names=DATA_TYPE_NAMES), "tensor_shape": Field(2, "message", TensorShapeProto),
              "version_number": Field(3, "int32"), "tensor_content": Field(4, "bytes"),
              "float_val": Field(5, "float", repeated=True), "double_val": Field(6, "double", repeated=True),
              "int_val": Field(7, "int32", repeated=True), "string_val": Field(8, "bytes", repeated=True),
              "scomplex_val": Field(9, "float", repeated=True), "int64_val": Field(10, "int64", repeated=True),
              "bool_val": Field(11, "bool", repeated=True), "dcomplex_val": Field(12, "double", repeated=True),
              "half_val": Field(13, "int32", repeated=True), "uint32_val": Field(16, "uint32", repeated=True),
              "uint64_val": Field(17, "uint64", repeated=True)}


# Which value list holds each numpy dtype's elements (TF's tensor_util); float16 as its bits, complex as pairs.
_VALUE_FIELDS = {"float32": "float_val", "float64": "double_val", "int32": "int_val", "int16": "int_val",
                 "int8": "int_val", "uint8": "int_val", "uint16": "int_val", "int64": "int64_val",
                 "bool": "bool_val", "float16": "half_val", "uint32": "uint32_val", "uint64": "uint64_val",
                 "complex64": "scomplex_val", "complex128": "dcomplex_val"}
# The dtypes TF writes as raw bytes when a tensor has more than one element (_TENSOR_CONTENT_TYPES).
_CONTENT_DTYPES = {"float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint32", "uint64"}


def _as_bytes(item):
    if isinstance(item, bytes):
        return item
    return (item if isinstance(item, str) else str(item)).encode("utf-8")


def make_tensor_proto(values, dtype=None, shape=None):
    """`values` (an array, a nested list or a scalar) as a TensorProto, in the field TF1's tf.make_tensor_proto
    chooses: raw little-endian bytes in tensor_content for numbers of more than one element, else the dtype's value
    list (int_val: 10, bool_val, string_val); one value for a larger `shape` is stored once, as TF fills it."""
    array = np.asarray(values, dtype=None if dtype is None or as_dtype(dtype).name == "string"
                       else as_dtype(dtype).as_numpy_dtype)
    dims = array.shape
    if shape is not None:
        dims = tuple(TensorShape(shape).as_list())
        array = array.reshape(-1) if array.size == 1 else array.reshape(dims)
    proto = TensorProto(tensor_shape=TensorShape(dims).as_proto())
    if array.dtype.kind in "OSU":
        proto.dtype = _STRING
        proto.string_val.extend(_as_bytes(x) for x in array.ravel().tolist())
        return proto
    try:
        proto.dtype = as_dtype(array.dtype).as_datatype_enum
    except (TypeError, KeyError):
        raise TypeError(f"No TensorProto dtype for {array.dtype.name}; use one of {sorted(DATA_TYPE_NAMES.values())}") \
            from None
    if array.dtype.name in _CONTENT_DTYPES and array.size > 1:
        proto.tensor_content = array.astype(array.dtype.newbyteorder("<")).tobytes()
        return proto
    flat = array.ravel()
    if array.dtype.kind == "c":
        flat = flat.view(flat.real.dtype)
    elif array.dtype == np.float16:
        flat = flat.view(np.uint16)
    getattr(proto, _VALUE_FIELDS[array.dtype.name]).extend(flat.tolist())
    return proto


def make_ndarray(tensor):
    """A TensorProto's value as a numpy array (TF1's tf.make_ndarray)."""
    shape = TensorShape(tensor.tensor_shape).as_list()
    if tensor.dtype == _STRING:
        values = list(tensor.string_val)
        size = int(np.prod(shape))
        values += values[-1:] * (size - len(values))  # one string fills a larger shape, as for numbers
        return np.array(values, dtype=object).reshape(shape)
    dtype = as_dtype(tensor.dtype).as_numpy_dtype
    if tensor.tensor_content:
        return np.frombuffer(tensor.tensor_content, np.dtype(dtype).newbyteorder("<")).astype(dtype).reshape(shape)
    values = list(getattr(tensor, _VALUE_FIELDS.get(np.dtype(dtype).name, "float_val")))
    if np.dtype(dtype) == np.float16:
        values = np.array(values, np.uint16).view(np.float16).tolist()
    elif np.dtype(dtype).kind == "c":
        values = (np.array(values[0::2]) + 1j * np.array(values[1::2])).tolist()
    size = int(np.prod(shape))
    if len(values) < size:  # the last value repeats, as TF fills a tensor from fewer values
        values = values + [values[-1] if values else 0] * (size - len(values))
    return np.array(values, dtype=dtype).reshape(shape)
