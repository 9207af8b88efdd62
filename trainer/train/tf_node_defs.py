"""Nodes in the form TF's op definitions give them, so that TensorFlow imports the graphs ringflow exports.

Some ringflow ops keep as an attr what TF's op takes as an input (ConcatV2's axis, Reshape's shape, a summary's
tag) or name an attr otherwise (Cast's SrcT/DstT, Sum's keep_dims). Export rewrites those nodes into TF's form,
adding a Const node per such input (marked ADDED), and keeps the node as ringflow built it in the attr ORIGINAL;
TF ignores both "_" attrs, and ringflow's import uses the original and skips the added Consts. StridedSlice has no
original (its key may hold Python slices, which no attr holds): import reads its TF form back into a key, which
also reads the StridedSlice nodes TensorFlow writes.
"""
import numpy as np

from ..framework.dtypes import as_dtype, int32
from ..framework.node_def import AttrValue, NodeDef, attr_value

ORIGINAL = "_ringflow_node"
ADDED = "_ringflow_added"


def _const(nodes, name, value, dtype=np.int32):
    array = np.asarray(value, dtype=dtype)
    nodes.append(NodeDef(name=name, op="Const", attr={
        "value": attr_value(array), "dtype": AttrValue(type=as_dtype(array.dtype).as_datatype_enum),
        ADDED: AttrValue(b=True)}))
    return name


def _type(dtype):
    return AttrValue(type=as_dtype(dtype).as_datatype_enum)


def _attr_input(attr, input_name, index_attr=None):
    """An attr that TF's op takes as its next input (a Const), with the input's index dtype attr."""
    def rewrite(node, op, nodes):
        value = op.attrs.get(attr)
        if value is None:
            return False
        node.input.insert(len(op.inputs), _const(nodes, f"{node.name}/{input_name}", value))
        node.attr.pop(attr, None)
        if index_attr:
            node.attr[index_attr] = _type(int32)
        return True
    return rewrite


def _concat(node, op, nodes):
    if len(op.inputs) == 1:  # TF's concat of one tensor is an Identity: ConcatV2 takes at least two
        node.op = "Identity"
        node.attr.pop("axis", None)
        return True
    _attr_input("axis", "axis", "Tidx")(node, op, nodes)
    node.attr["N"] = AttrValue(i=len(op.inputs))
    return True


def _pack(node, op, nodes):
    node.attr["N"] = AttrValue(i=len(op.inputs))
    return True


def _gather(node, op, nodes):
    _attr_input("axis", "axis", "Taxis")(node, op, nodes)
    node.attr["Tparams"], node.attr["Tindices"] = _type(op.inputs[0].dtype), _type(op.inputs[1].dtype)
    return True


def _cast(node, op, nodes):
    node.attr["SrcT"], node.attr["DstT"] = _type(op.inputs[0].dtype), _type(op.outputs[0].dtype)
    return True


def _reduction(node, op, nodes):
    axis = op.attrs.get("axis")
    if axis is None:
        rank = op.inputs[0].shape.ndims
        if rank is None:
            return False
        axis = list(range(rank))
    node.input.insert(1, _const(nodes, f"{node.name}/reduction_indices", axis))
    node.attr["Tidx"] = _type(int32)
    node.attr["keep_dims"] = AttrValue(b=bool(op.attrs.get("keepdims", False)))
    return True


def _summary(input_name):
    def rewrite(node, op, nodes):
        node.input.insert(0, _const(nodes, f"{node.name}/{input_name}", op.attrs["tag"], dtype=object))
        node.attr.pop("tag", None)
        node.attr["T"] = _type(op.inputs[0].dtype)  # TF's T is the values' dtype, not the output's
        return True
    return rewrite


def _random_uniform(node, op, nodes):
    """TF's RandomUniform draws in [0, 1): the node becomes unit * (maxval - minval) + minval, by TF's ops."""
    if op.attrs.get("tensor_params"):
        return False
    dtype, low, high = op.outputs[0].dtype, op.attrs["minval"], op.attrs["maxval"]
    unit = NodeDef(name=f"{node.name}/unit", op="RandomUniform",
                   input=[_const(nodes, f"{node.name}/shape", list(op.attrs["shape"]))],
                   attr={"dtype": _type(dtype), "T": _type(int32), ADDED: AttrValue(b=True)})
    nodes.append(unit)
    scaled = NodeDef(name=f"{node.name}/mul", op="Mul", attr={"T": _type(dtype), ADDED: AttrValue(b=True)},
                     input=[unit.name, _const(nodes, f"{node.name}/range", high - low, dtype)])
    nodes.append(scaled)
    node.op = "AddV2"
    node.input[:] = [scaled.name, _const(nodes, f"{node.name}/min", low, dtype)]
    for key in [k for k in node.attr if not k.startswith("_")]:
        node.attr.pop(key)
    node.attr["T"] = _type(dtype)
    return True


def _fused_batch_norm(node, op, nodes):
    node.attr["U"] = _type(op.inputs[2].dtype)  # the statistics' and parameters' dtype (float32 for half images)
    return True


def _strided_slice(node, op, nodes):
    key = op.attrs["key"]
    if len(op.inputs) > 1:  # positions the run gives: TF would need them packed into begin/end; left as is
        return False
    begin, end, strides, masks = [], [], [], dict.fromkeys(("begin", "end", "ellipsis", "new_axis", "shrink_axis"), 0)
    for i, k in enumerate(key):
        b, e, s = 0, 0, 1
        if k is Ellipsis:
            masks["ellipsis"] |= 1 << i
        elif k is None:
            masks["new_axis"] |= 1 << i
        elif isinstance(k, slice):
            b, e, s = k.start or 0, k.stop or 0, 1 if k.step is None else k.step
            masks["begin"] |= (k.start is None) << i
            masks["end"] |= (k.stop is None) << i
        else:
            b, e = int(k), int(k) + 1
            masks["shrink_axis"] |= 1 << i
        begin.append(b), end.append(e), strides.append(s)
    node.input.extend(_const(nodes, f"{node.name}/{n}", v) for n, v in
                      (("begin", begin), ("end", end), ("strides", strides)))
    node.attr.pop("key", None)
    node.attr.pop("_ringflow_unwritten_attrs", None)
    node.attr["Index"] = _type(int32)
    for name, mask in masks.items():
        node.attr[f"{name}_mask"] = AttrValue(i=mask)
    return None  # no ORIGINAL: import reads the TF form


def _swap_inputs(node, op, nodes):
    """TF's TanhGrad and SigmoidGrad take (y, dy); ringflow's take (dy, y)."""
    node.input[0], node.input[1] = node.input[1], node.input[0]
    return True


TO_TF = {
    "ConcatV2": _concat, "Pack": _pack, "GatherV2": _gather, "Cast": _cast, "Sum": _reduction,
    "Mean": _reduction, "Max": _reduction, "Min": _reduction, "Prod": _reduction,
    "Reshape": _attr_input("shape", "shape", "Tshape"), "ArgMax": _attr_input("axis", "dimension", "Tidx"),
    "ArgMin": _attr_input("axis", "dimension", "Tidx"), "ExpandDims": _attr_input("axis", "dim", "Tdim"),
    "Tile": _attr_input("multiples", "multiples", "Tmultiples"), "ScalarSummary": _summary("tags"),
    "HistogramSummary": _summary("tag"), "RandomUniform": _random_uniform, "StridedSlice": _strided_slice,
    "FusedBatchNormV3": _fused_batch_norm, "FusedBatchNormGradV3": _fused_batch_norm,
    "TanhGrad": _swap_inputs, "SigmoidGrad": _swap_inputs,
}


DTYPE_NOT_T = {"PlaceholderWithDefault"}  # TF's op names its type attr "dtype"
# ops whose "T" is their input's dtype, where node_def writes the output's (ringflow's import ignores "T")
INPUT_TYPED = {"Shape", "Size", "Rank", "Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual",
               "ArgMax", "ArgMin", "IsNan", "IsInf", "IsFinite", "ZerosLike", "OnesLike"}


def to_tf_form(node, op, nodes):
    """Rewrite `node` (the NodeDef of `op`) into TF's form where TO_TF has a rule, appending added Consts and
    helper nodes to `nodes`; the node as ringflow built it goes into its ORIGINAL attr."""
    if node.op in INPUT_TYPED and op.inputs:
        node.attr["T"] = _type(op.inputs[0].dtype)
    if node.op in DTYPE_NOT_T and "T" in node.attr:
        node.attr["dtype"] = node.attr.pop("T")
    rule = TO_TF.get(node.op)
    if rule is None:
        return
    original = node.SerializeToString()
    rewritten = rule(node, op, nodes)
    if rewritten:
        node.attr[ORIGINAL] = AttrValue(s=original)


def from_tf_form(node):
    """The node as ringflow built it, where export kept it; else the node itself."""
    return NodeDef.FromString(node.attr[ORIGINAL].s) if ORIGINAL in node.attr else node


def strided_slice_key(node, constants):
    """A StridedSlice key from TF's form: begin/end/strides (Consts: {node name: array}) and the masks; None
    when a position is not a Const."""
    values = [constants.get(name.partition(":")[0]) for name in node.input[1:4]]
    if any(v is None for v in values):
        return None

    def mask(name):
        return node.attr[f"{name}_mask"].i if f"{name}_mask" in node.attr else 0
    key = []
    for i, (b, e, s) in enumerate(zip(*[np.asarray(v).ravel().tolist() for v in values])):
        bit = 1 << i
        if mask("ellipsis") & bit:
            key.append(Ellipsis)
        elif mask("new_axis") & bit:
            key.append(None)
        elif mask("shrink_axis") & bit:
            key.append(int(b))
        else:
            key.append(slice(None if mask("begin") & bit else int(b), None if mask("end") & bit else int(e),
                             int(s)))
    return tuple(key)


def _const_input(position, attr, what):
    """TF's input at `position` (a Const) as ringflow's attr `attr`: an int for a scalar, a tuple for a vector."""
    def rule(node, data, attrs, constants):
        name = data[position].partition(":")[0]
        if name not in constants:
            raise NotImplementedError(f"import: {node.op} {node.name!r} takes its {what} from {data[position]!r}, "
                                      "which is not a constant; ringflow's op needs it while the graph is built")
        value = np.asarray(constants[name])
        attrs[attr] = int(value) if value.ndim == 0 else tuple(int(v) for v in value.ravel())
        return data[:position] + data[position + 1:], attrs
    return rule


def _tf_reduction(node, data, attrs, constants):
    """Constant reduction indices become the axis attr; computed ones (TF's gradient graphs) stay an input."""
    if data[1].partition(":")[0] in constants:
        data, attrs = _const_input(1, "axis", "reduction indices")(node, data, attrs, constants)
    else:
        attrs["axis"] = None
    attrs["keepdims"] = bool(attrs.pop("keep_dims", False))
    return data, attrs


def _tf_tensor_input(attr):
    """An input ringflow's op also takes as a tensor when its attr is None (Reshape's shape, Tile's multiples)."""
    def rule(node, data, attrs, constants):
        attrs[attr] = None
        return data, attrs
    return rule


def _tf_cast(node, data, attrs, constants):
    attrs["dtype"] = attrs.pop("DstT")
    return data, attrs


def _tf_squeeze(node, data, attrs, constants):
    axis = attrs.pop("squeeze_dims", None)
    attrs["axis"] = tuple(axis) if axis else None
    return data, attrs


def _tf_drop(*names):
    """Attrs of a resource-variable op that the reference variable's op it is rebuilt as does not take."""
    def rule(node, data, attrs, constants):
        return data, {k: v for k, v in attrs.items() if k not in names}
    return rule


def _tf_one_hot(node, data, attrs, constants):
    """TF's depth, on_value and off_value are inputs, which ringflow's op also takes; its dtype is TF's T."""
    depth = constants.get(data[1].partition(":")[0])
    attrs = {"axis": attrs.get("axis", -1), "depth": None if depth is None else int(depth), "on_value": None,
             "off_value": None, "dtype": as_dtype(node.attr["T"].type)}
    return data, attrs


def _tf_adam(node, data, attrs, constants):
    if attrs.pop("use_nesterov", False):
        raise NotImplementedError(f"import: {node.op} {node.name!r} uses Nesterov momentum, which ringflow's Adam "
                                  "lacks; rebuild the graph in Python with an optimizer ringflow has")
    return data, attrs


FROM_TF = {  # op type: (the attr ringflow's op holds and TF's lacks, the rule giving it)
    "Cast": ("dtype", _tf_cast), "Reshape": ("shape", _tf_tensor_input("shape")),
    "Tile": ("multiples", _tf_tensor_input("multiples")), "Squeeze": ("axis", _tf_squeeze),
    **{op: ("keepdims", _tf_reduction) for op in ("Sum", "Mean", "Max", "Min", "Prod", "Any", "All")},
    "ConcatV2": ("axis", lambda node, data, attrs, constants: _const_input(len(data) - 1, "axis", "axis")(
        node, data, attrs, constants)),
    "GatherV2": ("axis", _const_input(2, "axis", "axis")), "ArgMax": ("axis", _const_input(1, "axis", "dimension")),
    "ArgMin": ("axis", _const_input(1, "axis", "dimension")),
    "ExpandDims": ("axis", _const_input(1, "axis", "dimension")),
    "Transpose": ("axes", _const_input(1, "axes", "permutation")),
    "ResourceGather": ("axis", lambda node, data, attrs, constants: (
        data, {**{k: v for k, v in attrs.items() if k not in ("dtype", "batch_dims", "validate_indices")}, "axis": 0})),
    "ReadVariableOp": (None, _tf_drop("dtype")), "AssignVariableOp": (None, _tf_drop("dtype", "validate_shape")),
    "AssignAddVariableOp": (None, _tf_drop("dtype")), "AssignSubVariableOp": (None, _tf_drop("dtype")),
    "TanhGrad": (None, lambda node, data, attrs, constants: (data[::-1], attrs)),
    "SigmoidGrad": (None, lambda node, data, attrs, constants: (data[::-1], attrs)),
    "VarIsInitializedOp": (None, _tf_drop()), "OneHot": ("dtype", _tf_one_hot), "ApplyAdam": (None, _tf_adam), "ResourceApplyAdam": (None, _tf_adam),
}


def from_tf_inputs(node, data, attrs, constants):
    """(data inputs, attrs) of a node TensorFlow wrote (ringflow's own carry their ORIGINAL and never come here),
    as ringflow's op takes them where the two differ (the inverse of TO_TF: Const inputs become attrs, TF's attr
    names ringflow's, TF's input order). A node in ringflow's form (it has the attr: ringflow writes some ops, whose
    TO_TF rule declined, in its own form) is left as it is."""
    held, rule = FROM_TF.get(node.op, (None, None))
    if rule is None or held in attrs:
        return data, attrs
    return rule(node, list(data), dict(attrs), constants)
