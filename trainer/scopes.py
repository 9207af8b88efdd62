"""Variable scopes: prefixes for variable names, reuse, and inherited initializers."""
import contextlib

from .graph import get_default_graph


class _AutoReuse:
    def __repr__(self):
        return "AUTO_REUSE"


AUTO_REUSE = _AutoReuse()


class VariableScope:
    """A variable scope: its full `name`, reuse mode, default initializer and the op name scope it opened."""

    def __init__(self, name, reuse=None, initializer=None, original_name_scope=""):
        self.name = name
        self.reuse = reuse
        self.initializer = initializer
        self.original_name_scope = original_name_scope

    def __repr__(self):
        return f"<VariableScope {self.name!r} reuse={self.reuse!r}>"


@contextlib.contextmanager
def variable_scope(name_or_scope, reuse=None, initializer=None):
    """Scope variable names (and op names); a captured scope object re-enters it ignoring outer scopes."""
    graph = get_default_graph()
    parent = graph._var_scope
    if isinstance(name_or_scope, VariableScope):
        scope = VariableScope(name_or_scope.name, name_or_scope.reuse, name_or_scope.initializer,
                              name_or_scope.original_name_scope)
        name_scope = name_or_scope.original_name_scope or ""
        if not name_scope:
            name_scope = None
    elif isinstance(name_or_scope, str):
        full = f"{parent.name}/{name_or_scope}" if parent.name else name_or_scope
        scope = VariableScope(full, parent.reuse, parent.initializer)
        name_scope = name_or_scope
    else:
        raise TypeError(f"variable_scope takes a name or a VariableScope, got {name_or_scope!r}")
    if reuse is True or parent.reuse is True:
        scope.reuse = True
    elif reuse is AUTO_REUSE:
        scope.reuse = AUTO_REUSE
    if initializer is not None:
        scope.initializer = initializer
    graph._var_scope = scope
    try:
        with graph.name_scope(name_scope) as opened:
            if not isinstance(name_or_scope, VariableScope):
                scope.original_name_scope = opened
            yield scope
    finally:
        graph._var_scope = parent


def get_variable_scope():
    """The current variable scope of the default graph."""
    return get_default_graph()._var_scope
