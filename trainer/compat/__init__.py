"""tg.compat: tg.compat.v1 (the whole TF1 namespace, as tf.compat.v1) and TF1's string helpers."""
import os

from . import v1  # noqa: F401


def as_bytes(bytes_or_text, encoding="utf-8"):
    """bytes unchanged; str encoded."""
    if isinstance(bytes_or_text, (bytes, bytearray)):
        return bytes(bytes_or_text)
    if isinstance(bytes_or_text, str):
        return bytes_or_text.encode(encoding)
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


def as_text(bytes_or_text, encoding="utf-8"):
    """str unchanged; bytes decoded."""
    if isinstance(bytes_or_text, str):
        return bytes_or_text
    if isinstance(bytes_or_text, (bytes, bytearray)):
        return bytes(bytes_or_text).decode(encoding)
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


as_str = as_text


def as_str_any(value):
    """str of anything, bytes decoded as UTF-8."""
    return as_text(value) if isinstance(value, (bytes, bytearray)) else str(value)


def path_to_str(path):
    """A path-like object as a str; anything else unchanged."""
    return os.fspath(path) if isinstance(path, os.PathLike) else path
