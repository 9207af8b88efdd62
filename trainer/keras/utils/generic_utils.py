"""Keras' object registry (names and configs to objects, the global custom objects and their scopes), function
(de)serialization for Lambda layers, and the Progbar."""
import binascii
import codecs
import marshal
import sys
import time
import types

import numpy as np

_GLOBAL_CUSTOM_OBJECTS = {}  # Keras' one registry of the user's own classes and functions, by name


def get_custom_objects():
    """The global dict of custom objects (name -> class or function) every deserialization looks in; add to it
    to register your own."""
    return _GLOBAL_CUSTOM_OBJECTS


class CustomObjectScope:
    """Within `with CustomObjectScope({name: obj}, ...)`, those names deserialize to those objects; the previous
    custom objects come back on exit."""

    def __init__(self, *args):
        self.custom_objects, self.backup = args, None

    def __enter__(self):
        self.backup = dict(_GLOBAL_CUSTOM_OBJECTS)
        for objects in self.custom_objects:
            _GLOBAL_CUSTOM_OBJECTS.update(objects)
        return self

    def __exit__(self, *exc):
        _GLOBAL_CUSTOM_OBJECTS.clear()
        _GLOBAL_CUSTOM_OBJECTS.update(self.backup)


def custom_object_scope(*args):
    """A CustomObjectScope of the given dicts."""
    return CustomObjectScope(*args)


def known_objects(module_objects, custom_objects=None):
    """The names a deserialization knows: the module's, then the global custom objects, then `custom_objects`."""
    return dict(module_objects, **_GLOBAL_CUSTOM_OBJECTS, **(custom_objects or {}))


def serialize_keras_object(instance):
    """{'class_name', 'config'} for objects with get_config, the name for functions."""
    if instance is None:
        return None
    if hasattr(instance, "get_config"):
        return {"class_name": type(instance).__name__, "config": instance.get_config()}
    if hasattr(instance, "__name__"):
        return instance.__name__
    raise ValueError(f"Cannot serialize {instance!r}: it has neither get_config nor a __name__")


def serialized(module, value):
    """module.serialize(value) (module: initializers, regularizers, ...), None as None: for get_config."""
    return module.serialize(value) if value is not None else None


def from_config(cls, config, custom_objects=None):
    """cls.from_config(config), passing custom_objects where it takes them (models, Lambda, wrappers)."""
    method = cls.from_config
    if "custom_objects" in method.__code__.co_varnames:
        return method(config, custom_objects=custom_objects)
    return method(config)


def func_dump(func):
    """(base64 of the marshalled bytecode, defaults, closure values): Keras' form of a Python function in a config.
    The bytecode is only readable by the Python version that wrote it, as in Keras."""
    code = codecs.encode(marshal.dumps(func.__code__), "base64").decode("ascii")
    closure = tuple(cell.cell_contents for cell in func.__closure__) if func.__closure__ else None
    return code, func.__defaults__, closure


def _cell(value):
    return (lambda: value).__closure__[0]


def func_load(code, defaults=None, closure=None, globs=None):
    """The function func_dump described (a (code, defaults, closure) triple may come as `code`), its globals
    `globs`."""
    if isinstance(code, (tuple, list)):
        code, defaults, closure = code
    try:
        raw = codecs.decode(code.encode("ascii"), "base64")
    except (UnicodeEncodeError, binascii.Error):
        raw = code.encode("raw_unicode_escape")
    body = marshal.loads(raw)
    cells = tuple(_cell(value) for value in closure) if closure is not None else None
    return types.FunctionType(body, globs if globs is not None else globals(), name=body.co_name,
                              argdefs=tuple(defaults) if defaults is not None else None, closure=cells)


def deserialize_keras_object(identifier, module_objects, custom_objects=None, printable_module_name="object"):
    """The object a name or {'class_name', 'config'} identifier stands for, looked up in `custom_objects` first,
    then in the global custom objects."""
    known = known_objects(module_objects, custom_objects)
    if isinstance(identifier, dict):
        name = identifier["class_name"]
        if name not in known:
            raise ValueError(f"Unknown {printable_module_name}: {name!r}; known: {sorted(known)} (pass "
                             "custom_objects={name: class} for your own)")
        cls = known[name]
        config = identifier.get("config", {})
        return from_config(cls, config, custom_objects) if hasattr(cls, "from_config") else cls(**config)
    if isinstance(identifier, str):
        if identifier not in known:
            raise ValueError(f"Unknown {printable_module_name}: {identifier!r}; known: {sorted(known)}")
        found = known[identifier]
        return found() if isinstance(found, type) else found
    raise ValueError(f"Could not interpret {printable_module_name} identifier: {identifier!r}")


class Progbar:
    """Keras' progress bar: verbose 1 redraws one line per update, verbose 2 prints the values at the end."""

    def __init__(self, target, width=30, verbose=1, interval=0.05, stateful_metrics=None, unit_name="step"):
        self.target, self.width, self.verbose, self.interval = target, width, verbose, interval
        self.stateful_metrics = set(stateful_metrics or ())
        self.unit_name = unit_name
        self._values, self._order = {}, []
        self._start = time.time()
        self._last_update = 0
        self._seen = 0
        self._total_width = 0

    def update(self, current, values=None):
        """Move to step `current`, averaging `values` [(name, value)] weighted by the steps since the last call."""
        for name, value in values or []:
            if name not in self._order:
                self._order.append(name)
            if name in self.stateful_metrics:
                self._values[name] = value
            else:
                step = max(current - self._seen, 1)
                total, count = self._values.get(name, [0.0, 0])
                self._values[name] = [total + value * step, count + step]
        self._seen = current
        now = time.time()
        elapsed = now - self._start
        if self.verbose == 1:
            if now - self._last_update < self.interval and self.target is not None and current < self.target:
                return
            line = self._bar(current)
            per_step = elapsed / current if current else 0
            if self.target is not None and current < self.target:
                eta = per_step * (self.target - current)
                info = f" - ETA: {_eta(eta)}"
            else:
                info = f" - {elapsed:.0f}s {_per_unit(per_step, self.unit_name)}"
            info += self._metrics(signed=True)
            width, self._total_width = self._total_width, len(line) + len(info)
            info += " " * max(width - self._total_width, 0)  # covers what a longer line left on the terminal
            if self.target is not None and current >= self.target:
                info += "\n"
            sys.stdout.write("\r" + line + info)
            sys.stdout.flush()
        elif self.verbose == 2 and self.target is not None and current >= self.target:
            digits = len(str(self.target))
            sys.stdout.write(f"{current:{digits}d}/{self.target} - {elapsed:.0f}s{self._metrics()}\n")
            sys.stdout.flush()
        self._last_update = now

    def add(self, n, values=None):
        self.update(self._seen + n, values)

    def _bar(self, current):
        if self.target is None:
            return f"{current:7d}/Unknown"
        digits = len(str(self.target))
        bar = f"{current:{digits}d}/{self.target} ["
        filled = int(self.width * current / self.target) if self.target else self.width
        if filled > 0:
            bar += "=" * (filled - 1) + (">" if current < self.target else "=")
        return bar + "." * (self.width - filled) + "]"

    def _metrics(self, signed=False):
        """' - name: value' per value; as Keras, verbose 1 picks the format by |value| and verbose 2 by value."""
        text = ""
        for name in self._order:
            value = self._values[name]
            if isinstance(value, list):
                value = value[0] / max(1, value[1])
            size = abs(value) if signed else value
            text += f" - {name}: " + (f"{value:.4f}" if size > 1e-3 else f"{value:.4e}")
        return text


def _eta(seconds):
    if seconds > 3600:
        return f"{int(seconds // 3600)}:{int(seconds % 3600 // 60):02d}:{int(seconds % 60):02d}"
    if seconds > 60:
        return f"{int(seconds // 60)}:{int(seconds % 60):02d}"
    return f"{int(seconds)}s"


def _per_unit(seconds, unit):
    if seconds >= 1 or seconds == 0:
        return f"{seconds:.0f}s/{unit}"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.0f}ms/{unit}"
    return f"{seconds * 1e6:.0f}us/{unit}"


def to_list(x):
    """x as a list (a list as is, None as [])."""
    if x is None:
        return []
    return list(x) if isinstance(x, (list, tuple)) else [x]


def slice_arrays(arrays, indices):
    return [None if a is None else np.asarray(a)[indices] for a in arrays]
