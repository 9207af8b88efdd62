"""tf.tuple: the same tensors, each available only once all of them are (TF1's control_flow_ops.tuple).

A module of its own because its TF1 name hides Python's tuple wherever it is defined."""
from ..framework.graph import get_default_graph
from .core_ops import group, identity


def tuple(tensors, name=None, control_inputs=None):  # noqa: A001 - TF1's name
    """The same tensors (None stays None), each available only once all of them (and control_inputs) are."""
    graph = get_default_graph()
    with graph.name_scope(name or "tuple"):
        gate = group(*[t for t in tensors if t is not None], *(control_inputs or ()))
        with graph.control_dependencies([gate]):
            return [None if t is None else identity(t) for t in tensors]
