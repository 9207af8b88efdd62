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
from ..framework.node_def import AttrValue, NodeDef
from ..ops.slice_ops import Fed
from .tf_nodes import ADDED, MOVED, added as _added, const as _const, shape_node as _shape, type_attr as _type
from .tf_nodes import ORIGINAL
from .tf_pad_nodes import PAD_FROM_TF, PAD_TO_TF
from .tf_random_nodes import RANDOM_FROM_TF, RANDOM_TO_TF
from .tf_gather_nodes import GATHER_TO_TF
from .tf_nn_nodes import NN_TO_TF
from .tf_rnn_nodes import RNN_FROM_TF, RNN_TO_TF
from .tf_state_nodes import STATE_FROM_TF, STATE_TO_TF


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


def _split_to_tf(node, op, nodes):
    """ringflow's Split (axis, sizes or num) as TF's Split(split_dim, value) of equal parts, else SplitV(value,
    size_splits, split_dim)."""
    sizes, controls = op.attrs.get("sizes"), [i for i in node.input if i.startswith("^")]
    for key in ("sizes", "num", "axis"):
        node.attr.pop(key, None)
    node.attr["num_split"] = AttrValue(i=len(op.outputs))
    dim = _const(nodes, f"{node.name}/split_dim", op.attrs["axis"])
    if sizes is None or (len(set(sizes)) == 1 and -1 not in sizes):
        node.op, inputs = "Split", [dim, node.input[0]]
    else:
        node.op, inputs = "SplitV", [node.input[0], _const(nodes, f"{node.name}/size_splits", list(sizes)), dim]
        node.attr["Tlen"] = _type(int32)
    node.input[:] = inputs + controls
    return True


def _reverse_sequence(node, op, nodes):
    """ringflow's seq_axis and batch_axis are TF's seq_dim and batch_dim; Tlen the lengths' type."""
    node.attr["seq_dim"], node.attr["batch_dim"] = node.attr.pop("seq_axis"), node.attr.pop("batch_axis")
    node.attr["Tlen"] = _type(op.inputs[1].dtype)
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


def _range(node, op, nodes):  # TF's Range names its dtype Tidx
    node.attr.pop("T", None)
    node.attr["Tidx"] = _type(op.outputs[0].dtype)
    return True


def _reduction(node, op, nodes):
    axis, rank = op.attrs.get("axis"), op.inputs[0].shape.ndims
    if axis is None and rank is None:  # every axis of a rank the run gives: TF's Range(0, Rank(x), 1)
        t = {"T": _type(int32)}
        rank = _added(nodes, f"{node.name}/rank", "Rank", [node.input[0]], T=_type(op.inputs[0].dtype))
        indices = _added(nodes, f"{node.name}/reduction_indices", "Range", [
            _const(nodes, f"{node.name}/start", 0), rank, _const(nodes, f"{node.name}/delta", 1)], Tidx=t["T"])
    else:
        indices = _const(nodes, f"{node.name}/reduction_indices", list(range(rank)) if axis is None else axis)
    node.input.insert(1, indices)
    node.attr["Tidx"] = _type(int32)
    node.attr["keep_dims"] = AttrValue(b=bool(op.attrs.get("keepdims", False)))
    node.attr.pop("keepdims", None)
    node.attr.pop("axis", None)
    return True


def _summary(input_name):
    def rewrite(node, op, nodes):
        node.input.insert(0, _const(nodes, f"{node.name}/{input_name}", op.attrs["tag"], dtype=object))
        node.attr.pop("tag", None)
        node.attr["T"] = _type(op.inputs[0].dtype)  # TF's T is the values' dtype, not the output's
        return True
    return rewrite


def _fused_batch_norm(node, op, nodes):
    node.attr["U"] = _type(op.inputs[2].dtype)  # the statistics' and parameters' dtype (float32 for half images)
    return True


def _slice_spec(key, plus_one=lambda v: v + 1):
    """A ringflow slicing key as TF's begin, end, strides and masks; `plus_one` gives the end of an index."""
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
            b, e = k, plus_one(k)
            masks["shrink_axis"] |= 1 << i
        begin.append(b), end.append(e), strides.append(s)
    return begin, end, strides, masks


def _strided_slice(node, op, nodes):
    """TF's StridedSlice(x, begin, end, strides): Consts, or, where the run gives positions (x[i] in a loop), the
    Pack of each position, a Const or the input it is (an index's end: that input plus one)."""
    data, controls = [i for i in node.input if not i.startswith("^")], [i for i in node.input if i.startswith("^")]
    fed = {k + 1: name for k, name in enumerate(data[1:])}

    def position(v):
        return fed[v.index] if isinstance(v, Fed) else int(v)

    def added(name, op_type, inputs, **attrs):  # nodes import builds (not ADDED): the positions it reads
        nodes.append(NodeDef(name=name, op=op_type, input=inputs, attr={"T": _type(int32), **attrs}))
        return name

    def scalar(name, value):
        name = _const(nodes, name, value)
        del nodes[-1].attr[ADDED]
        return name

    def plus_one(v):
        return v + 1 if isinstance(v, int) else added(f"{node.name}/next_{data.index(v)}", "AddV2",
                                                      [v, scalar(f"{node.name}/one_{data.index(v)}", 1)])
    key = tuple(slice(*(None if b is None else position(b) for b in (k.start, k.stop, k.step))) if isinstance(k, slice)
                else k if k is None or k is Ellipsis else position(k) for k in op.attrs["key"])
    begin, end, strides, masks = _slice_spec(key, plus_one)
    positions = []
    for what, values in (("begin", begin), ("end", end), ("strides", strides)):
        if all(isinstance(v, int) for v in values):
            positions.append(_const(nodes, f"{node.name}/{what}", values))
            continue
        items = [v if isinstance(v, str) else scalar(f"{node.name}/{what}_{j}", v) for j, v in enumerate(values)]
        positions.append(added(f"{node.name}/{what}", "Pack", items, N=AttrValue(i=len(items)), axis=AttrValue(i=0)))
    node.input[:] = data[:1] + positions + controls
    _slice_attrs(node, masks)
    return None  # no ORIGINAL: import reads the TF form


def _slice_attrs(node, masks):
    node.attr.pop("key", None)
    node.attr.pop("sizes", None)
    node.attr.pop("_ringflow_unwritten_attrs", None)
    node.attr["Index"] = _type(int32)
    for name, mask in masks.items():
        node.attr[f"{name}_mask"] = AttrValue(i=mask)


def _strided_slice_grad(node, op, nodes):
    """ringflow's (dy, x) with the key; TF's (shape, begin, end, strides, dy) with the masks."""
    if len(op.inputs) > 2:
        return False
    begin, end, strides, masks = _slice_spec(op.attrs["key"])
    dy = node.input[0]
    node.input[:2] = [_sizes_input(node, op, nodes, 1, added=False)] + [
        _const(nodes, f"{node.name}/{n}", v) for n, v in (("begin", begin), ("end", end), ("strides", strides))]
    node.input.insert(4, dy)
    _slice_attrs(node, masks)
    node.attr["T"] = _type(op.outputs[0].dtype)
    return None


def _nhwc_attrs(node, op, sizes=("strides",)):
    """A convolution's or pooling's 2-D strides and window as TF's 4-D NHWC lists, with TF's other attrs."""
    for key in sizes:
        node.attr[key] = AttrValue(list=AttrValue.ListValue(i=[1, *op.attrs[key], 1]))
    node.attr["data_format"] = AttrValue(s=b"NHWC")
    node.attr.pop("sizes", None)


def _conv(node, op, nodes):
    _nhwc_attrs(node, op)
    node.attr["dilations"] = AttrValue(list=AttrValue.ListValue(i=[1, 1, 1, 1]))
    node.attr["use_cudnn_on_gpu"] = AttrValue(b=True)
    node.attr["T"] = _type(op.outputs[0].dtype)
    return True


def _sizes_input(node, op, nodes, position, added=True):
    """The input whose shape ringflow's op reads, as TF's sizes tensor: a Shape node of it (added, unless the node
    keeps no ORIGINAL and import reads it in TF's form), or the sizes tensor it was given (an imported TF graph)."""
    if op.attrs.get("sizes"):
        return node.input[position]
    name = f"{node.name}/sizes"
    nodes.append(NodeDef(name=name, op="Shape", input=[node.input[position]], attr={
        "T": _type(op.inputs[position].dtype), "out_type": _type(int32), **({ADDED: AttrValue(b=True)} if added
                                                                            else {})}))
    return name


def _conv_input_grad(node, op, nodes):  # ringflow (g, x, w); TF (input_sizes, filter, out_backprop)
    g, _, w = list(node.input[:3])
    node.input[:3] = [_sizes_input(node, op, nodes, 1), w, g]
    return _conv(node, op, nodes)


def _conv_filter_grad(node, op, nodes):  # ringflow (x, g, w); TF (input, filter_sizes, out_backprop)
    x, g, _ = list(node.input[:3])
    node.input[:3] = [x, _sizes_input(node, op, nodes, 2), g]
    return _conv(node, op, nodes)


def _pool(node, op, nodes):
    _nhwc_attrs(node, op, ("ksize", "strides"))
    return True


def _avg_pool_grad(node, op, nodes):  # ringflow (x, g); TF (orig_input_shape, grad)
    node.input[0] = _sizes_input(node, op, nodes, 0)
    return _pool(node, op, nodes)


def _reshape_like(node, op, nodes):  # ringflow (x, like); TF Reshape(x, Shape(like))
    x, like = node.input[:2]
    node.input[:] = [x, _shape(nodes, f"{node.name}/shape", like, op.inputs[1].dtype)]
    node.op = "Reshape"
    node.attr["Tshape"] = _type(int32)
    return True


def _filled(value):
    """ringflow's Zeros/Ones (a static shape attr, or the dims the run gives): TF's Fill of dims and a value."""
    def rewrite(node, op, nodes):
        dtype = op.attrs["dtype"]
        dims = node.input[0] if op.inputs else None
        if dims is None:
            shape = op.attrs["shape"]
            if shape is None or any(d is None for d in shape):
                return False
            dims = _const(nodes, f"{node.name}/dims", list(shape))
        node.input[:] = [dims, _const(nodes, f"{node.name}/value", value, as_dtype(dtype).as_numpy_dtype)]
        node.op = "Fill"
        for key in ("shape", "dtype", "T"):
            node.attr.pop(key, None)
        node.attr["T"], node.attr["index_type"] = _type(dtype), _type(int32)
        return True
    return rewrite


def _sum_to_shape(node, op, nodes):
    """ringflow's (g, like): g summed over the axes it was broadcast along, as TF's own gradients write it:
    Reshape(Sum(g, BroadcastGradientArgs(Shape(g), Shape(like))[0]), Shape(like))... with the roles of TF's r1."""
    g, like = node.input[:2]
    g_shape = _shape(nodes, f"{node.name}/g_shape", g, op.inputs[0].dtype)
    like_shape = _shape(nodes, f"{node.name}/like_shape", like, op.inputs[1].dtype)
    axes = _added(nodes, f"{node.name}/axes", "BroadcastGradientArgs", [like_shape, g_shape], T=_type(int32))
    total = _added(nodes, f"{node.name}/sum", "Sum", [g, axes], T=_type(op.inputs[0].dtype), Tidx=_type(int32),
                   keep_dims=AttrValue(b=False))
    node.input[:] = [total, like_shape]
    node.op = "Reshape"
    node.attr["Tshape"] = _type(int32)
    return True


def _reduce_grad(node, op, nodes):
    """ringflow's (g, x): g (reduced over `axis`) broadcast back over x (divided by the count for a mean), as TF's
    ops: BroadcastTo(Reshape(g, x's shape with the reduced axes 1), Shape(x))."""
    rank, axis = op.inputs[1].shape.ndims, op.attrs["axis"]
    if len(op.inputs) > 2 or rank is None and axis is not None:
        return False
    g, x = node.input[:2]
    dtype = op.outputs[0].dtype
    x_shape = _shape(nodes, f"{node.name}/x_shape", x, op.inputs[1].dtype)
    if rank is None:  # every axis of a rank the run gives: g holds one value, which BroadcastTo spreads
        return _spread(node, op, nodes, g, g, x, x_shape)
    reduced = set(range(rank)) if axis is None else {a % rank for a in (axis if isinstance(axis, tuple) else [axis])}
    mask = [1 if i in reduced else 0 for i in range(rank)]
    kept = _added(nodes, f"{node.name}/kept", "Mul", [x_shape, _const(nodes, f"{node.name}/keep", [1 - m for m in mask])],
                  T=_type(int32))
    ones = _added(nodes, f"{node.name}/keep_shape", "AddV2", [kept, _const(nodes, f"{node.name}/ones", mask)],
                  T=_type(int32))
    shaped = _added(nodes, f"{node.name}/reshaped", "Reshape", [g, ones], T=_type(dtype), Tshape=_type(int32))
    return _spread(node, op, nodes, shaped, g, x, x_shape)


def _spread(node, op, nodes, shaped, g, x, x_shape):
    dtype = op.outputs[0].dtype
    spread = shaped if not op.attrs["mean"] else _mean_scaled(node, op, nodes, shaped, g, x)
    node.input[:] = [spread, x_shape]
    node.op = "BroadcastTo"
    for key in ("axis", "mean"):
        node.attr.pop(key, None)
    node.attr["T"], node.attr["Tidx"] = _type(dtype), _type(int32)
    return True


def _mean_scaled(node, op, nodes, shaped, g, x):
    """shaped * size(g) / size(x): a mean's gradient shares g among the count of elements each mean took."""
    dtype, sizes = op.outputs[0].dtype, []
    for which, tensor, t in (("g", g, op.inputs[0].dtype), ("x", x, op.inputs[1].dtype)):
        size = _added(nodes, f"{node.name}/{which}_size", "Size", [tensor], T=_type(t), out_type=_type(int32))
        at_least_one = _added(nodes, f"{node.name}/{which}_count", "Maximum",
                              [size, _const(nodes, f"{node.name}/{which}_one", 1)], T=_type(int32))
        sizes.append(_added(nodes, f"{node.name}/{which}_float", "Cast", [at_least_one], SrcT=_type(int32),
                            DstT=_type(dtype), Truncate=AttrValue(b=False)))
    share = _added(nodes, f"{node.name}/share", "RealDiv", sizes, T=_type(dtype))
    return _added(nodes, f"{node.name}/scaled", "Mul", [shaped, share], T=_type(dtype))


def _concat_slice(node, op, nodes):
    """ringflow's (g, *values): g's slice that values[index] gave the concatenation; TF's concat gradient:
    Slice(g, ConcatOffset(axis, shapes)[index], Shape(values[index]))."""
    g, values = node.input[0], list(node.input[1:len(op.inputs)])
    shapes = [_shape(nodes, f"{node.name}/shape_{i}", v, t.dtype) for i, (v, t) in enumerate(zip(values, op.inputs[1:]))]
    rank = op.inputs[0].shape.ndims
    axis = op.attrs["axis"]
    if axis < 0:
        if rank is None:
            return False
        axis %= rank
    offsets = _added(nodes, f"{node.name}/offsets", "ConcatOffset",
                     [_const(nodes, f"{node.name}/axis", axis)] + shapes, N=AttrValue(i=len(shapes)),
                     shape_type=_type(int32))
    index = op.attrs["index"]
    node.input[:] = [g, f"{offsets}:{index}" if index else offsets, shapes[index]]
    node.op = "Slice"
    for key in ("axis", "index"):
        node.attr.pop(key, None)
    node.attr["T"], node.attr["Index"] = _type(op.outputs[0].dtype), _type(int32)
    return True


def _swap_inputs(node, op, nodes):
    """TF's TanhGrad and SigmoidGrad take (y, dy); ringflow's take (dy, y)."""
    node.input[0], node.input[1] = node.input[1], node.input[0]
    return True


def _select(node, op, nodes):
    """ringflow's Select broadcasts as numpy's where, which is TF's SelectV2: TF's Select takes equal shapes."""
    shapes = {str(t.shape) if t.shape.is_fully_defined() else None for t in op.inputs}
    if len(shapes) == 1 and None not in shapes:
        return False
    node.op = "SelectV2"
    return True


def _dropout(node, op, nodes):
    """ringflow's Dropout as TF1's dropout ops: keep = RandomUniform(Shape(x), its seeds) >= rate, then
    SelectV2(keep, x * scale, 0) (x / (1 - rate) for a Tensor rate); the scaled mask, its output 1 (what the
    gradient multiplies by), is an added node that takes its place."""
    if op.attrs.get("noise_shape") is not None:
        return False
    x, rate = node.input[:2]
    dtype, scale = op.outputs[0].dtype, op.attrs.get("scale")
    numpy, t = as_dtype(dtype).as_numpy_dtype, {"T": _type(dtype)}
    uniform = _added(nodes, f"{node.name}/random_uniform", "RandomUniform",
                     [_shape(nodes, f"{node.name}/shape", x, dtype)], dtype=_type(dtype), T=_type(int32),
                     **{k: AttrValue(i=int(op.attrs.get(k) or 0)) for k in ("seed", "seed2")})
    keep = _added(nodes, f"{node.name}/keep", "GreaterEqual", [uniform, rate], **t)
    if scale is not None:
        factor = _const(nodes, f"{node.name}/scale", scale, numpy)
        kept = _added(nodes, f"{node.name}/kept", "Mul", [x, factor], **t)
    else:
        keep_prob = _added(nodes, f"{node.name}/keep_prob", "Sub",
                           [_const(nodes, f"{node.name}/one", 1, numpy), rate], **t)
        factor = _added(nodes, f"{node.name}/scale", "RealDiv", [f"{node.name}/one", keep_prob], **t)
        kept = _added(nodes, f"{node.name}/kept", "RealDiv", [x, keep_prob], **t)
    cast = _added(nodes, f"{node.name}/keep_mask", "Cast", [keep], SrcT=_type(np.bool_), DstT=_type(dtype))
    _added(nodes, f"{node.name}/mask", "Mul", [cast, factor], **t)
    nodes[-1].attr[MOVED] = AttrValue(s=f"{node.name}:1".encode())
    node.op = "SelectV2"
    node.input[:] = [keep, kept, _const(nodes, f"{node.name}/zero", 0, numpy)] + [
        i for i in node.input if i.startswith("^")]
    for key in [k for k in node.attr if not k.startswith("_")]:
        node.attr.pop(key)
    node.attr.update(t)
    return True


TO_TF = {
    "ConcatV2": _concat, "Pack": _pack, "AddN": _pack, "GatherV2": _gather, "Cast": _cast, "Sum": _reduction,
    "Mean": _reduction, "Max": _reduction, "Min": _reduction, "Prod": _reduction, "All": _reduction, "Any": _reduction,
    "Reshape": _attr_input("shape", "shape", "Tshape"), "ArgMax": _attr_input("axis", "dimension", "Tidx"),
    "ArgMin": _attr_input("axis", "dimension", "Tidx"), "ExpandDims": _attr_input("axis", "dim", "Tdim"),
    "Tile": _attr_input("multiples", "multiples", "Tmultiples"), "Transpose": _attr_input("axes", "perm", "Tperm"),
    "Split": _split_to_tf, "SplitV": _split_to_tf, "ReverseSequence": _reverse_sequence,
    "ScalarSummary": _summary("tags"),
    "HistogramSummary": _summary("tag"), "StridedSlice": _strided_slice,
    "Dropout": _dropout,
    "FusedBatchNormV3": _fused_batch_norm, "FusedBatchNormGradV3": _fused_batch_norm,
    "TanhGrad": _swap_inputs, "SigmoidGrad": _swap_inputs, "Select": _select,
    "Conv2D": _conv, "Conv2DBackpropInput": _conv_input_grad, "Conv2DBackpropFilter": _conv_filter_grad,
    "MaxPool": _pool, "AvgPool": _pool, "MaxPoolGrad": _pool, "AvgPoolGrad": _avg_pool_grad,
    "StridedSliceGrad": _strided_slice_grad,
    # ringflow's own gradient and filling ops, as the TF ops that compute the same
    "ReshapeLike": _reshape_like, "Zeros": _filled(0), "Ones": _filled(1), "SumToShape": _sum_to_shape,
    "ReduceGrad": _reduce_grad, "ConcatSlice": _concat_slice, "Range": _range, "MergeSummary": _pack,
    "StringJoin": _pack,
    "Cumsum": _attr_input("axis", "axis", "Tidx"), "Cumprod": _attr_input("axis", "axis", "Tidx"),
    **RANDOM_TO_TF, **STATE_TO_TF, **RNN_TO_TF, **PAD_TO_TF, **NN_TO_TF, **GATHER_TO_TF,
}


# ops whose "T" is the type of the value they take (that input's position), where node_def writes their output's
VALUE_TYPED = {"TensorArrayWriteV3": 2, "TensorArrayScatterV3": 2, "TensorArraySplitV3": 1}
DTYPE_NOT_T = {"PlaceholderWithDefault"}  # TF's op names its type attr "dtype"
VARIABLE_TYPED = {"IsVariableInitialized"}  # TF's op has its variable's type as "dtype" (Keras' session adds them)
# ops whose "T" is their input's dtype, where node_def writes the output's (ringflow's import ignores "T")
INPUT_TYPED = {"Shape", "Size", "Rank", "Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual",
               "ArgMax", "ArgMin", "IsNan", "IsInf", "IsFinite", "ZerosLike", "OnesLike"}


def to_tf_form(node, op, nodes):
    """Rewrite `node` (the NodeDef of `op`) into TF's form where TO_TF has a rule, appending added Consts and
    helper nodes to `nodes`; the node as ringflow built it goes into its ORIGINAL attr."""
    if node.op in INPUT_TYPED and op.inputs:
        node.attr["T"] = _type(op.inputs[0].dtype)
    if node.op in VARIABLE_TYPED and op.inputs:
        node.attr.pop("T", None)
        node.attr["dtype"] = _type(op.inputs[0].dtype)
    if node.op in DTYPE_NOT_T and "T" in node.attr:
        node.attr["dtype"] = node.attr.pop("T")
    if node.op in VALUE_TYPED:
        node.attr["T"] = _type(op.inputs[VALUE_TYPED[node.op]].dtype)
    if node.op == "TensorArraySizeV3":
        node.attr.pop("T", None)
    if node.op == "Assert":  # TF's "T" lists its data inputs' types (ringflow's import ignores "T")
        node.attr["T"] = AttrValue(list=AttrValue.ListValue(type=[t.dtype.as_datatype_enum for t in op.inputs[1:]]))
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


def _tf_split(node, data, attrs, constants):
    """TF's Split(split_dim, value) and SplitV(value, size_splits, split_dim) as ringflow's Split of axis, sizes."""
    data, attrs = _const_input(0 if node.op == "Split" else 2, "axis", "split dimension")(node, data, attrs, constants)
    attrs["num"], attrs["sizes"] = attrs.pop("num_split", None), None
    if node.op == "SplitV":
        data, attrs = _const_input(1, "sizes", "split sizes")(node, data, attrs, constants)
        attrs["sizes"] = tuple(np.ravel(attrs["sizes"]).tolist())
    return data, attrs


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


def _tf_nhwc(node, attrs, keys=("strides",)):
    """TF's 4-D NHWC strides (and window) as ringflow's 2-D ones; what ringflow's ops cannot take is refused."""
    if attrs.pop("data_format", "NHWC") not in ("NHWC", b"NHWC"):
        raise NotImplementedError(f"import: {node.op} {node.name!r} is NCHW; ringflow imports NHWC convolutions")
    if any(d != 1 for d in attrs.pop("dilations", ())):
        raise NotImplementedError(f"import: {node.op} {node.name!r} is dilated; ringflow builds dilated convolutions "
                                  "from Python (tf.nn.conv2d(..., dilations=...)), not from a TF graph")
    if attrs.get("padding") in ("EXPLICIT", b"EXPLICIT"):
        raise NotImplementedError(f"import: {node.op} {node.name!r} has explicit paddings, which ringflow lacks")
    for key in keys:
        attrs[key] = tuple(attrs[key][1:3])
    for key in ("use_cudnn_on_gpu", "explicit_paddings"):
        attrs.pop(key, None)
    return attrs


def _tf_conv_or_pool(keys):
    return lambda node, data, attrs, constants: (data, _tf_nhwc(node, dict(attrs), keys))


def _tf_with_sizes(order):
    """TF's gradient op that takes a sizes tensor: its inputs in ringflow's `order`, ringflow's op told so."""
    def rule(node, data, attrs, constants):
        keys = ("ksize", "strides") if node.op == "AvgPoolGrad" else ("strides",)
        return [data[i] for i in order], {**_tf_nhwc(node, dict(attrs), keys), "sizes": True}
    return rule


def _tf_strided_slice_grad(node, data, attrs, constants):
    key = strided_slice_key(node, constants)
    if key is None:
        raise NotImplementedError(f"import: StridedSliceGrad {node.name!r} takes its positions from tensors that "
                                  "are not constants, which ringflow cannot rebuild")
    return [data[4], data[0]], {"key": key, "sizes": True}


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
    "Split": ("axis", _tf_split), "SplitV": ("axis", _tf_split),
    "ReverseSequence": ("seq_axis", lambda node, data, attrs, constants: (data, {
        "seq_axis": attrs["seq_dim"], "batch_axis": attrs.get("batch_dim", 0)})),
    "ResourceGather": ("axis", lambda node, data, attrs, constants: (
        data, {**{k: v for k, v in attrs.items() if k not in ("dtype", "batch_dims", "validate_indices")}, "axis": 0})),
    "ReadVariableOp": (None, _tf_drop("dtype")), "AssignVariableOp": (None, _tf_drop("dtype", "validate_shape")),
    "AssignAddVariableOp": (None, _tf_drop("dtype")), "AssignSubVariableOp": (None, _tf_drop("dtype")),
    "TanhGrad": (None, lambda node, data, attrs, constants: (data[::-1], attrs)),
    "SigmoidGrad": (None, lambda node, data, attrs, constants: (data[::-1], attrs)),
    "Conv2D": (None, _tf_conv_or_pool(("strides",))), "MaxPool": (None, _tf_conv_or_pool(("ksize", "strides"))),
    "AvgPool": (None, _tf_conv_or_pool(("ksize", "strides"))),
    "MaxPoolGrad": (None, _tf_conv_or_pool(("ksize", "strides"))),
    "Conv2DBackpropInput": (None, _tf_with_sizes((2, 0, 1))), "Conv2DBackpropFilter": (None, _tf_with_sizes((0, 2, 1))),
    "AvgPoolGrad": (None, _tf_with_sizes((0, 1))), "StridedSliceGrad": ("key", _tf_strided_slice_grad),
    "VarIsInitializedOp": (None, _tf_drop()), "OneHot": ("dtype", _tf_one_hot), "ApplyAdam": (None, _tf_adam), "ResourceApplyAdam": (None, _tf_adam),
    **RANDOM_FROM_TF, **RNN_FROM_TF, **PAD_FROM_TF, **STATE_FROM_TF,
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
