"""ringflow's gathers' and segment sums' gradient ops in TF's forms. ringflow's gradient of a gather is a dense
GatherGrad (g scattered into params' shape); TF's is the IndexedSlices its optimizers (and any dense use) sum as
UnsortedSegmentSum(g, indices, params' rows). ringflow's gradient of a segment sum, SegmentGather, is TF's
GatherV2 of g at the ids. TF's segment sums, variables' scatter updates and optimizers' sparse updates name their
index types."""
from ..framework.dtypes import int32
from ..framework.node_def import AttrValue
from .tf_nodes import added, const, shape_node, type_attr


def _gather_grad(node, op, nodes):  # ringflow (g, indices, params; axis); TF UnsortedSegmentSum(g, indices, rows)
    if op.attrs["axis"] != 0:
        return False
    g, indices, params = node.input[:3]
    shape = shape_node(nodes, f"{node.name}/params_shape", params, op.inputs[2].dtype)
    rows = added(nodes, f"{node.name}/rows", "StridedSlice", [shape] + [
        const(nodes, f"{node.name}/{what}", [value]) for what, value in (("begin", 0), ("end", 1), ("strides", 1))],
        T=type_attr(int32), Index=type_attr(int32), shrink_axis_mask=AttrValue(i=1),
        **{f"{m}_mask": AttrValue(i=0) for m in ("begin", "end", "ellipsis", "new_axis")})
    node.op = "UnsortedSegmentSum"
    node.input[:3] = [g, indices, rows]
    node.attr.pop("axis", None)
    node.attr.update(T=type_attr(op.outputs[0].dtype), Tindices=type_attr(op.inputs[1].dtype),
                     Tnumsegments=type_attr(int32))
    return True


def _segment_sum(node, op, nodes):
    node.attr.update(Tindices=type_attr(op.inputs[1].dtype), Tnumsegments=type_attr(op.inputs[2].dtype))
    return True


def _segment_gather(node, op, nodes):  # ringflow (g, ids); TF GatherV2(g, ids, 0)
    node.op = "GatherV2"
    node.input.insert(2, const(nodes, f"{node.name}/axis", 0))
    node.attr.update(Tparams=type_attr(op.inputs[0].dtype), Tindices=type_attr(op.inputs[1].dtype),
                     Taxis=type_attr(int32), batch_dims=AttrValue(i=0))
    node.attr.pop("T", None)
    return True


def _scatter(node, op, nodes):  # tf.scatter_add and the like: their indices' type
    node.attr["Tindices"] = type_attr(op.inputs[1].dtype)
    return True


def _sparse_apply(node, op, nodes):  # an optimizer's sparse update: the type of its indices, its one integer input
    node.attr["Tindices"] = type_attr(next(t.dtype for t in op.inputs if t.dtype.kind in "iu"))
    return True


SPARSE_APPLY_OPS = ("SparseApplyMomentum", "SparseApplyAdagrad", "SparseApplyRMSProp", "SparseApplyCenteredRMSProp",
                    "SparseApplyAdadelta", "SparseApplyFtrl", "SparseApplyFtrlV2", "SparseApplyProximalAdagrad",
                    "SparseApplyProximalGradientDescent")
GATHER_TO_TF = {"GatherGrad": _gather_grad, "UnsortedSegmentSum": _segment_sum, "SegmentGather": _segment_gather,
                **dict.fromkeys(("ScatterUpdate", "ScatterAdd", "ScatterSub", "ScatterMul", "ScatterDiv", "ScatterMax",
                                 "ScatterMin"), _scatter),
                **dict.fromkeys(SPARSE_APPLY_OPS, _sparse_apply)}
