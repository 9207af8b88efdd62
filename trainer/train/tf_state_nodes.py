"""ringflow's ops that read the session's state or check a step, in the TF ops that compute the same, so that
TensorFlow imports the graphs `ringflow train` saves, and ringflow's import rebuilds them from those ops (their
Python attrs, a list of Variables or a gradient check, are no data a GraphDef holds):

    ReportUninitializedVariables  TF1's report_uninitialized_variables: the names' Const masked by
                                  LogicalNot(Pack(IsVariableInitialized(v) ...)) (Where, Squeeze, GatherV2)
    AssertVariablesInitialized    TF1's assert_variables_initialized: Assert(All(Pack(IsVariableInitialized...)))
    CheckGradientsFinite          All(Pack(All(IsFinite(g)) ...)), as tf.debugging's checks; under the "raise"
                                  policy an Identity of it that runs after an Assert naming the gradients

and the attrs TF's op definitions require: a queue's shapes as TF's list (both ways), its enqueue ops' component
types, and none for a variable of a shape not fully known (TF's VariableV2 takes no partial shape).
"""
import numpy as np

from ..framework.dtypes import as_dtype, bool as bool_, int32, int64, string
from ..framework.node_def import AttrValue, NodeDef, attr_value
from ..framework.tensor_shape import TensorShape, TensorShapeProto
from .tf_nodes import ADDED, type_attr

_KEPT = ("_output_shapes",)  # what the node keeps of its "_" attrs: the rest told import of attrs it now lacks


def _node(nodes, name, op_type, inputs, **attr):
    """A node import builds, as TensorFlow does (not ADDED: ringflow's op has no form of its own to keep)."""
    nodes.append(NodeDef(name=name, op=op_type, input=list(inputs), attr=attr))
    return name


def _const(nodes, name, value, dtype, built=True):
    array = np.asarray(value, dtype=as_dtype(dtype).as_numpy_dtype)
    attr = {"value": attr_value(array), "dtype": type_attr(dtype), **({} if built else {ADDED: AttrValue(b=True)})}
    nodes.append(NodeDef(name=name, op="Const", attr=attr))
    return name


def _become(node, op_type, inputs, **attr):
    """Rewrite `node` in place as TF's `op_type`; returns None: no ORIGINAL, import reads this form."""
    node.op = op_type
    node.input[:] = list(inputs) + [i for i in node.input if i.startswith("^")]
    for key in [k for k in node.attr if k not in _KEPT]:
        node.attr.pop(key)
    node.attr.update(attr)


def _initialized(node, op, nodes):
    """The IsVariableInitialized nodes of the op's variables, Packed: TF1's mask of which are set."""
    flags = [_node(nodes, f"{node.name}/IsVariableInitialized" + (f"_{k}" if k else ""), "IsVariableInitialized",
                   [v.op.name], dtype=type_attr(v.dtype)) for k, v in enumerate(op.attrs["var_list"])]
    return _node(nodes, f"{node.name}/stack", "Pack", flags, N=AttrValue(i=len(flags)), T=type_attr(bool_),
                 axis=AttrValue(i=0))


def _report_uninitialized(node, op, nodes):
    variables = op.attrs["var_list"]
    if not variables:
        _become(node, "Const", [], value=attr_value(np.array([], dtype=object)), dtype=type_attr(string))
        return None
    unset = _node(nodes, f"{node.name}/LogicalNot", "LogicalNot", [_initialized(node, op, nodes)])
    names = _const(nodes, f"{node.name}/Const", [v.op.name.encode() for v in variables], string)
    where = _node(nodes, f"{node.name}/boolean_mask/Where", "Where", [unset], T=type_attr(bool_))
    positions = _node(nodes, f"{node.name}/boolean_mask/Squeeze", "Squeeze", [where], T=type_attr(int64),
                      squeeze_dims=AttrValue(list=AttrValue.ListValue(i=[1])))
    axis = _const(nodes, f"{node.name}/boolean_mask/axis", 0, int32, built=False)
    _become(node, "GatherV2", [names, positions, axis], Tparams=type_attr(string), Tindices=type_attr(int64),
            Taxis=type_attr(int32), batch_dims=AttrValue(i=0))
    return None


def _all(nodes, name, flags, axis):
    return _node(nodes, name, "All", [flags, axis], Tidx=type_attr(int32), keep_dims=AttrValue(b=False))


def _assert_initialized(node, op, nodes):
    if not op.attrs["var_list"]:
        _become(node, "NoOp", [])
        return None
    every = _all(nodes, f"{node.name}/All", _initialized(node, op, nodes),
                 _const(nodes, f"{node.name}/axis", 0, int32, built=False))
    message = _const(nodes, f"{node.name}/Const", "Attempting to use uninitialized value(s): run their initializers "
                     "(tf.global_variables_initializer()) first", string)
    _become(node, "Assert", [every, message], T=AttrValue(list=AttrValue.ListValue(type=[string.as_datatype_enum])),
            summarize=AttrValue(i=3))
    return None


def _check_gradients_finite(node, op, nodes):
    check = op.attrs["check"]
    names = list(getattr(check, "names", ()))
    gradients = op.inputs[:len(names)]  # the global step, when given, comes last
    flat = _const(nodes, f"{node.name}/flat", [-1], int32)  # a Reshape reads its shape as a tensor
    axis = _const(nodes, f"{node.name}/axis", 0, int32, built=False)
    flags = []
    for k, (name, g) in enumerate(zip(node.input, gradients)):
        finite = _node(nodes, f"{node.name}/IsFinite_{k}", "IsFinite", [name], T=type_attr(g.dtype))
        flat_k = _node(nodes, f"{node.name}/Reshape_{k}", "Reshape", [finite, flat], T=type_attr(bool_),
                       Tshape=type_attr(int32))
        flags.append(_all(nodes, f"{node.name}/All_{k}", flat_k, axis))
    stack = _node(nodes, f"{node.name}/stack", "Pack", flags, N=AttrValue(i=len(flags)), T=type_attr(bool_),
                  axis=AttrValue(i=0))
    if getattr(check, "policy", "raise") != "raise":
        _become(node, "All", [stack, axis], Tidx=type_attr(int32), keep_dims=AttrValue(b=False))
        return None
    finite = _all(nodes, f"{node.name}/all", stack, axis)
    message = _const(nodes, f"{node.name}/message", f"non-finite gradient: one of the gradients of {names!r} holds "
                     "NaN or inf; no variable was updated", string)
    guard = _node(nodes, f"{node.name}/Assert", "Assert", [finite, message], summarize=AttrValue(i=3),
                  T=AttrValue(list=AttrValue.ListValue(type=[string.as_datatype_enum])))
    _become(node, "Identity", [finite, f"^{guard}"], T=type_attr(bool_))
    return None


def _enqueue(node, op, nodes):
    """TF's enqueue ops name their components' types (Tcomponents); ringflow's node carries none."""
    node.attr.pop("T", None)
    node.attr["Tcomponents"] = AttrValue(list=AttrValue.ListValue(type=[t.dtype.as_datatype_enum
                                                                       for t in op.inputs[1:]]))
    return True


def _variable(node, op, nodes):
    """TF's VariableV2 takes a fully defined shape, or none (validate_shape=False: its first Assign sets it)."""
    if op.outputs[0].shape.is_fully_defined() or "shape" not in node.attr:
        return False
    node.attr["shape"] = AttrValue(shape=TensorShapeProto(unknown_rank=True))
    return True


def _assign(node, op, nodes):
    """An Assign to such a variable sets its shape: TF checks none (validate_shape=False), as its Saver's do."""
    if op.inputs[0].shape.is_fully_defined():
        return False
    node.attr["validate_shape"] = AttrValue(b=False)
    return True


QUEUES = ("FIFOQueueV2", "RandomShuffleQueueV2", "PaddingFIFOQueueV2", "PriorityQueueV2")


def _queue(node, op, nodes):
    """A queue's shapes as TF's list of shapes (none where a component's is unknown): ringflow's hold tuples, which
    no AttrValue does, so the node keeps no ringflow form and import reads TF's (queue_shapes)."""
    shapes = op.attrs["shapes"]
    known = [] if any(s is None for s in shapes) else [TensorShape(s).as_proto() for s in shapes]
    node.attr["shapes"] = AttrValue(list=AttrValue.ListValue(shape=known))
    for key in [k for k in node.attr if k.startswith("_ringflow")]:
        node.attr.pop(key)
    return None


def queue_shapes(node, data, attrs, constants):
    """A queue TensorFlow wrote (or ringflow in TF's form): its list of shapes as ringflow's tuple of them."""
    shapes = [TensorShape(s) for s in attrs.get("shapes") or ()]
    count = len(attrs["component_types"])
    shapes = [None if s.ndims is None else tuple(s.as_list()) for s in shapes] or [None] * count
    return data, dict(attrs, shapes=tuple(shapes))


STATE_TO_TF = {"VariableV2": _variable, "Assign": _assign, **dict.fromkeys(QUEUES, _queue),
               "ReportUninitializedVariables": _report_uninitialized, "AssertVariablesInitialized": _assert_initialized,
               "CheckGradientsFinite": _check_gradients_finite, "QueueEnqueueV2": _enqueue,
               "QueueEnqueueManyV2": _enqueue}
STATE_FROM_TF = dict.fromkeys(QUEUES, (None, queue_shapes))  # as FROM_TF
