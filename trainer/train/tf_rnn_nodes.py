"""ringflow's fused LSTM ops in TF's layouts. TF's LSTMBlockCell, LSTMBlockCellGrad, BlockLSTM and BlockLSTMGrad
always take the peephole weights wci, wcf and wco (TF1's cells feed zeros without peepholes); ringflow's take them
only with use_peephole. Export gives TF's op three zero vectors in their place, and TF's "no clipping" (a cell_clip
<= 0) for ringflow's None; ringflow's node keeps its own form for its import, which reads TF's back.

BlockLSTMGrad's outputs differ too: TF's are (x, cs_prev, h_prev, w, wci, wcf, wco, b)'s gradients, ringflow's
(cs_prev, h_prev, w, b, the gates' gradients dicfo, peepholes'), x's gradient being the matmul of dicfo that
ringflow's gradient rule adds (Reshape, MatMul, Reshape). The consumers of each output read TF's through an
Identity, what reads the rule's last Reshape reads TF's x gradient (after that Reshape, so that the rule's nodes
stay in a frozen graph for ringflow's import), and the rule's first Reshape reads zeros of dicfo's shape.
"""
import numpy as np

from ..framework.dtypes import as_dtype, int32
from ..framework.node_def import AttrValue
from ..framework.tensor_shape import TensorShape
from .tf_nodes import MOVED, added, const, shape_node, type_attr

# where the peephole weights go among TF's inputs (after w), and how many data inputs TF's op takes
PEEPHOLES_AT = {"LSTMBlockCell": 4, "LSTMBlockCellGrad": 4, "BlockLSTM": 5, "BlockLSTMGrad": 5}
TF_INPUTS = {"LSTMBlockCell": 8, "LSTMBlockCellGrad": 16, "BlockLSTM": 9, "BlockLSTMGrad": 18}
SHAPES = "_output_shapes"
TF_GRAD_OUTPUT = {0: 1, 1: 2, 2: 3, 3: 7, 5: 4, 6: 5, 7: 6}  # BlockLSTMGrad: ringflow's output -> TF's


def _tf_layout(node, op, nodes):
    cs_prev = op.inputs[PEEPHOLES_AT[node.op] - 3]  # [batch, units]
    units, dtype = cs_prev.shape, cs_prev.dtype
    if units.ndims != 2 or units[1] is None:
        return False
    if node.op == "BlockLSTMGrad":
        if not _x_gradient(node, op, nodes):
            return False
        _full_state_grads(node, op, nodes)
    if not op.attrs["use_peephole"]:
        zeros = [const(nodes, f"{node.name}/{name}", np.zeros(units[1]), as_dtype(dtype).as_numpy_dtype)
                 for name in ("wci", "wcf", "wco")]
        at = PEEPHOLES_AT[node.op]
        node.input[at:at] = zeros
    clip = op.attrs.get("cell_clip")
    if node.op.endswith("Grad"):  # TF's gradient kernels have no clip: they pass the gradient through
        node.attr.pop("cell_clip", None)
    else:
        node.attr["cell_clip"] = AttrValue(f=-1.0 if clip is None else float(clip))
    node.attr["T"] = type_attr(dtype)
    if node.op.endswith("Grad") and SHAPES in node.attr:  # TF checks them against its op's outputs
        node.attr[SHAPES] = _tf_grad_shapes(node.op, op, units[1])
    return True


def _full_state_grads(node, op, nodes):
    """TF's BlockLSTMGrad takes cs_grad and h_grad of [time, batch, units]; ringflow's also scalars (its gradient rule
    passes 0 for an output nothing differentiates), which TF gets broadcast to cs's shape."""
    last, shape = len(op.inputs), None
    for k in (last - 2, last - 1):
        grad = op.inputs[k]
        if grad.shape.ndims == 0:
            shape = shape or shape_node(nodes, f"{node.name}/cs_shape", node.input[last - 8], grad.dtype)
            node.input[k] = added(nodes, f"{node.name}/state_grad_{k}", "BroadcastTo", [node.input[k], shape],
                                  T=type_attr(grad.dtype), Tidx=type_attr(int32))


def _tf_grad_shapes(op_type, op, units):
    peepholes = [TensorShape([units])] * 3
    if op_type == "LSTMBlockCellGrad":  # (cs_prev, dicfo, wci, wcf, wco)'s
        shapes = [t.shape for t in op.outputs[:2]] + peepholes
    else:  # (x, cs_prev, h_prev, w, wci, wcf, wco, b)'s
        shapes = [t.shape for t in op.inputs[1:5]] + peepholes + [op.inputs[len(op.inputs) - 10].shape]
    return AttrValue(list=AttrValue.ListValue(shape=[TensorShape(s).as_proto() for s in shapes]))


def _x_gradient(node, op, nodes):
    """BlockLSTMGrad's outputs as TF's: False where dicfo feeds anything but the rule's x gradient."""
    first = op.outputs[4].consumers()
    middle = first[0].outputs[0].consumers() if len(first) == 1 and first[0].type == "Reshape" else []
    last = middle[0].outputs[0].consumers() if len(middle) == 1 and middle[0].type == "MatMul" else []
    if len(last) != 1 or last[0].type != "Reshape":
        return False
    t = type_attr(op.inputs[1].dtype)
    for k, tf_k in TF_GRAD_OUTPUT.items():
        if k < len(op.outputs):
            added(nodes, f"{node.name}/output_{k}", "Identity", [f"{node.name}:{tf_k}"], T=t)
            nodes[-1].attr[MOVED] = AttrValue(s=(f"{node.name}:{k}" if k else node.name).encode())
    # what reads the rule's x gradient reads TF's, after it: the rule's nodes stay in any sub-graph TF's
    # extract_sub_graph keeps, for ringflow's import
    added(nodes, f"{node.name}/x_grad", "Identity", [node.name, f"^{last[0].name}"], T=t)
    nodes[-1].attr[MOVED] = AttrValue(s=last[0].name.encode())
    gates = added(nodes, f"{node.name}/gates_shape", "ZerosLike", [node.input[len(op.inputs) - 9]], T=t)
    added(nodes, f"{node.name}/dicfo", "Tile", [gates, const(nodes, f"{node.name}/four", [1, 1, 4])], T=t,
          Tmultiples=type_attr(int32))
    nodes[-1].attr[MOVED] = AttrValue(s=f"{node.name}:4".encode())
    return True


RNN_TO_TF = dict.fromkeys(PEEPHOLES_AT, _tf_layout)


def _tf_without_peepholes(node, data, attrs, constants):
    """TF's cell op without peepholes as ringflow's, which takes no peephole weights then."""
    if not attrs.get("use_peephole") and len(data) == TF_INPUTS[node.op]:
        at = PEEPHOLES_AT[node.op]
        data = data[:at] + data[at + 3:]
    if node.op.endswith("Grad"):
        attrs = dict(attrs, cell_clip=None)  # TF's gradient passes clipped cells through, as no clip does
    return data, attrs


RNN_FROM_TF = dict.fromkeys(("LSTMBlockCell", "LSTMBlockCellGrad", "BlockLSTM"), (None, _tf_without_peepholes))
