"""tf.make_template: a function whose variables are made on its first call and shared by every later call."""
import functools

from ..framework.graph import get_default_graph
from ..framework.graph_keys import GraphKeys
from .scopes import variable_scope


class Template:
    """A function wrapped so that tg.get_variable inside it creates variables on the first call, in a scope of the
    template's own (made unique when the template is), and reuses them on every later call."""

    def __init__(self, name, func, create_scope_now=False, unique_name=None, custom_getter=None):
        if name is None:
            raise ValueError("make_template needs a name for its variable scope, got None")
        self._name, self._func, self._unique_name = name, func, unique_name
        self._custom_getter, self._variables_created, self._variable_scope = custom_getter, False, None
        if create_scope_now:
            with variable_scope(unique_name, name, custom_getter=custom_getter) as scope:
                self._variable_scope = scope

    def __call__(self, *args, **kwargs):
        if self._variable_scope is None:
            with variable_scope(self._unique_name, self._name, custom_getter=self._custom_getter) as scope:
                self._variable_scope = scope
                return self._call_func(args, kwargs)
        with variable_scope(self._variable_scope, reuse=True if self._variables_created else None):
            return self._call_func(args, kwargs)

    def _call_func(self, args, kwargs):
        graph = get_default_graph()
        trainable_before = len(graph.get_collection(GraphKeys.TRAINABLE_VARIABLES))
        result = self._func(*args, **kwargs)
        if self._variables_created:
            made = graph.get_collection(GraphKeys.TRAINABLE_VARIABLES)[trainable_before:]
            if made:
                raise ValueError(f"Trainable variable created when calling a template after the first time, "
                                 f"perhaps you used tf.Variable when you meant tf.get_variable: {made!r}")
        self._variables_created = True
        return result

    @property
    def name(self):
        return self._name

    @property
    def func(self):
        return self._func

    @property
    def variable_scope(self):
        return self._variable_scope

    @property
    def variable_scope_name(self):
        return None if self._variable_scope is None else self._variable_scope.name

    def _collection(self, key):
        if self._variable_scope is None:
            return []
        return get_default_graph().get_collection(key, self.variable_scope_name + "/")

    @property
    def variables(self):
        return self.global_variables + self.local_variables

    @property
    def trainable_variables(self):
        return self._collection(GraphKeys.TRAINABLE_VARIABLES)

    @property
    def non_trainable_variables(self):
        trainable = set(map(id, self.trainable_variables))
        return [v for v in self.global_variables if id(v) not in trainable]

    @property
    def global_variables(self):
        return self._collection(GraphKeys.GLOBAL_VARIABLES)

    @property
    def local_variables(self):
        return self._collection(GraphKeys.LOCAL_VARIABLES)


def make_template(name_, func_, create_scope_now_=False, unique_name_=None, custom_getter_=None, **kwargs):
    """func_ (with `kwargs` bound) as a Template: its tg.get_variable calls create variables the first time and share
    them afterwards."""
    return Template(name_, functools.partial(func_, **kwargs), create_scope_now=create_scope_now_,
                    unique_name=unique_name_, custom_getter=custom_getter_)
