"""An Operation as TF1 describes it: `op.node_def` (a NodeDef: name, op, input, device, attr), its protobuf text
format (`str(op)`), and `graph.as_graph_def()` (a GraphDef of every node).

Separate from operation.py because it is presentation only: nothing builds or runs a graph through it. These
are plain Python objects with the fields TF1 programs read; the event files' wire messages are summary/protos.py.
"""
import numpy as np

from .dtypes import DType, as_dtype
from .tensor import format_shape


class AttrValue:
    """One attribute of a node, as TF1's AttrValue message: one of s, i, f, b, type, shape, tensor, list is set
    (WhichOneof("value") names it); the others read as their defaults."""

    _DEFAULTS = {"s": b"", "i": 0, "f": 0.0, "b": False, "type": 0, "shape": None, "tensor": None, "list": None}

    def __init__(self, **field):
        if len(field) > 1 or not set(field) <= set(self._DEFAULTS):
            raise ValueError(f"AttrValue takes one of {sorted(self._DEFAULTS)}, got {sorted(field)}")
        self._which = next(iter(field), None)
        for name, default in self._DEFAULTS.items():
            setattr(self, name, field.get(name, default))

    def WhichOneof(self, group):  # noqa: N802 - protobuf's name
        if group != "value":
            raise ValueError(f"AttrValue has one oneof group, 'value'; got {group!r}")
        return self._which

    def __eq__(self, other):
        which = self._which or "s"
        return isinstance(other, AttrValue) and self._which == other._which and \
            _same(getattr(self, which), getattr(other, which))

    def __str__(self):
        value = getattr(self, self._which) if self._which else None
        if self._which == "type":
            name = as_dtype(value).name
            return "type: DT_" + {"float32": "FLOAT", "float64": "DOUBLE", "float16": "HALF"}.get(name, name.upper())
        if self._which == "b":
            return f"b: {str(value).lower()}"
        if self._which == "s":
            return f's: "{value.decode("utf-8", "replace")}"'
        if self._which == "tensor":
            return f"tensor {{ dtype: {str(AttrValue(type=as_dtype(value.dtype).as_datatype_enum))[6:]} " \
                   f"shape: {format_shape(value.shape)} }}"
        if self._which == "list":
            return f"list: {value!r}"
        return f"{self._which}: {value}" if self._which else ""

    __repr__ = __str__


def attr_value(value):
    """A Python attribute value (an op's attrs) as an AttrValue."""
    if isinstance(value, bool):
        return AttrValue(b=value)
    if isinstance(value, (DType, np.dtype)):
        return AttrValue(type=as_dtype(value).as_datatype_enum)
    if isinstance(value, int):
        return AttrValue(i=value)
    if isinstance(value, float):
        return AttrValue(f=value)
    if isinstance(value, str):
        return AttrValue(s=value.encode("utf-8"))
    if isinstance(value, np.ndarray):
        return AttrValue(tensor=value)
    return AttrValue(list=value)


class NodeDef:
    """A node of a graph as TF1's NodeDef message: name, op (the type), input ("name:i", "^name" for control
    inputs), device and attr (a dict of AttrValue); str() is its protobuf text format."""

    def __init__(self, name="", op="", input=(), device="", attr=None):  # noqa: A002 - the message's field
        self.name, self.op, self.input, self.device = name, op, list(input), device
        self.attr = dict(attr or {})

    def __eq__(self, other):
        return isinstance(other, NodeDef) and (self.name, self.op, self.input, self.device, self.attr) == \
            (other.name, other.op, other.input, other.device, other.attr)

    def __str__(self):
        lines = [f'name: "{self.name}"', f'op: "{self.op}"'] + [f'input: "{i}"' for i in self.input]
        lines += [f'device: "{self.device}"'] if self.device else []
        for key, value in self.attr.items():
            lines += ["attr {", f'  key: "{key}"', "  value {", f"    {value}", "  }", "}"]
        return "\n".join(lines) + "\n"

    __repr__ = __str__


class GraphDef:
    """Every node of a graph, in creation order (`graph_def.node`), as TF1's GraphDef message."""

    def __init__(self, node=()):
        self.node = list(node)

    def __eq__(self, other):
        return isinstance(other, GraphDef) and self.node == other.node

    def __str__(self):
        return "".join("node {\n" + "".join(f"  {line}\n" for line in str(n).splitlines()) + "}\n"
                       for n in self.node)

    __repr__ = __str__


def node_def(op):
    """`op` as a NodeDef: its inputs by tensor name ("name" for output 0), control inputs as "^name", and its
    attributes, with "T" (the output dtype) where the op has no "dtype" attribute, as TF1's ops carry one."""
    inputs = [t.op.name if t.value_index == 0 else t.name for t in op.inputs]
    attrs = {"T": op.outputs[0].dtype} if op.outputs and "dtype" not in op.attrs else {}
    attrs.update(sorted(op.attrs.items()))
    return NodeDef(op.name, op.type, inputs + [f"^{c.name}" for c in op.control_inputs], op.device,
                   {key: attr_value(value) for key, value in attrs.items()})


def node_def_text(op):
    """`op`'s name, type, inputs and attributes in protobuf text format, one field a line (TF1's str(op))."""
    return str(node_def(op))


def graph_def(graph, add_shapes=False):
    """A GraphDef of every operation of `graph`; add_shapes gives each node "_output_shapes", its outputs'
    static shapes."""
    nodes = []
    for op in graph.get_operations():
        nodes.append(node_def(op))
        if add_shapes:
            nodes[-1].attr["_output_shapes"] = AttrValue(list=[t.shape for t in op.outputs])
    return GraphDef(nodes)


def _attr_text(value):
    return str(attr_value(value))


def _same(a, b):
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and np.array_equal(a, b)
    return a == b
