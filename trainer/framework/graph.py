"""Graph: the data-flow graph's operations, TF1's naming rules and the default-graph stack.

Tensor (tensor.py), Operation (operation.py), the op's printed form (node_def.py) and TF1's module-level
functions on the default graph (graph_wrappers.py) live in their own modules; all are importable from here.
"""
import contextlib
import re

from . import stacks
from .device_spec import canonical_device, merge_device
from .node_def import tf_graph_def
from .operation import Operation
from .tensor import Tensor


class Graph:
    """A TF1 graph: operations in creation order, unique names, collections and a random seed."""

    def __init__(self):
        self._ops = []
        self._ops_by_name = {}
        self._names_in_use = {}
        self._name_stack = ""
        self._control_stack = []
        self._collections = {}
        self.seed = None
        self._device_stack = []
        self._finalized = False

    # --- building -------------------------------------------------------------------------------
    def create_op(self, op_type, inputs, output_specs, name=None, attrs=None, control_inputs=(), unique=True):
        """Add an operation; `output_specs` is a list of (shape, dtype), `name` defaults to the type.

        With unique=False, or a `name` ending in "/" (a name scope's own name, as TF1's composite ops name their
        result), `name` is taken as an already reserved, absolute name.
        """
        if self._finalized:
            raise RuntimeError(f"Graph is finalized and cannot be modified: cannot add the {op_type!r} op "
                               f"{name or op_type!r}. Build every op before the graph is finalized (for example "
                               "before MonitoredSession or Supervisor starts).")
        for t in inputs:
            if t.graph is not self:
                raise ValueError(f"Tensor {t.name!r} is from another graph than the operation {op_type!r} "
                                 "being built; build all ops of a model in one graph (tg.Graph().as_default())")
        controls = [c for ctrl in self._control_stack for c in ctrl] + list(control_inputs)
        if unique and name and name.endswith("/"):  # `name=scope` inside `with name_scope(...) as scope` (TF1)
            name, unique = name[:-1], False
        name = self.unique_name(name or op_type) if unique else name
        op = Operation(self, op_type, name, inputs, attrs or {}, controls)
        op.outputs = tuple(Tensor(op, i, shape, dtype) for i, (shape, dtype) in enumerate(output_specs))
        for spec in self._device_stack:
            op.device = merge_device(op.device, canonical_device(spec(op) or "") if callable(spec) else spec)
        self._ops.append(op)
        self._ops_by_name[op.name] = op
        return op

    def unique_name(self, name, mark_as_used=True):
        """TF1's naming: prefix the name scope, then add _1, _2, ... to names already taken."""
        if self._name_stack:
            name = f"{self._name_stack}/{name}"
        key = name.lower()
        i = self._names_in_use.get(key, 0)
        if mark_as_used:
            self._names_in_use[key] = i + 1
        if i > 0:
            base = key
            while key in self._names_in_use:
                key = f"{base}_{i}"
                i += 1
            if mark_as_used:
                self._names_in_use[key] = 1
            name = f"{name}_{i - 1}"
        return name

    @contextlib.contextmanager
    def name_scope(self, name):
        """Open a name scope for ops: "" or None returns to the top, a name ending in "/" is re-entered as is."""
        old = self._name_stack
        if not name:
            new = ""
        elif name.endswith("/"):
            new = name[:-1]
        else:
            new = self.unique_name(name)
        self._name_stack = new
        try:
            yield "" if not new else new + "/"
        finally:
            self._name_stack = old

    def get_name_scope(self):
        """The current name scope, without a trailing slash ("" at the top)."""
        return self._name_stack

    @contextlib.contextmanager
    def device(self, device_name_or_function):
        """Record a device on the ops built inside (a string, or a function op -> string; None clears).

        Each rank runs its whole graph on one device (Session(device=...)), so this is bookkeeping only.
        """
        old = self._device_stack
        spec = device_name_or_function
        self._device_stack = [] if spec is None else old + [spec if callable(spec) else canonical_device(spec)]
        try:
            yield
        finally:
            self._device_stack = old

    @contextlib.contextmanager
    def colocate_with(self, op, ignore_existing=False):
        """Accepted for TF1 programs; placement is one device per rank, so colocation has no effect."""
        yield

    def finalize(self):
        """Make the graph read-only: creating an op afterwards raises RuntimeError."""
        self._finalized = True

    @property
    def finalized(self):
        return self._finalized

    def _unsafe_unfinalize(self):
        """Make a finalized graph writable again (TF1: MonitoredSession does this when it closes)."""
        self._finalized = False

    @contextlib.contextmanager
    def control_dependencies(self, control_inputs):
        """Ops built inside run only after `control_inputs` (Operations or Tensors); None clears them."""
        if control_inputs is None:
            old, self._control_stack = self._control_stack, []
            try:
                yield
            finally:
                self._control_stack = old
            return
        ops = [c.op if isinstance(c, Tensor) else c for c in control_inputs]
        self._control_stack.append(ops)
        try:
            yield
        finally:
            self._control_stack.pop()

    # --- lookups --------------------------------------------------------------------------------
    @property
    def version(self):
        """A number that grows as operations are added to the graph (TF1's Graph.version)."""
        return len(self._ops)

    def get_operations(self):
        return list(self._ops)

    @property
    def operations(self):
        """The operations in creation order: the graph's own list, for the engine to read without a copy."""
        return self._ops

    def as_graph_def(self, from_version=None, add_shapes=False):
        """Every operation as TF1's GraphDef in TF's node forms (as export_meta_graph writes them, so TensorFlow
        imports it): `.node` holds a NodeDef per op in creation order, then the nodes TF's forms add."""
        return tf_graph_def(self, add_shapes)

    def get_operation_by_name(self, name):
        if not isinstance(name, str):
            raise TypeError(f"Operation names are strings, got {name!r}")
        if ":" in name:
            raise ValueError(f"The name {name!r} looks like a Tensor name; use get_tensor_by_name "
                             "or drop the ':index' suffix")
        try:
            return self._ops_by_name[name]
        except KeyError:
            raise KeyError(f"The name {name!r} refers to an Operation not in the graph") from None

    def get_tensor_by_name(self, name):
        if not isinstance(name, str) or ":" not in name:
            raise ValueError(f"The name {name!r} is not a Tensor name: Tensor names look like 'op_name:0'")
        op_name, _, index = name.rpartition(":")
        if op_name not in self._ops_by_name:
            raise KeyError(f"The name {name!r} refers to a Tensor which does not exist: "
                           f"the operation {op_name!r} is not in the graph")
        op = self._ops_by_name[op_name]
        if not index.isdigit() or int(index) >= len(op.outputs):
            raise KeyError(f"The name {name!r} refers to a Tensor which does not exist: the operation "
                           f"{op_name!r} has {len(op.outputs)} output(s)")
        return op.outputs[int(index)]

    def as_graph_element(self, obj, allow_tensor=True, allow_operation=True):
        """Return the Tensor or Operation that `obj` (an object of this graph or a name) refers to."""
        if isinstance(obj, str):
            if ":" in obj and allow_tensor:
                return self.get_tensor_by_name(obj)
            if allow_operation:
                return self.get_operation_by_name(obj)
            raise ValueError(f"The name {obj!r} looks like an Operation name, but Operations are not allowed here")
        if isinstance(obj, (Tensor, Operation)):
            if obj.graph is not self:
                raise ValueError(f"{obj!r} is not an element of this graph: it was built in another tg.Graph")
            if isinstance(obj, Tensor) and not allow_tensor:
                raise TypeError(f"Tensors are not allowed here, got {obj!r}")
            if isinstance(obj, Operation) and not allow_operation:
                raise TypeError(f"Operations are not allowed here, got {obj!r}")
            return obj
        raise TypeError(f"Can not convert a {type(obj).__name__} into a Tensor or Operation: {obj!r}")

    # --- collections ------------------------------------------------------------------------------
    def add_to_collection(self, key, value):
        if self._finalized:
            raise RuntimeError(f"Graph is finalized and cannot be modified: cannot add {value!r} to the "
                               f"collection {key!r}")
        self._collections.setdefault(key, []).append(value)

    def add_to_collections(self, keys, value):
        for key in [keys] if isinstance(keys, str) else set(keys):
            self.add_to_collection(key, value)

    def get_collection(self, key, scope=None):
        """A copy of the collection; with `scope`, only items whose name matches it (re.match, as TF1)."""
        items = list(self._collections.get(key, ()))
        if scope is None:
            return items
        return [x for x in items if hasattr(x, "name") and re.match(scope, x.name)]

    def get_collection_ref(self, key):
        return self._collections.setdefault(key, [])

    def get_all_collection_keys(self):
        """The names of the collections (the engine's own stores, keyed by tuples as in TF1, are left out)."""
        return [key for key, items in self._collections.items() if isinstance(key, str) and isinstance(items, list)]

    def clear_collection(self, key):
        self._collections.pop(key, None)

    @contextlib.contextmanager
    def as_default(self):
        """Make this graph the default graph inside the `with` block."""
        with stacks.pushed(stacks.graphs(), self):
            yield self


_global_default = [None]


def get_default_graph():
    """The innermost graph made default with `as_default()`, else the global default graph."""
    stack = stacks.graphs()
    if stack:
        return stack[-1]
    if _global_default[0] is None:
        _global_default[0] = Graph()
    return _global_default[0]


def reset_default_graph():
    """Replace the global default graph with a new, empty one."""
    if stacks.graphs():
        raise AssertionError("Do not use tg.reset_default_graph() inside a graph's `with g.as_default()` block")
    _global_default[0] = Graph()

