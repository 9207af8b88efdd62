"""ringflow's paddings in TF's forms, both ways. ringflow's Pad, PadV2 and MirrorPad keep paddings known while
building (and PadV2's constant) as attrs, TF's take them as inputs; ringflow's PadGrad is TF's gradient of a pad:
a Slice of the gradient from the paddings before each dimension, x's shape long (CONSTANT), or MirrorPadGrad. The
paddings are pairs, which no AttrValue holds, so these nodes keep no ringflow form: import reads TF's."""
import numpy as np

from ..framework.dtypes import as_dtype, int32
from ..framework.node_def import AttrValue, NodeDef, attr_value
from .tf_nodes import type_attr


def _node(nodes, name, op_type, inputs, **attr):  # a node import builds: these nodes keep no ringflow form
    nodes.append(NodeDef(name=name, op=op_type, input=list(inputs), attr=attr))
    return name


def _const(nodes, name, value, dtype=np.int32):
    array = np.asarray(value, dtype=dtype)
    return _node(nodes, name, "Const", [], value=attr_value(array), dtype=type_attr(array.dtype))


def _paddings(node, op, nodes, position):
    """The paddings input: a Const of the attr, or the tensor ringflow's op was given (its input `position`)."""
    pairs = op.attrs["paddings"]
    if pairs is None:
        return node.input[position]
    return _const(nodes, f"{node.name}/paddings", np.asarray(pairs, dtype=np.int32).reshape(-1, 2))


def _rewrite(node, op_type, inputs, **attr):
    node.op = op_type
    node.input[:] = list(inputs) + [i for i in node.input if i.startswith("^")]
    for key in [k for k in node.attr if k != "_output_shapes"]:
        node.attr.pop(key)
    node.attr.update(attr)


def _pad(node, op, nodes):
    dtype = op.outputs[0].dtype
    inputs = [node.input[0], _paddings(node, op, nodes, 1)]
    if node.op == "PadV2":
        inputs.append(_const(nodes, f"{node.name}/constant_values", op.attrs["constant_values"],
                             as_dtype(dtype).as_numpy_dtype))
    mode = {"mode": AttrValue(s=op.attrs["mode"].encode())} if node.op == "MirrorPad" else {}
    _rewrite(node, node.op, inputs, T=type_attr(dtype), Tpaddings=type_attr(int32), **mode)
    return None


def _pad_grad(node, op, nodes):
    """ringflow's PadGrad(g, x[, paddings]) as TF's gradient of the pad."""
    g, x = node.input[:2]
    dtype, pairs, mode = op.outputs[0].dtype, op.attrs["paddings"], op.attrs["mode"]
    if mode != "CONSTANT":
        _rewrite(node, "MirrorPadGrad", [g, _paddings(node, op, nodes, 2)], T=type_attr(dtype),
                 Tpaddings=type_attr(int32), mode=AttrValue(s=mode.encode()))
        return None
    if pairs is not None:
        begin = _const(nodes, f"{node.name}/begin", [before for before, _ in pairs])
    else:  # TF's: Reshape(Slice(paddings, [0, 0], [rank, 1]), [-1])
        rank = op.inputs[1].shape.ndims
        if rank is None:
            return False
        column = _node(nodes, f"{node.name}/before", "Slice", [
            node.input[2], _const(nodes, f"{node.name}/at", [0, 0]), _const(nodes, f"{node.name}/column", [rank, 1])],
            T=type_attr(int32), Index=type_attr(int32))
        begin = _node(nodes, f"{node.name}/begin", "Reshape", [column, _const(nodes, f"{node.name}/flat", [-1])],
                      T=type_attr(int32), Tshape=type_attr(int32))
    size = _node(nodes, f"{node.name}/size", "Shape", [x], T=type_attr(op.inputs[1].dtype), out_type=type_attr(int32))
    _rewrite(node, "Slice", [g, begin, size], T=type_attr(dtype), Index=type_attr(int32))
    return None


PAD_TO_TF = {"Pad": _pad, "PadV2": _pad, "MirrorPad": _pad, "PadGrad": _pad_grad}


def _tf_pad(node, data, attrs, constants):
    """TF's pad of a Const paddings input (or a tensor one) as ringflow's op, with TF's mode and constant."""
    mode = attrs.get("mode", "CONSTANT")
    mode = mode.decode() if isinstance(mode, bytes) else mode
    dtype = as_dtype(node.attr["T"].type).as_numpy_dtype
    value = np.zeros((), dtype)
    if node.op == "PadV2":
        known = constants.get(data[2].partition(":")[0])
        if known is None:
            raise NotImplementedError(f"import: PadV2 {node.name!r} pads with a value a run computes, which "
                                      "ringflow's op needs while the graph is built")
        value, data = np.asarray(known, dtype), data[:2]
    known = constants.get(data[1].partition(":")[0])
    pairs = None if known is None else tuple((int(a), int(b)) for a, b in np.asarray(known).reshape(-1, 2))
    return (data if pairs is None else data[:1]), {"paddings": pairs, "mode": mode, "constant_values": value}


def _tf_mirror_pad_grad(node, data, attrs, constants):
    mode = attrs.get("mode", "REFLECT")
    return data, {"mode": mode.decode() if isinstance(mode, bytes) else mode}


PAD_FROM_TF = {**dict.fromkeys(("Pad", "PadV2", "MirrorPad"), ("paddings", _tf_pad)),
               "MirrorPadGrad": (None, _tf_mirror_pad_grad)}
