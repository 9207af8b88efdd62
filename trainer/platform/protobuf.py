"""Protocol-buffer messages without the protobuf package: the one Message base of every message ringflow builds
(the session's ConfigProto and RunMetadata, NodeDef and GraphDef, the event files' Event and Summary).

A message class declares its fields once, `FIELDS = {name: Field(number, kind, ...)}` with TensorFlow's field
numbers; construction, type checks, the proto3 wire format (SerializeToString, FromString: what TensorBoard and
protobuf read), the text format (str()) and equality follow from that table. As protobuf's Python messages: an
unknown field is a ValueError in the constructor and an AttributeError in an assignment, a mistyped value a
TypeError; composite fields (messages, repeated fields, maps) change in place, nested messages from a message or
a dict, repeated ones with .add()/.append()/.extend(), maps as dicts.
"""
import copy
import numbers
import struct

import numpy as np

from .protobuf_wire import LENGTH, WIRE, decode_values, encode_scalar, encode_varint, read_field, round_float

_DEFAULTS = {"double": 0.0, "float": 0.0, "int32": 0, "int64": 0, "uint32": 0, "uint64": 0, "enum": 0,
             "bool": False, "string": "", "bytes": b"", "fixed32": 0, "fixed64": 0}
_INTEGERS = ("int32", "int64", "uint32", "uint64", "enum", "fixed32", "fixed64")


class Field:
    """One field: its number and kind, a scalar type ("int64", "string", ...), "message" (`message` is its class),
    "map" (`key` a scalar kind, `message` the value's kind or class) or "any" (a value ringflow keeps without
    reading or writing it: cluster_def, rewrite_options, ...); `names` gives an enum's values their names."""

    def __init__(self, number, kind, message=None, repeated=False, oneof=None, key=None, names=None):
        self.number, self.kind, self.message, self.repeated, self.oneof = number, kind, message, repeated, oneof
        self.key, self.names = key, names


def _checked(where, kind, value, cls=None):
    """`value` as a field of `kind` stores it (a float rounded to float32, as protobuf does), or TypeError."""
    if kind == "any":
        return value
    if kind == "message":
        value = cls(**value) if isinstance(value, dict) else value
        if not isinstance(value, cls):
            raise TypeError(f"{where} takes a {cls.__name__}, got {value!r}")
        return value
    if kind == "string" and isinstance(value, bytes):
        value = value.decode("utf-8")
    if kind == "bool":
        ok = isinstance(value, (bool, np.bool_, numbers.Integral))
    elif kind in _INTEGERS:
        ok = isinstance(value, numbers.Integral)
    elif kind in ("float", "double"):
        ok = isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))
    else:
        ok = isinstance(value, (bytes, bytearray) if kind == "bytes" else str)
    if not ok:
        raise TypeError(f"{value!r} has type {type(value).__name__}, but {where} takes a {kind}" +
                        ("; encode it first" if kind == "bytes" and isinstance(value, str) else ""))
    if kind == "float":
        return round_float(float(value))
    return {"double": float, "bool": bool, "bytes": bytes, "string": str}.get(kind, int)(value)


def _array_items(kind, values):
    """A 1-D numeric array's items as a repeated `kind` field stores them, checked once by the array's dtype (a
    histogram's thousands of bucket limits), or None where items must be checked one by one."""
    if not isinstance(values, np.ndarray) or values.ndim != 1:
        return None
    dtype = values.dtype
    if kind == "double" and dtype.kind in "fiu":
        return values.astype(np.float64).tolist()
    if kind == "float" and dtype.kind == "f" and dtype.itemsize <= 4:
        return values.astype(np.float64).tolist()  # exact: float32 holds every such value
    if kind in _INTEGERS and dtype.kind in "iu":
        return values.tolist()
    if kind == "bool" and dtype.kind in "biu":
        return values.astype(bool).tolist()
    return None


class Repeated(list):
    """A repeated field's value: items are checked as they come; `.add(**fields)` appends a new message item."""

    def __init__(self, where, field, values=()):
        super().__init__()
        self.where, self.field = where, field
        self.extend(values)

    def _item(self, value):
        return _checked(self.where, self.field.kind, value, self.field.message)

    def add(self, **fields):
        if self.field.kind != "message":
            raise TypeError(f"add() builds message items; append() a value to the scalar repeated field {self.where}")
        self.append(self.field.message(**fields))
        return self[-1]

    def append(self, value):
        super().append(self._item(value))

    def extend(self, values):
        items = _array_items(self.field.kind, values)
        super().extend(items if items is not None else (self._item(v) for v in values))

    def insert(self, index, value):
        super().insert(index, self._item(value))


def _copied(value, memo):
    if isinstance(value, Message):
        return value.__deepcopy__(memo)
    if isinstance(value, Repeated):
        items = Repeated.__new__(Repeated)
        scalars = value.field.kind not in ("message", "any")  # checked scalars are immutable: shared, not copied
        list.__init__(items, value if scalars else [_copied(v, memo) for v in value])
        items.where, items.field = value.where, value.field
        return items
    if isinstance(value, dict):
        return {k: _copied(v, memo) for k, v in value.items()}
    return value if isinstance(value, (str, bytes, int, float, bool, type(None))) else copy.deepcopy(value, memo)


class Message:
    """Base of the declared messages; subclasses list FIELDS = {name: Field(number, kind, ...)}."""

    FIELDS = {}

    def __init__(self, **fields):
        object.__setattr__(self, "_values", {})
        object.__setattr__(self, "_lazy", {})  # unset message fields that were read, kept so writes into them stay
        for name, value in fields.items():
            if name not in self.FIELDS:
                raise ValueError(f"Protocol message {type(self).__name__} has no {name!r} field; its fields are "
                                 f"{sorted(self.FIELDS)}")
            if value is None:
                continue
            field = self.FIELDS[name]
            if field.repeated:
                getattr(self, name).extend(value)
            elif field.kind == "map":
                self._merge_map(name, value.items())
            elif field.kind == "message":
                self._set(name, copy.deepcopy(_checked(self._where(name), "message", value, field.message)))
            else:
                self._set(name, value)

    def _where(self, name):
        return f"{type(self).__name__}.{name}"

    def __deepcopy__(self, memo):
        # Fields hold checked values: immutable scalars, messages, Repeated lists and maps of them. Copying only
        # what is mutable is several times faster than copy's generic path, and a message field's value is
        # copied whenever it is set (as protobuf does).
        new = object.__new__(type(self))
        object.__setattr__(new, "_values", {k: _copied(v, memo) for k, v in self._values.items()})
        object.__setattr__(new, "_lazy", {k: _copied(v, memo) for k, v in self._lazy.items()})
        return new

    @classmethod
    def _field(cls, name):
        try:
            return cls.FIELDS[name]
        except KeyError:
            raise AttributeError(f"{cls.__name__} has no field {name!r}; its fields are {sorted(cls.FIELDS)}") from None

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        field = self._field(name)
        if field.repeated:
            return self._values.setdefault(name, Repeated(self._where(name), field))
        if field.kind == "map":
            return self._values.setdefault(name, {})
        if name in self._values:
            return self._values[name]
        if field.kind == "message":
            return self._lazy.setdefault(name, field.message())
        return None if field.kind == "any" else _DEFAULTS[field.kind]

    def __setattr__(self, name, value):
        field = self.FIELDS.get(name)
        if field is None:
            raise AttributeError(f"Assignment not allowed (no field {name!r} in protocol message "
                                 f"{type(self).__name__}); its fields are {sorted(self.FIELDS)}")
        if field.repeated or field.kind in ("message", "map"):
            raise AttributeError(f"Assignment not allowed to composite field {name!r} of {type(self).__name__}: "
                                 f"set its fields, or use .CopyFrom() / .add() / .extend() / .update()")
        self._set(name, value)

    def _set(self, name, value):
        field = self.FIELDS[name]
        if field.oneof:
            for other, f in self.FIELDS.items():
                if f.oneof == field.oneof:
                    self._values.pop(other, None)
                    self._lazy.pop(other, None)
        self._lazy.pop(name, None)
        self._values[name] = _checked(self._where(name), field.kind, value, field.message)

    def _merge_map(self, name, items):
        field, target = self.FIELDS[name], getattr(self, name)
        value_kind = "message" if isinstance(field.message, type) else field.message
        for key, value in items:
            target[_checked(f"{self._where(name)} key", field.key, key)] = \
                _checked(self._where(name), value_kind, value, field.message)

    def HasField(self, name):  # noqa: N802  (protobuf's method names)
        """Whether a message field is set (or any of its fields is), or a scalar differs from its default."""
        field = self._field(name)
        if field.repeated or field.kind == "map":
            raise ValueError(f"HasField does not apply to the repeated field {name!r}: use len()")
        value = self._values.get(name)
        if field.kind == "message":
            return value is not None or (name in self._lazy and bool(self._lazy[name].ListFields()))
        return value is not None and (field.oneof is not None or field.kind == "any" or
                                      value != _DEFAULTS[field.kind])

    def WhichOneof(self, group):  # noqa: N802
        names = [n for n, f in self.FIELDS.items() if f.oneof == group]
        if not names:
            raise ValueError(f"{type(self).__name__} has no oneof {group!r}")
        return next((n for n in names if self.HasField(n)), None)

    def ClearField(self, name):  # noqa: N802
        self._field(name)
        self._values.pop(name, None)
        self._lazy.pop(name, None)

    def Clear(self):  # noqa: N802
        self._values.clear()
        self._lazy.clear()

    def CopyFrom(self, other):  # noqa: N802
        """Make this message a copy of other (same type)."""
        if type(other) is not type(self):
            raise TypeError(f"{type(self).__name__}.CopyFrom needs a {type(self).__name__}, got {other!r}")
        if other is not self:
            object.__setattr__(self, "_values", copy.deepcopy(other._values))
            object.__setattr__(self, "_lazy", copy.deepcopy(other._lazy))

    def ListFields(self):  # noqa: N802
        """(name, value) of the fields that are set, in field-number order."""
        found = []
        for name, field in sorted(self.FIELDS.items(), key=lambda item: item[1].number):
            if field.repeated or field.kind == "map":
                if self._values.get(name):
                    found.append((name, self._values[name]))
            elif self.HasField(name):
                found.append((name, self._values.get(name, self._lazy.get(name))))
        return found

    def SerializeToString(self):  # noqa: N802
        out = bytearray()
        for name, value in self.ListFields():
            field = self.FIELDS[name]
            if field.kind == "any":
                continue  # kept for the program that set it; ringflow has no schema to write it with
            if field.kind == "map":
                for key in sorted(value):
                    entry = _encode(1, field.key, key) + _encode(2, _value_kind(field), value[key])
                    out += encode_varint(field.number << 3 | LENGTH) + encode_varint(len(entry)) + entry
            elif field.repeated and WIRE[field.kind] != LENGTH:  # proto3 packs repeated numbers
                body = struct.pack(f"<{len(value)}d", *value) if field.kind == "double" else \
                    b"".join(encode_scalar(field.kind, v) for v in value)  # doubles in one call: histograms' buckets
                out += encode_varint(field.number << 3 | LENGTH) + encode_varint(len(body)) + body
            else:
                for v in value if field.repeated else [value]:
                    out += _encode(field.number, field.kind, v)
        return bytes(out)

    def MergeFromString(self, data):  # noqa: N802
        data, pos = bytes(data), 0
        by_number = {f.number: (n, f) for n, f in self.FIELDS.items()}
        while pos < len(data):
            number, wire, raw, pos = read_field(data, pos)
            name, field = by_number.get(number, (None, None))
            if field is None or field.kind == "any":
                continue  # unknown fields are skipped, as protobuf readers do
            if field.kind == "map":
                entry = _decode_entry(field, raw)
                self._merge_map(name, [(entry.get(1, _DEFAULTS[field.key]), entry.get(2, _map_default(field)))])
                continue
            values = decode_values(field.kind, wire, raw, field.message)
            if field.repeated:
                getattr(self, name).extend(values)
            elif field.kind == "message" and self.HasField(name):
                getattr(self, name).MergeFromString(raw)
            else:
                self._set(name, values[-1])
        return len(data)

    def ParseFromString(self, data):  # noqa: N802
        self.Clear()
        return self.MergeFromString(data)

    @classmethod
    def FromString(cls, data):  # noqa: N802
        message = cls()
        message.MergeFromString(data)
        return message

    def __eq__(self, other):
        return type(other) is type(self) and self.ListFields() == other.ListFields()

    __hash__ = None

    def __str__(self):
        """The protobuf text format of the set fields (maps by key, as protobuf prints them)."""
        return self.to_text()

    def to_text(self, float_format=None):
        """The protobuf text format, as protobuf's text_format.MessageToString(self, float_format=...) writes it:
        float_format="" prints floats as Python's str() of their value (TF's write_graph does so)."""
        lines = []
        for name, value in self.ListFields():
            field = self.FIELDS[name]
            if field.kind == "map":
                for key in sorted(value):
                    entry = f"key: {_text(field.key, key)}\n" + _text_field("value", _value_kind(field), value[key],
                                                                            float_format=float_format)
                    lines.append(f"{name} {{\n{_indent(entry)}}}\n")
                continue
            for v in value if field.repeated else [value]:
                lines.append(_text_field(name, field.kind, v, field.names, float_format))
        return "".join(lines)

    __repr__ = __str__


def _value_kind(field):
    return "message" if isinstance(field.message, type) else field.message


def _map_default(field):
    return field.message() if isinstance(field.message, type) else _DEFAULTS[field.message]


def _encode(number, kind, value):
    return encode_varint(number << 3 | WIRE[kind]) + encode_scalar(kind, value)


def _decode_entry(field, raw):
    entry, pos = {}, 0
    while pos < len(raw):
        number, wire, value, pos = read_field(raw, pos)
        if number in (1, 2):
            kind = field.key if number == 1 else _value_kind(field)
            entry[number] = decode_values(kind, wire, value, field.message)[-1]
    return entry


def _indent(text):
    return "".join(f"  {line}\n" for line in text.splitlines())


def _text_field(name, kind, value, names=None, float_format=None):
    if isinstance(value, Message):
        return f"{name} {{\n{_indent(value.to_text(float_format))}}}\n"
    return f"{name}: {_text(kind, value, names, float_format)}\n"


_ESCAPES = {ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t", ord('"'): '\\"', ord("'"): "\\'",
            ord("\\"): "\\\\"}


def _text(kind, value, names=None, float_format=None):
    """A value as protobuf's text format prints it: shortest digits that read back (or `format(value,
    float_format)`), C escapes of the UTF-8 bytes (TF1-era protobuf's default), enum values by name."""
    if kind == "bool":
        return str(bool(value)).lower()
    if kind == "enum" and names and value in names:
        return names[value]
    if kind in ("float", "double") and float_format is not None:
        return format(float(value), float_format)
    if kind in ("float", "double"):
        digits, more = (6, 9) if kind == "float" else (15, 17)
        short = f"{value:.{digits}g}"
        same = round_float(float(short)) == value if kind == "float" else float(short) == value
        return short if same else f"{value:.{more}g}"
    if kind in ("string", "bytes"):
        raw = value.encode("utf-8") if isinstance(value, str) else value
        return '"' + "".join(_ESCAPES.get(b, chr(b) if 32 <= b < 127 else f"\\{b:03o}") for b in raw) + '"'
    return str(value)
