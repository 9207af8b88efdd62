"""A small protobuf (proto3) wire-format codec: enough for the event, summary and graph messages.

Messages declare their fields once (`FIELDS`); encoding, decoding, text printing and equality follow
from that table, so TensorBoard's files are written without the protobuf package.
"""
import math
import struct

VARINT, FIXED64, LENGTH, FIXED32 = 0, 1, 2, 5
_KIND_WIRE = {"double": FIXED64, "float": FIXED32, "int32": VARINT, "int64": VARINT, "enum": VARINT,
              "bool": VARINT, "string": LENGTH, "bytes": LENGTH, "message": LENGTH}
_DEFAULTS = {"double": 0.0, "float": 0.0, "int32": 0, "int64": 0, "enum": 0, "bool": False, "string": "",
             "bytes": b""}


class Field:
    """One field: its number, kind (a proto scalar type or "message"), and oneof group if any."""

    def __init__(self, number, kind, message=None, repeated=False, oneof=None):
        self.number, self.kind, self.message, self.repeated, self.oneof = number, kind, message, repeated, oneof


def encode_varint(value):
    value &= (1 << 64) - 1  # negative ints take ten bytes, as protobuf writes them
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def decode_varint(data, pos):
    result = shift = 0
    while True:
        if pos >= len(data):
            raise ValueError(f"Truncated varint at byte {pos} of a {len(data)}-byte message")
        byte = data[pos]
        result |= (byte & 0x7F) << shift
        pos += 1
        if not byte & 0x80:
            return result, pos
        shift += 7


def _encode_scalar(kind, value):
    if kind == "double":
        return struct.pack("<d", value)
    if kind == "float":
        return _pack_float(value)
    if kind in ("int32", "int64", "enum", "bool"):
        return encode_varint(int(value))
    raw = value.encode("utf-8") if kind == "string" else value.SerializeToString() if kind == "message" else value
    return encode_varint(len(raw)) + raw


def _pack_float(value):
    try:
        return struct.pack("<f", value)
    except OverflowError:  # beyond float32's range: infinity, as a C++ float conversion gives
        return struct.pack("<f", math.copysign(math.inf, value))


def _coerce(field, name, value):
    kind = field.kind
    if kind == "message":
        if not isinstance(value, field.message):
            raise TypeError(f"Field {name!r} takes a {field.message.__name__}, got {value!r}")
        return value
    if kind == "string":
        return value.decode("utf-8") if isinstance(value, bytes) else str(value)
    if kind == "bytes":
        if isinstance(value, str):
            raise TypeError(f"Field {name!r} takes bytes, got the str {value!r}; encode it first")
        return bytes(value)
    if kind == "float":  # stored as read back: rounded to float32, as protobuf does
        return struct.unpack("<f", _pack_float(float(value)))[0]
    if kind == "double":
        return float(value)
    return bool(value) if kind == "bool" else int(value)


class Repeated(list):
    """A repeated field; `.add(**fields)` appends a new message, as protobuf's containers do."""

    def __init__(self, field, name, values=()):
        super().__init__(_coerce(field, name, v) for v in values)
        self._field, self._name = field, name

    def add(self, **fields):
        item = self._field.message(**fields)
        self.append(item)
        return item

    def append(self, value):
        super().append(_coerce(self._field, self._name, value))

    def extend(self, values):
        super().extend(_coerce(self._field, self._name, v) for v in values)


class Message:
    """Base of the declared messages: keyword construction, SerializeToString and FromString."""

    FIELDS = {}

    def __init__(self, **fields):
        object.__setattr__(self, "_values", {})
        object.__setattr__(self, "_lazy", {})  # unset message fields the user has read
        for name, value in fields.items():
            if value is None:
                continue
            if self._field(name).repeated:
                getattr(self, name).extend(value)
            else:
                setattr(self, name, value)

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
            return self._values.setdefault(name, Repeated(field, name))
        if name in self._values:
            return self._values[name]
        if field.kind == "message":  # unset: a default instance, kept so that assigning into it works
            return self._lazy.setdefault(name, field.message())
        return _DEFAULTS[field.kind]

    def __setattr__(self, name, value):
        field = self._field(name)
        if field.repeated:
            raise AttributeError(f"Assignment not allowed to repeated field {name!r}: use .extend() or .add()")
        if field.oneof:
            for other, f in self.FIELDS.items():
                if f.oneof == field.oneof:
                    self._values.pop(other, None)
                    self._lazy.pop(other, None)
        self._lazy.pop(name, None)
        self._values[name] = _coerce(field, name, value)

    def HasField(self, name):
        field, value = self._field(name), self._values.get(name)
        if field.repeated:
            raise ValueError(f"HasField does not apply to the repeated field {name!r}: use len()")
        if value is None and name in self._lazy:
            return bool(self._lazy[name].SerializeToString())
        return value is not None and (field.oneof is not None or field.kind == "message" or
                                      value != _DEFAULTS[field.kind])

    def WhichOneof(self, group):
        names = [n for n, f in self.FIELDS.items() if f.oneof == group]
        if not names:
            raise ValueError(f"{type(self).__name__} has no oneof {group!r}")
        return next((n for n in names if self.HasField(n)), None)

    def ClearField(self, name):
        self._field(name)
        self._values.pop(name, None)
        self._lazy.pop(name, None)

    def CopyFrom(self, other):
        self._values.clear()
        self._lazy.clear()
        self.MergeFromString(other.SerializeToString())

    def ListFields(self):
        """(name, value) of the fields that are set, in field-number order."""
        found = []
        for name, field in sorted(self.FIELDS.items(), key=lambda item: item[1].number):
            value = self._values.get(name, self._lazy.get(name))
            if field.repeated:
                if value:
                    found.append((name, value))
            elif self.HasField(name):
                found.append((name, value))
        return found

    def SerializeToString(self):
        out = bytearray()
        for name, value in self.ListFields():
            field = self.FIELDS[name]
            wire = _KIND_WIRE[field.kind]
            if field.repeated and wire != LENGTH:  # proto3 packs repeated numbers
                body = b"".join(_encode_scalar(field.kind, v) for v in value)
                out += encode_varint(field.number << 3 | LENGTH) + encode_varint(len(body)) + body
                continue
            for v in value if field.repeated else [value]:
                out += encode_varint(field.number << 3 | wire) + _encode_scalar(field.kind, v)
        return bytes(out)

    def MergeFromString(self, data):
        data, pos = bytes(data), 0
        numbers = {f.number: (n, f) for n, f in self.FIELDS.items()}
        while pos < len(data):
            key, pos = decode_varint(data, pos)
            number, wire = key >> 3, key & 7
            raw, pos = _read_wire(data, pos, wire)
            if number not in numbers:
                continue  # unknown fields are skipped, as protobuf readers do
            name, field = numbers[number]
            values = _decode(field, wire, raw)
            if field.repeated:
                getattr(self, name).extend(values)
            elif field.kind == "message" and self.HasField(name):
                getattr(self, name).MergeFromString(raw)
            else:
                setattr(self, name, values[-1])
        return len(data)

    def ParseFromString(self, data):
        self._values.clear()
        self._lazy.clear()
        return self.MergeFromString(data)

    @classmethod
    def FromString(cls, data):
        message = cls()
        message.MergeFromString(data)
        return message

    def __eq__(self, other):
        return type(other) is type(self) and other.SerializeToString() == self.SerializeToString()

    __hash__ = None

    def __str__(self):
        lines = []
        for name, value in self.ListFields():
            for v in value if self.FIELDS[name].repeated else [value]:
                if isinstance(v, Message):
                    inner = str(v).replace("\n", "\n  ").rstrip(" ")
                    lines.append(f"{name} {{\n  {inner}}}\n")
                else:
                    lines.append(f"{name}: {_text(v, self.FIELDS[name].kind)}\n")
        return "".join(lines)

    def __repr__(self):
        return f"{type(self).__name__}({str(self).strip()!r})" if self.ListFields() else f"{type(self).__name__}()"


def _text(value, kind):
    """A value as protobuf's text format prints it (shortest digits that read back, C escapes)."""
    if kind == "bool":
        return str(value).lower()
    if kind in ("float", "double"):
        digits, more = (6, 9) if kind == "float" else (15, 17)
        short = f"{value:.{digits}g}"
        same = (_pack_float(float(short)) == _pack_float(value) if kind == "float"
                else float(short) == value)
        return short if same else f"{value:.{more}g}"
    if kind in ("string", "bytes"):
        raw = value.encode("utf-8") if isinstance(value, str) else value
        return '"' + "".join(_ESCAPES.get(b, chr(b) if 32 <= b < 127 else f"\\{b:03o}") for b in raw) + '"'
    return str(value)


_ESCAPES = {ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t", ord('"'): '\\"', ord("'"): "\\'",
            ord("\\"): "\\\\"}


def _read_wire(data, pos, wire):
    if wire == VARINT:
        return decode_varint(data, pos)
    if wire in (FIXED64, FIXED32):
        end = pos + (8 if wire == FIXED64 else 4)
    elif wire == LENGTH:
        length, pos = decode_varint(data, pos)
        end = pos + length
    else:
        raise ValueError(f"Unsupported protobuf wire type {wire} at byte {pos}: groups are not used by these messages")
    if end > len(data):
        raise ValueError(f"Truncated protobuf field: needs bytes {pos}..{end}, the message has {len(data)}")
    return data[pos:end], end


def _decode(field, wire, raw):
    kind = field.kind
    if wire == VARINT:
        value = raw
        if kind in ("int32", "int64", "enum") and value >= 1 << 63:
            value -= 1 << 64
        return [bool(value) if kind == "bool" else value]
    if kind == "double" or kind == "float":
        fmt = "<d" if kind == "double" else "<f"
        if wire == LENGTH:  # packed
            return [v for (v,) in struct.iter_unpack(fmt, raw)]
        return [struct.unpack(fmt, raw)[0]]
    if wire == LENGTH and kind in ("int32", "int64", "enum", "bool"):
        values, pos = [], 0
        while pos < len(raw):
            v, pos = decode_varint(raw, pos)
            values.append(_decode(field, VARINT, v)[0])
        return values
    if kind == "string":
        return [raw.decode("utf-8")]
    if kind == "message":
        return [field.message.FromString(raw)]
    return [raw]
