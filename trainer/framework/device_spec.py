"""TF1 device strings: canonical form and the merging of nested tg.device scopes."""

_DEVICE_FIELDS = ("job", "replica", "task", "device")


def canonical_device(spec):
    """A device string (or DeviceSpec) in TF1's canonical form, e.g. "/gpu:0" -> "/device:GPU:0"."""
    if isinstance(spec, DeviceSpec):
        spec = spec.to_string()
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



class DeviceSpec:
    """TF1's tf.DeviceSpec: a device's job, replica, task, device type and index, each None when unspecified, read
    from and written as a device string ("/job:ps/replica:0/task:1/device:GPU:0")."""

    def __init__(self, job=None, replica=None, task=None, device_type=None, device_index=None):
        self.job, self.replica, self.task = job, replica, task
        self.device_type, self.device_index = device_type, device_index

    @property
    def replica(self):
        return self._replica

    @replica.setter
    def replica(self, value):
        self._replica = None if value is None else int(value)

    @property
    def task(self):
        return self._task

    @task.setter
    def task(self, value):
        self._task = None if value is None else int(value)

    @property
    def device_type(self):
        return self._device_type

    @device_type.setter
    def device_type(self, value):
        self._device_type = value.upper() if value and value.upper() in ("CPU", "GPU") else value

    @classmethod
    def from_string(cls, spec):
        """The DeviceSpec of a device string (old forms such as "/gpu:1" too)."""
        return cls().parse_from_string(spec)

    def parse_from_string(self, spec):
        """Every field from `spec` (fields it leaves out become None); returns self, as TF1's does."""
        self.__init__()
        for part in filter(None, canonical_device(spec or "").split("/")):
            key, _, rest = part.partition(":")
            if key == "device":
                kind, _, index = rest.partition(":")
                self.device_type, self.device_index = kind, None if index in ("", "*") else int(index)
            else:
                setattr(self, key, rest)
        return self

    def merge_from(self, dev):
        """Take every field `dev` specifies (TF1's nested device scopes merge so)."""
        for key in ("job", "replica", "task", "device_type", "device_index"):
            if getattr(dev, key) is not None:
                setattr(self, key, getattr(dev, key))

    def make_merged_spec(self, dev):
        """A new DeviceSpec: this one with `dev`'s fields merged in."""
        merged = self.replace()
        merged.merge_from(dev)
        return merged

    def replace(self, **kwargs):
        """A copy with the given fields replaced."""
        fields = {key: getattr(self, key) for key in ("job", "replica", "task", "device_type", "device_index")}
        return DeviceSpec(**dict(fields, **kwargs))

    def to_string(self):
        parts = [f"/{key}:{getattr(self, key)}" for key in ("job", "replica", "task") if getattr(self, key) is not None]
        if self.device_type is not None:
            index = "*" if self.device_index is None else self.device_index
            parts.append(f"/device:{self.device_type}:{index}")
        return "".join(parts)

    def __eq__(self, other):
        return isinstance(other, DeviceSpec) and self.to_string() == other.to_string()

    def __hash__(self):
        return hash(self.to_string())

    def __repr__(self):
        return f"<DeviceSpec {self.to_string()!r}>"
