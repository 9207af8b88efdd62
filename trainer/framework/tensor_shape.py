"""TF1's TensorShape and Dimension: static shapes that also behave as tuples of int/None.

A TensorShape is a tuple of its dims (int, or None where unknown), so engine code reads it as a tuple;
indexing and iteration give TF1's Dimension objects so programs can write `x.get_shape()[1].value`.
A known Dimension is an int; the unknown one compares equal to None (TF1 answers None there instead).
"""
from ..platform.protobuf import Field, Message


class TensorShapeProto(Message):
    """TF's tensor_shape.proto: the dims (size -1 where unknown), or unknown_rank."""

    class Dim(Message):
        FIELDS = {"size": Field(1, "int64"), "name": Field(2, "string")}

    FIELDS = {"dim": Field(2, "message", Dim, repeated=True), "unknown_rank": Field(3, "bool")}



class Dimension:
    """One dimension of a static shape; `.value` is its int size, or None when unknown."""

    __slots__ = ()

    def __new__(cls, value=None):
        if isinstance(value, Dimension):
            value = value.value
        if value is None:
            return _UNKNOWN
        if int(value) != value or value < 0:
            raise ValueError(f"Dimension {value!r} must be an int >= 0 (or None for unknown)")
        return _Known(value)

    value = None

    def __eq__(self, other):
        return dimension_value(other) is None

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(None)

    def __bool__(self):
        return False

    def __int__(self):
        raise TypeError("Cannot convert an unknown Dimension to an int: its size is only known at run time; "
                        "use tg.shape(x) for the dynamic shape")

    __index__ = __int__

    def __unknown(self, other):
        return self

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __unknown
    __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = __unknown

    def __lt__(self, other):
        return None

    __le__ = __gt__ = __ge__ = __lt__

    def is_compatible_with(self, other):
        """True when both are known and equal, or either is unknown."""
        other = as_dimension(other)
        return self.value is None or other.value is None or self.value == other.value

    def assert_is_compatible_with(self, other):
        if not self.is_compatible_with(other):
            raise ValueError(f"Dimensions {self} and {as_dimension(other)} are not compatible")

    def merge_with(self, other):
        """The dimension that is known wherever either is; ValueError if they conflict."""
        self.assert_is_compatible_with(other)
        return self if self.value is not None else as_dimension(other)

    def __repr__(self):
        return f"Dimension({self.value})"

    def __str__(self):
        return "?" if self.value is None else str(self.value)


class _Known(int, Dimension):
    """A known dimension: an int, with TF1's `.value` and Dimension-valued arithmetic."""

    __slots__ = ()

    def __new__(cls, value):
        return int.__new__(cls, value)

    def __reduce__(self):
        return int, (int(self),)  # pickled (e.g. sent between ranks) as the plain int

    @property
    def value(self):
        return int(self)

    __eq__, __ne__, __hash__, __int__, __index__ = int.__eq__, int.__ne__, int.__hash__, int.__int__, int.__index__
    __lt__, __le__, __gt__, __ge__ = int.__lt__, int.__le__, int.__gt__, int.__ge__

    def __bool__(self):
        return int(self) != 0

    # Printed as the plain int, so tuples of dims read (3, None) in messages, not (Dimension(3), None).
    __repr__ = __str__ = int.__repr__


def _arithmetic(name):
    def method(self, other):
        other = dimension_value(other)
        if other is None:
            return _UNKNOWN
        if not isinstance(other, int):
            return NotImplemented
        return _Known(getattr(int, name)(int(self), other))
    method.__name__ = name
    return method


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__floordiv__",
              "__rfloordiv__", "__mod__", "__rmod__"):
    setattr(_Known, _name, _arithmetic(_name))

_UNKNOWN = object.__new__(Dimension)


def dimension_value(dimension):
    """The int (or None) a Dimension, int or None stands for (tf.compat.dimension_value)."""
    return dimension.value if isinstance(dimension, Dimension) else dimension


def as_dimension(value):
    return value if isinstance(value, Dimension) else Dimension(value)


class TensorShape(tuple):
    """A static shape: a tuple of dims (int or None); TensorShape(None) has unknown rank."""

    def __new__(cls, dims=None):
        if isinstance(dims, TensorShape):
            return dims
        if isinstance(dims, TensorShapeProto):
            dims = None if dims.unknown_rank else [d.size for d in dims.dim]
        if dims is None:
            shape = tuple.__new__(cls, ())
            shape._known_rank = False
            return shape
        if isinstance(dims, (int, Dimension)):
            dims = (dims,)
        try:
            values = tuple(dimension_value(d) for d in dims)
        except TypeError:
            raise TypeError(f"A shape is a list of ints or None, got {dims!r}") from None
        values = tuple(None if d is None or d == -1 else _dim_int(d, dims) for d in values)
        shape = tuple.__new__(cls, values)
        shape._known_rank = True
        return shape

    def __getnewargs__(self):
        return (self.as_list() if self._known_rank else None,)

    # --- TF1's properties -------------------------------------------------------------------------
    @property
    def ndims(self):
        return tuple.__len__(self) if self._known_rank else None

    rank = ndims

    @property
    def dims(self):
        return [Dimension(d) for d in tuple.__iter__(self)] if self._known_rank else None

    def as_list(self):
        """The dims as a list of int/None; ValueError when the rank is unknown."""
        if not self._known_rank:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(tuple.__iter__(self))

    def as_proto(self):
        """This shape as a TensorShapeProto (-1 for an unknown dim)."""
        if not self._known_rank:
            return TensorShapeProto(unknown_rank=True)
        return TensorShapeProto(dim=[TensorShapeProto.Dim(size=-1 if d is None else d) for d in tuple.__iter__(self)])

    def is_fully_defined(self):
        return self._known_rank and not tuple.__contains__(self, None)

    def assert_is_fully_defined(self):
        if not self.is_fully_defined():
            raise ValueError(f"Shape {self} is not fully defined")

    def num_elements(self):
        """The number of elements, or None unless the shape is fully defined."""
        if not self.is_fully_defined():
            return None
        n = 1
        for d in tuple.__iter__(self):
            n *= d
        return n

    # --- combining shapes -------------------------------------------------------------------------
    def is_compatible_with(self, other):
        """True when some actual shape could match both (unknown rank and unknown dims match anything)."""
        other = as_shape(other)
        if not self._known_rank or not other._known_rank:
            return True
        return self.ndims == other.ndims and all(
            a is None or b is None or a == b for a, b in zip(tuple.__iter__(self), tuple.__iter__(other)))

    def assert_is_compatible_with(self, other):
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {as_shape(other)} are incompatible")

    def merge_with(self, other):
        """The shape known wherever either is; ValueError when they conflict."""
        other = as_shape(other)
        if not self._known_rank:
            return other
        if not other._known_rank:
            return self
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        return TensorShape([a if a is not None else b for a, b in zip(tuple.__iter__(self), tuple.__iter__(other))])

    def concatenate(self, other):
        other = as_shape(other)
        if not self._known_rank or not other._known_rank:
            return unknown_shape()
        return TensorShape(tuple(tuple.__iter__(self)) + tuple(tuple.__iter__(other)))

    def with_rank(self, rank):
        """This shape merged with an unknown shape of `rank` dims; ValueError if the rank differs."""
        try:
            return self.merge_with(unknown_shape(rank))
        except ValueError:
            raise ValueError(f"Shape {self} must have rank {rank}") from None

    def with_rank_at_least(self, rank):
        if self._known_rank and self.ndims < rank:
            raise ValueError(f"Shape {self} must have rank at least {rank}")
        return self

    def with_rank_at_most(self, rank):
        if self._known_rank and self.ndims > rank:
            raise ValueError(f"Shape {self} must have rank at most {rank}")
        return self

    # --- sequence and comparison --------------------------------------------------------------------
    def __len__(self):
        if not self._known_rank:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return tuple.__len__(self)

    def __bool__(self):
        return self._known_rank

    def __iter__(self):
        if not self._known_rank:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return (None if d is None else _Known(d) for d in tuple.__iter__(self))

    def __getitem__(self, key):
        if not self._known_rank:
            return unknown_shape() if isinstance(key, slice) else _UNKNOWN
        if isinstance(key, slice):
            return TensorShape(tuple.__getitem__(self, key))
        return Dimension(tuple.__getitem__(self, key))

    def __add__(self, other):
        return self.concatenate(other)

    def __radd__(self, other):
        return as_shape(other).concatenate(self)

    def __eq__(self, other):
        if isinstance(other, TensorShape):
            return self._known_rank == other._known_rank and tuple.__eq__(self, other)
        if other is None:
            return not self._known_rank
        if isinstance(other, (tuple, list)) and self._known_rank:
            return tuple.__eq__(self, tuple(dimension_value(d) for d in other))
        return False

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return tuple.__hash__(self) if self._known_rank else hash(None)

    def __repr__(self):
        if not self._known_rank:
            return "TensorShape(None)"
        return "TensorShape([" + ", ".join(f"Dimension({d})" for d in tuple.__iter__(self)) + "])"

    def __str__(self):
        if not self._known_rank:
            return "<unknown>"
        dims = ", ".join("?" if d is None else str(d) for d in tuple.__iter__(self))
        return f"({dims},)" if tuple.__len__(self) == 1 else f"({dims})"


def _dim_int(d, dims):
    try:
        value = int(d)
    except (TypeError, ValueError):
        raise TypeError(f"A shape is a list of ints or None, got {dims!r}") from None
    if value != d or value < 0:
        raise ValueError(f"Dimensions are ints >= 0 (or -1/None for unknown), got {d!r} in {dims!r}")
    return value


def as_shape(shape):
    """`shape` (a TensorShape, a list/tuple of dims, an int or None) as a TensorShape."""
    return TensorShape(shape)


def unknown_shape(rank=None, ndims=None):
    """A shape of unknown rank, or of `rank` unknown dims."""
    rank = ndims if rank is None else rank
    return TensorShape(None) if rank is None else TensorShape([None] * rank)


def scalar():
    return TensorShape([])


def dimension_at_index(shape, index):
    """The Dimension of `shape` at `index`, unknown when the rank is unknown (TF1's tf.dimension_at_index)."""
    shape = as_shape(shape)
    if shape.ndims is None:
        return Dimension(None)
    return as_dimension(shape.dims[index])
