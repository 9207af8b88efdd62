"""Protobuf's text format read back into a Message (what protobuf's text_format.Merge does): the `.pbtxt` graphs
tf.train.write_graph(as_text=True) writes, which tensorflow.python.tools.freeze_graph reads; and protobuf's JSON
form (json_format.Parse), which tf.io.decode_json_example reads."""
import base64
import json
import re

from .protobuf import Message

# a quoted string, a number (inf and nan included), a name, or punctuation; '#' comments run to the line's end
_TOKEN = re.compile(r'\s+|#[^\n]*|("(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|-?(?:inf|nan)\b|'
                    r'-?(?:0[xX][0-9a-fA-F]+|[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)[fF]?|[A-Za-z_][\w.]*|[:{}<>\[\],;])')
_ESCAPES = {"n": 10, "r": 13, "t": 9, "v": 11, "a": 7, "b": 8, "f": 12, "\\": 92, "'": 39, '"': 34, "?": 63}


def _tokens(text):
    out, pos = [], 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None:
            raise ValueError(f"protobuf text: cannot read {text[pos:pos + 20]!r} at character {pos}")
        if match.group(1) is not None:
            out.append(match.group(1))
        pos = match.end()
    return out


def _unquote(token):
    body, out, i = token[1:-1].encode("utf-8"), bytearray(), 0
    while i < len(body):
        if body[i] != 92:  # a backslash starts an escape
            out.append(body[i])
            i += 1
            continue
        kind = chr(body[i + 1])
        if kind in "01234567":
            digits = re.match(rb"[0-7]{1,3}", body[i + 1:]).group()
            out.append(int(digits, 8))
            i += 1 + len(digits)
        elif kind == "x":
            digits = re.match(rb"[0-9a-fA-F]{1,2}", body[i + 2:]).group()
            out.append(int(digits, 16))
            i += 2 + len(digits)
        else:
            out.append(_ESCAPES[kind])
            i += 2
    return bytes(out)


class _Reader:
    def __init__(self, text):
        self.tokens, self.at = _tokens(text), 0

    def peek(self):
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self, expected=None):
        token = self.peek()
        if token is None or (expected is not None and token != expected):
            raise ValueError(f"protobuf text: expected {expected or 'a value'!r}, found {token!r}")
        self.at += 1
        return token

    def scalar(self, kind, names):
        token = self.take()
        if token[0] in "\"'":
            value = _unquote(token)
            while self.peek() and self.peek()[0] in "\"'":  # adjacent strings concatenate
                value += _unquote(self.take())
            return value if kind == "bytes" else value.decode("utf-8")
        if kind == "enum":
            by_name = {name: number for number, name in (names or {}).items()}
            return by_name[token] if token in by_name else int(token)
        if kind == "bool":
            return token in ("true", "True", "t", "1")
        if kind in ("float", "double"):
            return float(token.rstrip("fF"))
        return int(token, 0)

    def message(self, message, end=None):
        while self.peek() != end:
            if self.peek() is None:
                raise ValueError(f"protobuf text: expected {end!r} to close a {type(message).__name__}, found the end")
            name = self.take()
            field = type(message)._field(name)
            if self.peek() == ":":
                self.take(":")
            values = self.list_of(field) if self.peek() == "[" else [self.value(field)]
            for value in values:
                self.store(message, name, field, value)
            if self.peek() in (",", ";"):
                self.take()
        return message

    def list_of(self, field):
        self.take("[")
        values = []
        while self.peek() != "]":
            values.append(self.value(field))
            if self.peek() == ",":
                self.take(",")
        self.take("]")
        return values

    def value(self, field):
        if field.kind == "map":
            return self.entry(field)
        if field.kind != "message":
            return self.scalar(field.kind, field.names)
        close = {"{": "}", "<": ">"}[self.take()]
        value = self.message(field.message(), close)
        self.take(close)
        return value

    def entry(self, field):
        close = {"{": "}", "<": ">"}[self.take()]
        key, value = None, None
        while self.peek() != close:
            name = self.take()
            if self.peek() == ":":
                self.take(":")
            if name == "key":
                key = self.scalar(field.key, None)
            elif isinstance(field.message, type):
                inner = {"{": "}", "<": ">"}[self.take()]
                value = self.message(field.message(), inner)
                self.take(inner)
            else:
                value = self.scalar(field.message, None)
        self.take(close)
        return key, value

    @staticmethod
    def store(message, name, field, value):
        if field.kind == "map":
            key, item = value
            getattr(message, name)[key] = item if item is not None else (
                field.message() if isinstance(field.message, type) else None)
        elif field.repeated:
            getattr(message, name).append(value)
        elif field.kind == "message":
            getattr(message, name).CopyFrom(value)  # an empty one stays unset, as proto3 reads it
        else:
            setattr(message, name, value)


def merge(text, message):
    """Read protobuf text format into `message` (a ringflow Message), as text_format.Merge; returns `message`.
    ValueError names what could not be read."""
    if not isinstance(message, Message):
        raise TypeError(f"merge reads into a ringflow protobuf Message, got {type(message).__name__}")
    reader = _Reader(text)
    reader.message(message)
    return message


def parse(text, message):
    """text_format.Parse: `message` cleared, then read from `text`."""
    message.Clear()
    return merge(text, message)


def _json_name(name):
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _json_scalar(kind, value, names, where):
    if kind == "bytes":
        text = value + "=" * (-len(value) % 4)
        return base64.urlsafe_b64decode(text) if ("-" in text or "_" in text) else base64.b64decode(text)
    if kind == "enum" and isinstance(value, str):
        return {name: number for number, name in (names or {}).items()}[value]
    if kind in ("float", "double"):  # JSON spells the specials "NaN", "Infinity" and "-Infinity"
        return float({"Infinity": "inf", "-Infinity": "-inf"}.get(value, value))
    if kind == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"protobuf JSON: {where} takes true or false, got {value!r}")
        return value
    if kind == "string":
        return value
    if isinstance(value, float) and not value.is_integer():
        raise ValueError(f"protobuf JSON: {where} takes an integer, got {value!r}")
    return int(value)


def _json_into(message, fields):
    if not isinstance(fields, dict):
        raise ValueError(f"protobuf JSON: a {type(message).__name__} is an object, got {fields!r}")
    by_json = {_json_name(name): name for name in message.FIELDS}
    for key, value in fields.items():
        name = key if key in message.FIELDS else by_json.get(key)
        if name is None:
            raise ValueError(f"protobuf JSON: {type(message).__name__} has no field {key!r}; its fields are "
                             f"{sorted(by_json)}")
        field, where = message.FIELDS[name], f"{type(message).__name__}.{name}"
        if value is None:
            continue
        if field.kind == "map":
            target = getattr(message, name)
            for k, v in value.items():
                key_value = _json_scalar(field.key, k, None, where)
                target[key_value] = _json_into(field.message(), v) if isinstance(field.message, type) else \
                    _json_scalar(field.message, v, None, where)
        elif field.repeated:
            items = getattr(message, name)
            for item in value:
                items.append(_json_into(field.message(), item) if field.kind == "message" else
                             _json_scalar(field.kind, item, field.names, where))
        elif field.kind == "message":
            getattr(message, name).CopyFrom(_json_into(field.message(), value))
        else:
            setattr(message, name, _json_scalar(field.kind, value, field.names, where))
    return message


def parse_json(text, message):
    """json_format.Parse: `message` cleared, then read from protobuf's JSON form (lowerCamelCase or the proto's
    own field names, 64-bit integers as numbers or strings, bytes in base64); ValueError names what is wrong."""
    try:
        fields = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"protobuf JSON: not JSON ({exc})") from None
    message.Clear()
    return _json_into(message, fields)
