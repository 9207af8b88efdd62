"""The pieces TF's forms of ringflow's nodes are made of (tf_node_defs.py and its families: tf_state_nodes.py,
tf_random_nodes.py, tf_rnn_nodes.py): the "_" attrs that tell ringflow's import what export did, Consts and helper
nodes of TF's ops, and type attrs."""
import numpy as np

from ..framework.dtypes import as_dtype, int32
from ..framework.node_def import AttrValue, NodeDef, attr_value

ORIGINAL = "_ringflow_node"
ADDED = "_ringflow_added"
MOVED = "_ringflow_output_of"  # on an added node that computes another node's output ("x:1"), which TF's op lacks


def const(nodes, name, value, dtype=np.int32):
    """Append a Const of `value` (marked ADDED: ringflow's import skips it) to `nodes`; returns its name."""
    array = np.asarray(value, dtype=dtype)
    nodes.append(NodeDef(name=name, op="Const", attr={
        "value": attr_value(array), "dtype": AttrValue(type=as_dtype(array.dtype).as_datatype_enum),
        ADDED: AttrValue(b=True)}))
    return name


def type_attr(dtype):
    """A type attr ("T", "dtype") of `dtype`."""
    return AttrValue(type=as_dtype(dtype).as_datatype_enum)


def added(nodes, name, op_type, inputs, **attr):
    """A helper node of TF's ops that export adds (import skips it: ringflow's node keeps its own form)."""
    nodes.append(NodeDef(name=name, op=op_type, input=list(inputs), attr={**attr, ADDED: AttrValue(b=True)}))
    return name


def shape_node(nodes, name, tensor_name, dtype):
    """An added Shape (int32) of the tensor `tensor_name` of `dtype`."""
    return added(nodes, name, "Shape", [tensor_name], T=type_attr(dtype), out_type=type_attr(int32))
