"""TF1's module-level functions on the default graph: tg.name_scope, tg.device, tg.control_dependencies,
tg.add_to_collection, tg.get_collection, ...

Each is a thin wrapper over the Graph method of the same name; they live apart from graph.py so the Graph
class reads on its own.
"""
import contextlib

from .graph import get_default_graph
from .operation import Operation
from .tensor import Tensor


@contextlib.contextmanager
def name_scope(name, default_name=None, values=None):
    """Open a name scope (ops only; get_variable ignores it) in the graph of `values`, else the default graph.

    `default_name` is used, made unique, when `name` is None.
    """
    graph = next((v.graph for v in values or () if isinstance(v, (Tensor, Operation))), None)
    with contextlib.ExitStack() as stack:
        if graph is not None and graph is not get_default_graph():
            stack.enter_context(graph.as_default())
        graph = get_default_graph()
        yield stack.enter_context(graph.name_scope(name if name is not None or default_name is None
                                                   else default_name))


def op_scope(values, name, default_name=None):
    """TF1's deprecated name_scope(name, default_name, values)."""
    return name_scope(name, default_name, values)


def get_name_scope():
    """The default graph's current name scope."""
    return get_default_graph().get_name_scope()


def device(device_name_or_function):
    """Record a device on the ops built inside (TF1's tf.device); execution stays on the session's device."""
    return get_default_graph().device(device_name_or_function)


def colocate_with(op, ignore_existing=False):
    """Accepted for TF1 programs; has no effect (one device per rank)."""
    return get_default_graph().colocate_with(op, ignore_existing)


def control_dependencies(control_inputs):
    """Ops built inside run only after `control_inputs`."""
    return get_default_graph().control_dependencies(control_inputs)


def add_to_collection(name, value):
    """Append `value` to the default graph's collection `name`."""
    get_default_graph().add_to_collection(name, value)


def add_to_collections(names, value):
    """Append `value` to each of the default graph's collections `names`."""
    get_default_graph().add_to_collections(names, value)


def get_collection(key, scope=None):
    """A copy of the default graph's collection `key`; `scope` keeps items whose name re.match-es it."""
    return get_default_graph().get_collection(key, scope)


def get_collection_ref(key):
    """The default graph's collection `key` itself (a list to modify in place)."""
    return get_default_graph().get_collection_ref(key)
