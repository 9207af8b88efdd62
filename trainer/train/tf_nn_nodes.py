"""ringflow's nn ops that TF builds otherwise, in TF's forms: sigmoid_cross_entropy_with_logits, one op in ringflow,
is TF1's graph of it (max(x, 0) - x * z + log1p(exp(-|x|)) by Select, Mul, Sub, Exp, Log1p, AddV2), and
conv2d_transpose, ringflow's Conv2DTranspose, is TF's Conv2DBackpropInput of the output shape it was given; the sparse
softmax cross entropy names its labels' type."""
from ..framework.node_def import AttrValue
from .tf_nodes import added, type_attr


def _sigmoid_cross_entropy(node, op, nodes):
    x, z = node.input[:2]
    t = {"T": type_attr(op.outputs[0].dtype)}
    name = node.name

    def step(what, op_type, *inputs):
        return added(nodes, f"{name}/{what}", op_type, inputs, **t)
    zeros = step("zeros", "ZerosLike", x)
    cond = step("cond", "GreaterEqual", x, zeros)
    relu = step("relu_logits", "SelectV2", cond, x, zeros)
    neg_abs = step("neg_abs_logits", "SelectV2", cond, step("neg", "Neg", x), x)
    node.op = "AddV2"
    node.input[:] = [step("sub", "Sub", relu, step("mul", "Mul", x, z)),
                     step("log1p", "Log1p", step("exp", "Exp", neg_abs))] + [i for i in node.input if i[0] == "^"]
    node.attr.update(t)
    return True


def _conv2d_transpose(node, op, nodes):  # ringflow (value, filter, output_shape); TF (input_sizes, filter, grad)
    value, w, sizes = node.input[:3]
    node.op = "Conv2DBackpropInput"
    node.input[:3] = [sizes, w, value]
    node.attr["strides"] = AttrValue(list=AttrValue.ListValue(i=[1, *op.attrs["strides"], 1]))
    node.attr["dilations"] = AttrValue(list=AttrValue.ListValue(i=[1, 1, 1, 1]))
    node.attr["data_format"] = AttrValue(s=b"NHWC")
    node.attr["use_cudnn_on_gpu"] = AttrValue(b=True)
    node.attr["T"] = type_attr(op.outputs[0].dtype)
    node.attr.pop("static", None)
    return True


def _sparse_labels(node, op, nodes):  # TF's op names its labels' type, int64 unless told
    node.attr["Tlabels"] = type_attr(op.inputs[1].dtype)
    return True


NN_TO_TF = {"SigmoidCrossEntropyWithLogits": _sigmoid_cross_entropy, "Conv2DTranspose": _conv2d_transpose,
            "SparseSoftmaxCrossEntropyWithLogits": _sparse_labels}
