"""TF1 device strings: canonical form and the merging of nested tg.device scopes."""

_DEVICE_FIELDS = ("job", "replica", "task", "device")


def canonical_device(spec):
    """A device string in TF1's canonical form, e.g. "/gpu:0" -> "/device:GPU:0"."""
    if not isinstance(spec, str):
        raise TypeError(f"A device is a string such as '/job:worker/task:0/device:GPU:0' or a function "
                        f"op -> string, got {spec!r}")
    fields = {}
    for part in filter(None, spec.split("/")):
        key, _, rest = part.partition(":")
        if key.lower() in ("cpu", "gpu"):
            key, rest = "device", f"{key.upper()}:{rest or '0'}"
        elif key == "device" and ":" in rest:
            kind, _, index = rest.partition(":")
            rest = f"{kind.upper()}:{index}"
        if key not in _DEVICE_FIELDS or not rest:
            raise ValueError(f"Unknown device specification {spec!r}: expected parts like /job:NAME, "
                             "/replica:N, /task:N, /device:CPU:N or /gpu:N")
        fields[key] = rest
    return "".join(f"/{key}:{fields[key]}" for key in _DEVICE_FIELDS if key in fields)


def merge_device(outer, inner):
    """`inner`'s fields override `outer`'s (TF1's merging of nested device scopes)."""
    fields = {}
    for spec in (outer, inner):
        for part in filter(None, (spec or "").split("/")):
            key, _, rest = part.partition(":")
            fields[key] = rest
    return "".join(f"/{key}:{fields[key]}" for key in _DEVICE_FIELDS if key in fields)

