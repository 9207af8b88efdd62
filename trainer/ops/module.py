"""tf.Module: a named container of variables and of other modules, which it finds by walking its attributes."""
import functools
import re

from ..framework.graph import get_default_graph
from .variables import Variable

_CAMEL_HUMP = re.compile(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))")


class Module:
    """Base class of a model part: `variables`, `trainable_variables` and `submodules` are what its attributes hold
    (through lists, tuples and dicts, in attribute-name order, then each submodule's in turn), and `name_scope`
    (unique per instance, "dense", "dense_1", ...) is where it builds its ops."""

    def __init__(self, name=None):
        if name is None:
            name = _CAMEL_HUMP.sub(r"_\1", type(self).__name__).lower()
        elif not (isinstance(name, str) and name.isidentifier()):
            raise ValueError(f"{name!r} is not a valid module name. Module names must be valid Python identifiers "
                             "(e.g. a valid class name).")
        self._name = name
        with get_default_graph().name_scope(name) as scope:
            self._scope_name = scope

    @property
    def name(self):
        return self._name

    @property
    def name_scope(self):
        """A name scope re-entering this module's own ("mlp/")."""
        return get_default_graph().name_scope(self._scope_name)

    @property
    def variables(self):
        return tuple(self._flatten(lambda x: isinstance(x, Variable)))

    @property
    def trainable_variables(self):
        return tuple(self._flatten(lambda x: isinstance(x, Variable) and x.trainable))

    @property
    def submodules(self):
        return tuple(self._flatten(lambda x: isinstance(x, Module)))

    def _flatten(self, predicate, seen=None):
        seen = {id(self)} if seen is None else seen
        found, submodules = [], []
        for key in sorted(vars(self)):
            for leaf in _leaves(vars(self)[key]):
                if id(leaf) in seen:
                    continue
                seen.add(id(leaf))
                if predicate(leaf):
                    found.append(leaf)
                if isinstance(leaf, Module):
                    submodules.append(leaf)
        for module in submodules:
            found += module._flatten(predicate, seen)
        return found

    @classmethod
    def with_name_scope(cls, method):
        """Decorate a method so that it runs inside its module's name scope."""
        @functools.wraps(method)
        def scoped(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)
        return scoped


def _leaves(value):
    if isinstance(value, dict):
        return [leaf for key in sorted(value, key=repr) for leaf in _leaves(value[key])]
    if isinstance(value, (list, tuple)):
        return [leaf for item in value for leaf in _leaves(item)]
    return [value]
