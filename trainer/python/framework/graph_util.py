"""tf.graph_util (tensorflow.python.framework.graph_util): GraphDef surgery for serving, as TF1 does it: the
sub-graph that computes some nodes, variables frozen into constants, training-only nodes spliced out."""
import numpy as np

from ...framework import dtypes
from ...framework.node_def import AttrValue, GraphDef, NodeDef
from ...framework.operation import Operation
from ...framework.tensor_util import make_tensor_proto
from ...platform import tf_logging as logging
from ...unsupported import missing_names
from ..views import namespace_view

VARIABLE_OPS = ("Variable", "VariableV2", "VarHandleOp")


def _copy(node):
    out = NodeDef()
    out.CopyFrom(node)
    return out


def _set_inputs(node, inputs):
    del node.input[:]
    node.input.extend(inputs)


def _node_name(name):
    return name[1:] if name.startswith("^") else name.split(":")[0]


def extract_sub_graph(graph_def, dest_nodes):
    """The GraphDef of the nodes `dest_nodes` (a list of node names) need, through data and control inputs, in
    graph_def's order."""
    if not isinstance(graph_def, GraphDef):
        raise TypeError(f"graph_def must be a graph_pb2.GraphDef proto, got {type(graph_def).__name__}")
    if isinstance(dest_nodes, str):
        raise TypeError("dest_nodes must be an iterable of strings, got a single string: wrap it in a list")
    by_name = {node.name: node for node in graph_def.node}
    for name in dest_nodes:
        assert name in by_name, f"{name} is not in graph"
    keep, todo = set(), list(dest_nodes)
    while todo:
        name = todo.pop()
        if name not in keep:
            keep.add(name)
            todo.extend(_node_name(i) for i in by_name[name].input)
    return GraphDef(node=[_copy(node) for node in graph_def.node if node.name in keep])


def convert_variables_to_constants(sess, input_graph_def, output_node_names, variable_names_whitelist=None,
                                   variable_names_blacklist=None):
    """The sub-graph computing `output_node_names` with each variable (all, or those of the whitelist and not of
    the blacklist) replaced by a Const holding its value in `sess`: a graph to serve without a checkpoint."""
    graph = extract_sub_graph(input_graph_def, output_node_names)
    names = [node.name for node in graph.node if node.op in VARIABLE_OPS
             and (variable_names_whitelist is None or node.name in variable_names_whitelist)
             and (variable_names_blacklist is None or node.name not in variable_names_blacklist)]
    values = dict(zip(names, sess.run([f"{name}:0" for name in names]))) if names else {}
    nodes = []
    for node in graph.node:
        if node.name in values:
            value = np.asarray(values[node.name])
            dtype = node.attr["dtype"]
            node = NodeDef(name=node.name, op="Const", device=node.device, attr={
                "dtype": dtype, "value": AttrValue(tensor=make_tensor_proto(value, dtype=dtypes.as_dtype(
                    dtype.type), shape=value.shape))})
        nodes.append(node)
    logging.info("Converted %d variables to const ops.", len(values))
    return GraphDef(node=nodes)


def remove_training_nodes(input_graph, protected_nodes=None):
    """The GraphDef without CheckNumerics nodes and with Identity nodes spliced out (their consumers read what
    they read), except `protected_nodes` and nodes with control edges, which TF1 keeps too."""
    protected = set(protected_nodes or ())
    removed = {node.name for node in input_graph.node if node.op == "CheckNumerics" and node.name not in protected}
    nodes = []
    for node in input_graph.node:
        if node.name not in removed:
            node = _copy(node)
            _set_inputs(node, [i for i in node.input if i.lstrip("^") not in removed])
            nodes.append(node)
    controlled = {node.name for node in nodes if any(i.startswith("^") for i in node.input)}
    control_inputs = {i[1:] for node in nodes for i in node.input if i.startswith("^")}
    splice = {node.name: node.input[0] for node in nodes if node.op == "Identity" and node.name not in protected
              and node.name not in controlled and node.name not in control_inputs}
    out = []
    for node in nodes:
        if node.name in splice:
            continue
        inputs = []
        for full in node.input:
            while (full[1:] if full.startswith("^") else full) in splice:
                full = splice[full[1:] if full.startswith("^") else full]
            inputs.append(full)
        _set_inputs(node, inputs)
        out.append(node)
    return GraphDef(node=out)


def must_run_on_cpu(node, pin_variables_on_cpu=False):
    """Whether TF1 places this node (an Operation or NodeDef) on the CPU: int32 and string constants, int32
    stitches and casts from int32, and variables when pin_variables_on_cpu."""
    node_def = node.node_def if isinstance(node, Operation) else node
    if pin_variables_on_cpu and node_def.op in VARIABLE_OPS:
        return True
    key = {"Const": "dtype", "DynamicStitch": "T", "ParallelDynamicStitch": "T", "Cast": "SrcT"}.get(node_def.op)
    if key is None:
        return False
    if key not in node_def.attr and "T" in node_def.attr:  # ringflow's NodeDefs name a Const's dtype "T"
        key = "T"
    if key not in node_def.attr:
        return False
    dtype = dtypes.as_dtype(node_def.attr[key].type)
    return dtype == dtypes.int32 or node_def.op == "Const" and dtype == dtypes.string


def tensor_shape_from_node_def_name(graph, input_name):
    """The static shape of the tensor `input_name` ("node" for output 0, or "node:k") of `graph`."""
    name = input_name if ":" in input_name else input_name + ":0"
    return graph.get_tensor_by_name(name).get_shape()


# tf.graph_util.import_graph_def is tf.import_graph_def, which stands above this floor: read from the tg namespace
_TG_NAMES, _ = namespace_view(__name__, "")
_LACKS = missing_names(__name__, have="tf.graph_util has the GraphDef surgery above and import_graph_def")


def __getattr__(name):  # noqa: N807  (the module hook's name)
    if name == "import_graph_def":
        return _TG_NAMES(name)
    _LACKS(name)
