"""An Operation as TF1 describes it: `op.node_def` (a NodeDef: name, op, input, device, attr), its protobuf text
format (`str(op)`), and a GraphDef of every node (`graph.as_graph_def()`, in TF's node forms when train/ has
registered its writer), the messages of TF's node_def.proto,
attr_value.proto and graph.proto with their field numbers, so the summary writer serializes this GraphDef for
TensorBoard's graph tab.

Separate from operation.py because it is presentation only: nothing builds or runs a graph through it.
"""
import numpy as np

from ..platform.protobuf import Field, Message
from .dtypes import DType, as_dtype
from .tensor_shape import TensorShape, TensorShapeProto
from .tensor_util import DATA_TYPE_NAMES, TensorProto, make_tensor_proto


class AttrValue(Message):
    """One attribute of a node: one of s, i, f, b, type, shape, tensor, list is set (WhichOneof("value") names it);
    the others read as their defaults."""

    class ListValue(Message):
        FIELDS = {"s": Field(2, "bytes", repeated=True), "i": Field(3, "int64", repeated=True),
                  "f": Field(4, "float", repeated=True), "b": Field(5, "bool", repeated=True),
                  "type": Field(6, "enum", repeated=True, names=DATA_TYPE_NAMES),
                  "shape": Field(7, "message", TensorShapeProto, repeated=True),
                  "tensor": Field(8, "message", TensorProto, repeated=True)}

    FIELDS = {"list": Field(1, "message", ListValue, oneof="value"), "s": Field(2, "bytes", oneof="value"),
              "i": Field(3, "int64", oneof="value"), "f": Field(4, "float", oneof="value"),
              "b": Field(5, "bool", oneof="value"), "type": Field(6, "enum", oneof="value", names=DATA_TYPE_NAMES),
              "shape": Field(7, "message", TensorShapeProto, oneof="value"),
              "tensor": Field(8, "message", TensorProto, oneof="value"),
              "placeholder": Field(9, "string", oneof="value")}


class NodeDef(Message):
    """A node of a graph: name, op (the type), input ("name:i", "^name" for control inputs), device and attr (a
    map of AttrValue); str() is its protobuf text format."""
    FIELDS = {"name": Field(1, "string"), "op": Field(2, "string"), "input": Field(3, "string", repeated=True),
              "device": Field(4, "string"), "attr": Field(5, "map", AttrValue, key="string")}


class VersionDef(Message):
    """Which version of TF wrote a graph or a checkpoint, and which versions read it (versions.proto)."""
    FIELDS = {"producer": Field(1, "int32"), "min_consumer": Field(2, "int32"),
              "bad_consumers": Field(3, "int32", repeated=True)}


class GraphDef(Message):
    """Every node of a graph, in creation order (`graph_def.node`); `versions` as the graph's writer set it
    (ringflow's graphs leave it unset)."""
    FIELDS = {"node": Field(1, "message", NodeDef, repeated=True), "versions": Field(4, "message", VersionDef)}


def _scalar_attr(value):
    if isinstance(value, (bool, np.bool_)):
        return {"b": bool(value)}
    if isinstance(value, (DType, np.dtype)) or (isinstance(value, type) and issubclass(value, np.generic)):
        return {"type": as_dtype(value).as_datatype_enum}
    if isinstance(value, (int, np.integer)):
        return {"i": int(value)}
    if isinstance(value, (float, np.floating)):
        return {"f": float(value)}
    if isinstance(value, (str, bytes)):
        return {"s": value.encode("utf-8") if isinstance(value, str) else value}
    if isinstance(value, TensorShape):
        return {"shape": value.as_proto()}
    return None


def attr_value(value):
    """A Python attribute value (an op's attrs) as an AttrValue, or None for one TF has no AttrValue for (a
    function, a sub-graph)."""
    if isinstance(value, np.ndarray):
        try:
            return AttrValue(tensor=make_tensor_proto(value))
        except TypeError:
            return None
    scalar = _scalar_attr(value)
    if scalar is not None:
        return AttrValue(**scalar)
    if not isinstance(value, (list, tuple)):
        return None
    items = [_scalar_attr(v) for v in value]
    kinds = {next(iter(item)) for item in items if item is not None}
    if None in items or len(kinds) > 1:
        if kinds == {"i", "f"} and None not in items:  # a list of numbers: floats, as TF's list(float)
            return AttrValue(list=AttrValue.ListValue(f=[float(v) for v in value]))
        return None
    return AttrValue(list=AttrValue.ListValue(**{kind: [next(iter(item.values())) for item in items]
                                                 for kind in kinds}))


def node_def(op):
    """`op` as a NodeDef: its inputs by tensor name ("name" for output 0), control inputs as "^name", and its
    attributes, with "T" (the output dtype; a Const's "dtype") where the op has no "dtype" or "dtypes" attribute,
    as TF1's ops carry one."""
    inputs = [t.op.name if t.value_index == 0 else t.name for t in op.inputs]
    # an op with several output dtypes ("dtypes": RestoreV2) has no "T" in TF's op definition; a Const declares
    # its "dtype" beside its value
    typed = op.outputs and "dtype" not in op.attrs and "dtypes" not in op.attrs
    attrs = {"dtype" if op.type == "Const" else "T": op.outputs[0].dtype} if typed else {}
    attrs.update(sorted(op.attrs.items()))
    values = {key: attr_value(value) for key, value in attrs.items()}
    return NodeDef(name=op.name, op=op.type, input=inputs + [f"^{c.name}" for c in op.control_inputs],
                   device=op.device, attr={key: value for key, value in values.items() if value is not None})


def node_def_text(op):
    """`op`'s name, type, inputs and attributes in protobuf text format, one field a line (TF1's str(op))."""
    return str(node_def(op))


GRAPH_DEF_WRITERS = []  # writer(graph, add_shapes) -> GraphDef in TF's node forms; see register_graph_def_writer


def register_graph_def_writer(writer):
    """Make `writer(graph, add_shapes)` what Graph.as_graph_def returns: train/'s export, which writes ringflow's
    nodes as TF's ops (it stands above this floor, as TF1's export does above its framework)."""
    GRAPH_DEF_WRITERS[:] = [writer]


def tf_graph_def(graph, add_shapes=False):
    """Graph.as_graph_def: the graph in TF's node forms by the registered writer, else ringflow's own nodes."""
    return (GRAPH_DEF_WRITERS[0] if GRAPH_DEF_WRITERS else graph_def)(graph, add_shapes)


def graph_def(graph, add_shapes=False):
    """A GraphDef of every operation of `graph` as ringflow built it; add_shapes gives each node
    "_output_shapes", its outputs' static shapes."""
    nodes = []
    for op in graph.get_operations():
        nodes.append(node_def(op))
        if add_shapes and op.outputs:
            shapes = AttrValue.ListValue(shape=[TensorShape(t.shape).as_proto() for t in op.outputs])
            nodes[-1].attr["_output_shapes"] = AttrValue(list=shapes)
    return GraphDef(node=nodes)
