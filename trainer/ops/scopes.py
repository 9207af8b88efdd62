"""Variable scopes: prefixes for variable names, reuse, and the defaults new variables inherit."""
import contextlib

from ..framework import dtypes
from ..framework.operation import Operation
from ..framework.tensor import Tensor
from ..framework.graph import get_default_graph


class _AutoReuse:
    def __repr__(self):
        return "AUTO_REUSE"


AUTO_REUSE = _AutoReuse()


class VariableScope:
    """A variable scope: its full `name`, reuse mode, the defaults its variables get, the op scope it opened."""

    def __init__(self, name, reuse=None, initializer=None, original_name_scope="", regularizer=None,
                 dtype=dtypes.float32):
        self.name = name
        self.reuse = reuse
        self.initializer = initializer
        self.original_name_scope = original_name_scope
        self.regularizer = regularizer
        self.dtype = dtypes.as_dtype(dtype)

    def reuse_variables(self):
        """From now on get_variable in this scope returns existing variables (reuse=True)."""
        self.reuse = True

    def set_initializer(self, initializer):
        self.initializer = initializer

    def set_regularizer(self, regularizer):
        self.regularizer = regularizer

    def set_dtype(self, dtype):
        self.dtype = dtypes.as_dtype(dtype)

    def _child(self, name):
        full = f"{self.name}/{name}" if self.name else name
        return VariableScope(full, self.reuse, self.initializer, regularizer=self.regularizer, dtype=self.dtype)

    def __repr__(self):
        return f"<VariableScope {self.name!r} reuse={self.reuse!r}>"


VARIABLE_STORE_KEY = ("__variable_store",)  # TF1 keeps a graph's variable store in a collection of this key


class VariableStore:
    """One graph's variables by full name, its current variable scope, and how often each scope was entered."""

    def __init__(self):
        self.scope = VariableScope("")
        self.variables = {}
        self.scope_counts = {}


def variable_store(graph):
    """`graph`'s VariableStore, made on first use."""
    ref = graph.get_collection_ref(VARIABLE_STORE_KEY)
    if not ref:
        ref.append(VariableStore())
    return ref[0]


@contextlib.contextmanager
def variable_scope(name_or_scope, default_name=None, values=None, initializer=None, regularizer=None,
                   caching_device=None, partitioner=None, custom_getter=None, reuse=None, dtype=None,
                   use_resource=None, constraint=None, auxiliary_name_scope=True):
    """Scope variable names (and op names); a captured scope object re-enters it ignoring outer scopes.

    With name_or_scope=None, `default_name` is used, made unique ("dense", "dense_1", ...).
    caching_device, use_resource and constraint are accepted and ignored (one device per rank).
    """
    for arg, value in (("partitioner", partitioner), ("custom_getter", custom_getter)):
        if value is not None:
            raise NotImplementedError(f"variable_scope({arg}=...) is not implemented: variables are never "
                                      f"partitioned or created through a custom getter here; pass {arg}=None")
    graph = next((v.graph for v in values or () if isinstance(v, (Tensor, Operation))), None)
    with contextlib.ExitStack() as stack:
        if graph is not None and graph is not get_default_graph():
            stack.enter_context(graph.as_default())
        graph = get_default_graph()
        store = variable_store(graph)
        parent = store.scope
        if isinstance(name_or_scope, VariableScope):
            scope = VariableScope(name_or_scope.name, name_or_scope.reuse, name_or_scope.initializer,
                                  name_or_scope.original_name_scope, name_or_scope.regularizer, name_or_scope.dtype)
            name_scope = name_or_scope.original_name_scope or None
        elif isinstance(name_or_scope, str):
            scope, name_scope = parent._child(name_or_scope), name_or_scope
        elif name_or_scope is None and isinstance(default_name, str):
            if reuse:
                raise ValueError(f"variable_scope(None, default_name={default_name!r}) cannot reuse variables: "
                                 "a default name is made unique, so pass name_or_scope to reuse")
            name_scope = _unique_scope_name(graph, parent, default_name)
            scope = parent._child(name_scope)
        else:
            raise TypeError(f"variable_scope takes a name or a VariableScope (or None with default_name=...), "
                            f"got name_or_scope={name_or_scope!r}, default_name={default_name!r}")
        if reuse is True or parent.reuse is True:
            scope.reuse = True
        elif reuse is AUTO_REUSE:
            scope.reuse = AUTO_REUSE
        for attr, value in (("initializer", initializer), ("regularizer", regularizer)):
            if value is not None:
                setattr(scope, attr, value)
        if dtype is not None:
            scope.set_dtype(dtype)
        counts = store.scope_counts
        counts[scope.name] = counts.get(scope.name, 0) + 1
        before = dict(counts)
        store.scope = scope
        try:
            if auxiliary_name_scope:
                opened = stack.enter_context(graph.name_scope(name_scope))
                if not isinstance(name_or_scope, VariableScope):
                    scope.original_name_scope = opened
            yield scope
        finally:
            store.scope = parent
            _close_subscopes(counts, scope.name, before if isinstance(name_or_scope, VariableScope) else None)


def variable_op_scope(values, name_or_scope, default_name=None, initializer=None, regularizer=None,
                      caching_device=None, partitioner=None, custom_getter=None, reuse=None, dtype=None,
                      use_resource=None, constraint=None):
    """TF1's deprecated variable_scope(name_or_scope, default_name, values, ...)."""
    return variable_scope(name_or_scope, default_name, values, initializer, regularizer, caching_device, partitioner,
                          custom_getter, reuse, dtype, use_resource, constraint)


def _close_subscopes(counts, name, before):
    """TF1's count keeping on leaving a scope, which default names (dense, dense_1, ...) are made from: a scope
    entered by name forgets the scopes opened inside it, so entering it again (to reuse its variables) names
    them as the first time; a scope object re-entered puts the counts back as they were when it was entered."""
    if before is not None:
        counts.clear()
        counts.update(before)
        return
    for key in counts:
        if key.startswith(f"{name}/"):
            counts[key] = 0


def _unique_scope_name(graph, parent, prefix):
    """TF1's rule for default names: the first unused of prefix, prefix_1, prefix_2, ... under `parent`."""
    counts = variable_store(graph).scope_counts
    base = f"{parent.name}/{prefix}" if parent.name else prefix
    if not counts.get(base):
        return prefix
    i = 1
    while counts.get(f"{base}_{i}"):
        i += 1
    return f"{prefix}_{i}"


def get_variable_scope():
    """The current variable scope of the default graph."""
    return variable_store(get_default_graph()).scope


def no_regularizer(_):
    """The regularizer that adds no loss: a scope's default regularizer=no_regularizer turns one off inside it."""
    return None
