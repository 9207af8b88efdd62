"""Numbers read from environment variables, refused by name when they make no sense.

A launcher passes settings to every rank through the environment, and a typo there (RINGFLOW_TIMEOUT=0,
RINGFLOW_RING_SEGMENT_BYTES=4M) must say which variable is wrong, not surface as a bare int() error deep
inside a collective. Lives in allreduce so both packages can use it (allreduce never imports trainer).
"""
import math
import os

_KINDS = {int: "a whole number", float: "a number"}


def parse_number(text, kind=float):
    """`text` as `kind` (int or float); an int may be written as an integral float ("16e6"). ValueError if not."""
    text = str(text).strip()
    if kind is int:
        try:
            return int(text)
        except ValueError:
            value = float(text)
            if not value.is_integer():
                raise ValueError(f"{text!r} is not a whole number") from None
            return int(value)
    return float(text)


def env_number(name, default, kind=float, minimum=None, strict=False, unit=None):
    """The number in environment variable `name`, or `default` when it is unset or empty.

    `kind` is int or float; the value must be finite and >= `minimum` (> with strict=True). A bad value raises
    ValueError naming the variable and its text, e.g. "RINGFLOW_TIMEOUT='0': must be a number of seconds > 0".
    """
    text = os.environ.get(name, "")
    if not text.strip():
        return default
    want = _KINDS[kind] + (f" of {unit}" if unit else "")
    if minimum is not None:
        want += f" {'>' if strict else '>='} {minimum:g}"
    try:
        value = parse_number(text, kind)
    except (ValueError, OverflowError):
        value = None
    if value is None or not math.isfinite(value) or (
            minimum is not None and (value <= minimum if strict else value < minimum)):
        raise ValueError(f"{name}={text!r}: must be {want}; set it to such a value or unset it "
                         f"(default {default!r})")
    return value
