"""tensorflow.python.ops.resources: the graph's resources (stateful objects with a create op and an
is-initialized op) in GraphKeys.RESOURCES and LOCAL_RESOURCES, and the ops that initialize and check them.

ringflow's own stateful objects are variables, so these collections hold only what a program registers.
"""
import collections

from ...framework import dtypes
from ...framework.graph import get_default_graph
from ...framework.graph_wrappers import name_scope
from ...framework.graph_keys import GraphKeys
from ...ops.core_ops import constant, group, no_op
from ...ops.cwise_ops import logical_not
from ...ops.segment_ops import boolean_mask
from ...ops.stack_ops import stack

Resource = collections.namedtuple("_Resource", ["handle", "create", "is_initialized"])


def register_resource(handle, create_op, is_initialized_op, is_shared=True):
    """Add a resource to GraphKeys.RESOURCES (shared) or GraphKeys.LOCAL_RESOURCES."""
    key = GraphKeys.RESOURCES if is_shared else GraphKeys.LOCAL_RESOURCES
    get_default_graph().add_to_collection(key, Resource(handle, create_op, is_initialized_op))


def shared_resources():
    """The resources shared between sessions (GraphKeys.RESOURCES)."""
    return get_default_graph().get_collection(GraphKeys.RESOURCES)


def local_resources():
    """The resources local to a session (GraphKeys.LOCAL_RESOURCES)."""
    return get_default_graph().get_collection(GraphKeys.LOCAL_RESOURCES)


def report_uninitialized_resources(resource_list=None, name="report_uninitialized_resources"):
    """A 1-D string tensor of the names of the resources not yet initialized (all registered ones by default)."""
    if resource_list is None:
        resource_list = shared_resources() + local_resources()
    with name_scope(name):
        if not resource_list:
            return constant([], dtype=dtypes.string)
        uninitialized = logical_not(stack([r.is_initialized for r in resource_list]))
        names = constant([r.handle.name for r in resource_list])
        return boolean_mask(names, uninitialized)


def initialize_resources(resource_list, name="init"):
    """One op running every resource's create op; a no-op for an empty list."""
    if resource_list:
        return group(*[r.create for r in resource_list], name=name)
    return no_op(name=name)
