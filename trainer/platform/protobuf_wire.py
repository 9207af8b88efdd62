"""The protobuf (proto3) wire format of one field: varints, fixed-width numbers, length-delimited bytes.

protobuf.py's Message walks its fields through these; nothing here knows a message's fields.
"""
import math
import struct

VARINT, FIXED64, LENGTH, FIXED32 = 0, 1, 2, 5
WIRE = {"double": FIXED64, "float": FIXED32, "int32": VARINT, "int64": VARINT, "uint32": VARINT, "uint64": VARINT,
        "enum": VARINT, "bool": VARINT, "string": LENGTH, "bytes": LENGTH, "message": LENGTH, "fixed32": FIXED32,
        "fixed64": FIXED64}
_FIXED = {"fixed32": "<I", "fixed64": "<Q"}
_SIGNED = ("int32", "int64", "enum")


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


def _pack_float(value):
    try:
        return struct.pack("<f", value)
    except OverflowError:  # beyond float32's range: infinity, as a C++ float conversion gives
        return struct.pack("<f", math.copysign(math.inf, value))


def round_float(value):
    """`value` as a float field holds it: rounded to float32."""
    return struct.unpack("<f", _pack_float(value))[0]


def encode_scalar(kind, value):
    """One value's bytes after its key (a message's: its serialization, length first)."""
    if kind == "double":
        return struct.pack("<d", value)
    if kind == "float":
        return _pack_float(value)
    if kind in _FIXED:
        return struct.pack(_FIXED[kind], value)
    if WIRE[kind] == VARINT:
        return encode_varint(int(value))
    raw = value.encode("utf-8") if kind == "string" else value.SerializeToString() if kind == "message" else value
    return encode_varint(len(raw)) + raw


def read_field(data, pos):
    """(number, wire type, raw value, next position) of the field at `pos`: an int for a varint, else bytes."""
    key, pos = decode_varint(data, pos)
    number, wire = key >> 3, key & 7
    if wire == VARINT:
        value, pos = decode_varint(data, pos)
        return number, wire, value, pos
    if wire in (FIXED64, FIXED32):
        end = pos + (8 if wire == FIXED64 else 4)
    elif wire == LENGTH:
        length, pos = decode_varint(data, pos)
        end = pos + length
    else:
        raise ValueError(f"Unsupported protobuf wire type {wire} at byte {pos}: groups are not used by these messages")
    if end > len(data):
        raise ValueError(f"Truncated protobuf field: needs bytes {pos}..{end}, the message has {len(data)}")
    return number, wire, data[pos:end], end


def decode_values(kind, wire, raw, cls=None):
    """The values one field's raw bytes hold: one, or several for a packed repeated field; `cls` parses a message."""
    if wire == VARINT:
        value = raw - (1 << 64) if kind in _SIGNED and raw >= 1 << 63 else raw
        return [bool(value) if kind == "bool" else value]
    if kind in ("double", "float") or kind in _FIXED:
        fmt = "<d" if kind == "double" else "<f" if kind == "float" else _FIXED[kind]
        return [v for (v,) in struct.iter_unpack(fmt, raw)]  # one, or packed
    if wire == LENGTH and WIRE[kind] == VARINT:  # packed
        values, pos = [], 0
        while pos < len(raw):
            v, pos = decode_varint(raw, pos)
            values.append(decode_values(kind, VARINT, v)[0])
        return values
    if kind == "string":
        return [raw.decode("utf-8")]
    if kind == "message":
        return [cls.FromString(raw)]
    return [raw]
