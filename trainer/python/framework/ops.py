"""tensorflow.python.framework.ops: the graph's core names by the path TF1 programs import them from
(`from tensorflow.python.framework import ops; ops.reset_default_graph()`, as the TF1 cookbooks write)."""
from ...framework.graph import Graph, get_default_graph, reset_default_graph
from ...framework.graph_keys import GraphKeys
from ...framework.graph_wrappers import (add_to_collection, add_to_collections, colocate_with, control_dependencies,
                                         device, get_collection, get_collection_ref, get_name_scope, name_scope)
from ...framework.operation import Operation
from ...framework.stacks import get_default_session
from ...framework.tensor import Tensor
from ...ops.core_ops import convert_to_tensor
from ...unsupported import missing_names

__getattr__ = missing_names(
    __name__, have="it has Graph, Tensor, Operation, GraphKeys, get_default_graph, reset_default_graph, "
    "convert_to_tensor, name_scope, control_dependencies, device, colocate_with and the collection functions")
