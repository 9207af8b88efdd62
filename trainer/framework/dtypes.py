"""TF1's dtypes (tg.float32, ...) as DType objects that numpy accepts wherever it takes a dtype.

numpy cannot subclass np.dtype, so a DType carries its numpy dtype in `.dtype`: numpy reads that attribute
(np.zeros(2, tg.float32), x.astype(tg.int64), np.dtype(tg.float32)), a DType compares and hashes equal to its
numpy dtype (tg.float32 == np.float32), and other numpy dtype attributes (.kind, .itemsize) are forwarded.
"""
import numpy as np

# TF1's DataType enum values (types.proto), for as_datatype_enum.
_ENUMS = {"float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6, "string": 7, "complex64": 8,
          "int64": 9, "bool": 10, "qint8": 11, "quint8": 12, "qint32": 13, "bfloat16": 14, "qint16": 15, "quint16": 16,
          "uint16": 17, "complex128": 18, "float16": 19, "resource": 20, "variant": 21, "uint32": 22, "uint64": 23}
_HANDLES = ("resource", "variant")  # handles to a runtime object: no numbers, no numpy equivalent


class DType:
    """A TF1 dtype: `.name`, `.as_numpy_dtype`, `.is_floating`, `.is_integer`, `.max`/`.min`, ..."""

    def __init__(self, name, numpy_dtype):
        self._name, self._numpy = name, numpy_dtype

    @property
    def dtype(self):
        """The numpy dtype (numpy reads this attribute to accept a DType as a dtype)."""
        if self._numpy is None:
            return _bfloat16_numpy()
        return self._numpy

    @property
    def name(self):
        return self._name

    @property
    def as_numpy_dtype(self):
        """The numpy scalar type, as TF1 gives it (np.float32 for tg.float32; the record dtype for quantized ones)."""
        return self.dtype if self.is_quantized else self.dtype.type

    @property
    def base_dtype(self):
        return self

    @property
    def real_dtype(self):
        return {"complex64": float32, "complex128": float64}.get(self._name, self)

    @property
    def as_datatype_enum(self):
        return _ENUMS[self._name]

    @property
    def is_floating(self):
        return self._name in ("float16", "bfloat16", "float32", "float64")

    @property
    def is_integer(self):
        return self._name != "bfloat16" and not self.is_quantized and self.dtype.kind in "iu"

    @property
    def is_unsigned(self):
        return self._name != "bfloat16" and self.dtype.kind == "u"

    @property
    def is_complex(self):
        return self.dtype.kind == "c"

    @property
    def is_bool(self):
        return self._name == "bool"

    @property
    def is_quantized(self):
        return self._name in _QUANTIZED

    @property
    def is_numpy_compatible(self):
        return self._numpy is not None and self._name not in _HANDLES

    @property
    def size(self):
        return 0 if self._name in _HANDLES else self.dtype.itemsize

    @property
    def min(self):
        """The smallest value of the dtype (TF1 raises TypeError for bool, string and complex)."""
        return self._limits()[0]

    @property
    def max(self):
        return self._limits()[1]

    @property
    def limits(self):
        return self._limits()

    def _limits(self):
        if self._name in ("bool", "string") + _HANDLES or self.is_complex or self.is_quantized:
            raise TypeError(f"Cannot find the minimum or maximum value of {self!r}: it is not a real number type")
        info = np.finfo(self.dtype) if self.is_floating else np.iinfo(self.dtype)
        return info.min, info.max

    def is_compatible_with(self, other):
        return self == other

    def __getattr__(self, attr):
        # Whatever else numpy dtypes offer (.kind, .itemsize, .type, .char, .str).
        if attr.startswith("__"):
            raise AttributeError(attr)
        return getattr(self.dtype, attr)

    def __eq__(self, other):
        if other is None:
            return False
        try:
            other = as_dtype(other)
        except TypeError:
            return NotImplemented
        return self._name == other._name

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self):
        return hash(self._numpy) if self._numpy is not None else hash("bfloat16")

    def __reduce__(self):
        return as_dtype, (self._name,)

    def __repr__(self):
        return f"tf.{self._name}"

    def __str__(self):
        return f"<dtype: {self._name!r}>"


def _bfloat16_numpy():
    try:
        import ml_dtypes
    except ImportError:
        raise TypeError("tg.bfloat16 has no numpy equivalent here: numpy has no bfloat16 type. "
                        "Install the ml_dtypes package to compute in bfloat16, or use tg.float16 / tg.float32") \
            from None
    return np.dtype(ml_dtypes.bfloat16)


float16 = half = DType("float16", np.dtype(np.float16))
float32 = DType("float32", np.dtype(np.float32))
float64 = double = DType("float64", np.dtype(np.float64))
bfloat16 = DType("bfloat16", None)
int8 = DType("int8", np.dtype(np.int8))
int16 = DType("int16", np.dtype(np.int16))
int32 = DType("int32", np.dtype(np.int32))
int64 = DType("int64", np.dtype(np.int64))
uint8 = DType("uint8", np.dtype(np.uint8))
uint16 = DType("uint16", np.dtype(np.uint16))
uint32 = DType("uint32", np.dtype(np.uint32))
uint64 = DType("uint64", np.dtype(np.uint64))
complex64 = DType("complex64", np.dtype(np.complex64))
complex128 = DType("complex128", np.dtype(np.complex128))
bool = DType("bool", np.dtype(np.bool_))  # noqa: A001 - TF1's name
string = DType("string", np.dtype(object))  # TF1's tf.string: elements are Python bytes
# TF1's quantized types are its integers under another name: a one-field record dtype, as TF's own numpy types
_QUANTIZED = {"qint8": np.int8, "quint8": np.uint8, "qint16": np.int16, "quint16": np.uint16, "qint32": np.int32}
qint8, quint8, qint16, quint16, qint32 = (DType(name, np.dtype([(name, base)])) for name, base in _QUANTIZED.items())
QUANTIZED_DTYPES = frozenset([qint8, quint8, qint16, quint16, qint32])
resource = DType("resource", np.dtype(object))
variant = DType("variant", np.dtype(object))

_BY_NAME = {d.name: d for d in [float16, float32, float64, bfloat16, int8, int16, int32, int64, uint8, uint16,
                                uint32, uint64, complex64, complex128, bool, string, qint8, quint8, qint16, quint16,
                                qint32, resource, variant]}
_BY_NAME.update({"float": float32, "double": float64, "half": float16, "int": int32, "long": int64})
_BY_NUMPY = {d._numpy: d for d in _BY_NAME.values() if d._numpy is not None and d.name not in _HANDLES}
_BY_ENUM = {enum: name for name, enum in _ENUMS.items()}


def as_dtype(dtype):
    """The DType for a DType, a numpy dtype or type, a name such as "float32" or TF1's "float", or TF1's DataType
    enum value (1 is float32: what a NodeDef's attr holds)."""
    if isinstance(dtype, DType):
        return dtype
    if isinstance(dtype, str) and dtype in _BY_NAME:
        return _BY_NAME[dtype]
    if isinstance(dtype, (int, np.integer)) and not isinstance(dtype, type(True)) and int(dtype) in _BY_ENUM:
        return _BY_NAME[_BY_ENUM[int(dtype)]]
    if dtype is None:
        raise TypeError("Cannot interpret None as a dtype; use tg.float32, tg.int32, ... or a numpy dtype")
    try:
        numpy_dtype = np.dtype(dtype)
    except TypeError:
        raise TypeError(f"Cannot interpret {dtype!r} as a dtype; use tg.float32, tg.int32, ... or a numpy dtype") \
            from None
    if numpy_dtype.kind in "SU":  # numpy's fixed-width strings are TF1's tf.string
        return string
    try:
        return _BY_NUMPY[numpy_dtype]
    except KeyError:
        if numpy_dtype.name == "bfloat16":
            return bfloat16
        raise TypeError(f"numpy dtype {numpy_dtype!r} has no TF1 equivalent; known: {sorted(_BY_NAME)}") from None


def default_dtype_for(value):
    """TF1's rule for Python values: floats become float32, ints int32 (int64 when one does not fit in int32); numpy
    arrays keep their dtype."""
    if isinstance(value, np.ndarray) or isinstance(value, np.generic):
        return as_dtype(value.dtype)
    array = np.asarray(value)
    if array.dtype == np.float64:
        return float32
    if array.dtype == np.int64:
        info = np.iinfo(np.int32)
        return int32 if array.size == 0 or info.min <= array.min() and array.max() <= info.max else int64
    return as_dtype(array.dtype)
