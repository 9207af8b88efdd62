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
    """A tensor's value: raw little-endian bytes in tensor_content, strings in string_val; TF writers may also
    use the typed value lists, where a single value stands for every element."""
    FIELDS = {"dtype": Field(1, "enum", names=DATA_TYPE_NAMES), "tensor_shape": Field(2, "message", TensorShapeProto),
              "version_number": Field(3, "int32"), "tensor_content": Field(4, "bytes"),
              "float_val": Field(5, "float", repeated=True), "double_val": Field(6, "double", repeated=True),
              "int_val": Field(7, "int32", repeated=True), "string_val": Field(8, "bytes", repeated=True),
              "int64_val": Field(10, "int64", repeated=True), "bool_val": Field(11, "bool", repeated=True)}


def _as_bytes(item):
    if isinstance(item, bytes):
        return item
    return (item if isinstance(item, str) else str(item)).encode("utf-8")


def make_tensor_proto(values, dtype=None, shape=None):
    """`values` (an array, a nested list or a scalar) as a TensorProto: strings in string_val, numbers as raw
    little-endian bytes in tensor_content (TF1's tf.make_tensor_proto)."""
    array = np.asarray(values, dtype=None if dtype is None or as_dtype(dtype).name == "string"
                       else as_dtype(dtype).as_numpy_dtype)
    if shape is not None:
        array = np.broadcast_to(array, TensorShape(shape).as_list()) if array.size == 1 else array.reshape(shape)
    proto = TensorProto(tensor_shape=TensorShape(array.shape).as_proto())
    if array.dtype.kind in "OSU":
        proto.dtype = _STRING
        proto.string_val.extend(_as_bytes(x) for x in array.ravel().tolist())
        return proto
    try:
        proto.dtype = as_dtype(array.dtype).as_datatype_enum
    except (TypeError, KeyError):
        raise TypeError(f"No TensorProto dtype for {array.dtype.name}; use one of {sorted(DATA_TYPE_NAMES.values())}") \
            from None
    proto.tensor_content = array.astype(array.dtype.newbyteorder("<")).tobytes()
    return proto


def make_ndarray(tensor):
    """A TensorProto's value as a numpy array (TF1's tf.make_ndarray)."""
    shape = TensorShape(tensor.tensor_shape).as_list()
    if tensor.dtype == _STRING:
        return np.array(list(tensor.string_val), dtype=object).reshape(shape)
    dtype = as_dtype(tensor.dtype).as_numpy_dtype
    if tensor.tensor_content:
        return np.frombuffer(tensor.tensor_content, np.dtype(dtype).newbyteorder("<")).astype(dtype).reshape(shape)
    values = next((v for v in (tensor.float_val, tensor.double_val, tensor.int_val, tensor.int64_val,
                               tensor.bool_val) if v), [])
    size = int(np.prod(shape))
    if len(values) < size:  # the last value repeats, as TF fills a tensor from fewer values
        values = list(values) + [values[-1] if values else 0] * (size - len(values))
    return np.array(values, dtype=dtype).reshape(shape)
