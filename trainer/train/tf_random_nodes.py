"""ringflow's random sources in TF's forms, both ways. ringflow's op draws and applies its distribution's numbers
in one (noise * stddev + mean, noise * (maxval - minval) + minval); TF's op draws the standard distribution and
its graph applies them with a Mul and an AddV2, as TF1's random_normal and random_uniform build it. The op's seeds
go with it, so TensorFlow draws the numbers ringflow draws (TF's own Philox streams)."""
import numpy as np

from ..framework.node_def import AttrValue
from .tf_nodes import added, const, type_attr

# ringflow's op: (TF's op drawing the standard distribution, the scale and the shift attrs, the Consts' names)
STANDARD = {"RandomUniform": ("RandomUniform", lambda a: (a["maxval"] - a["minval"], a["minval"]), ("range", "min")),
            "RandomNormal": ("RandomStandardNormal", lambda a: (a["stddev"], a["mean"]), ("stddev", "mean")),
            "TruncatedNormal": ("TruncatedNormal", lambda a: (a["stddev"], a["mean"]), ("stddev", "mean"))}


def _seeds(op):
    return {k: AttrValue(i=int(op.attrs.get(k) or 0)) for k in ("seed", "seed2")}


def _shape_input(node, op, nodes):
    """The draw's shape: the shape tensor ringflow's op was given, else a Const of its static shape."""
    if op.attrs["shape"] is None:
        return node.input[0]
    return const(nodes, f"{node.name}/shape", list(op.attrs["shape"]))


def _scaled_draw(node, op, nodes):
    """The node becomes AddV2(Mul(TF's standard draw, scale), shift), by TF's ops."""
    if op.attrs.get("tensor_params"):
        return False
    tf_type, numbers, (scale_name, shift_name) = STANDARD[node.op]
    dtype, controls = op.outputs[0].dtype, [i for i in node.input if i.startswith("^")]
    scale, shift = numbers(op.attrs)
    unit = added(nodes, f"{node.name}/unit", tf_type, [_shape_input(node, op, nodes)] + controls,
                 dtype=type_attr(dtype), T=type_attr(op.inputs[0].dtype if op.inputs else np.int32), **_seeds(op))
    scaled = added(nodes, f"{node.name}/mul", "Mul", [unit, const(nodes, f"{node.name}/{scale_name}", scale, dtype)],
                   T=type_attr(dtype))
    node.op = "AddV2"
    node.input[:] = [scaled, const(nodes, f"{node.name}/{shift_name}", shift, dtype)]
    for key in [k for k in node.attr if not k.startswith("_")]:
        node.attr.pop(key)
    node.attr["T"] = type_attr(dtype)
    return True


def _uniform_int(node, op, nodes):
    """TF's RandomUniformInt takes its bounds as inputs; ringflow's as attrs, or as its last inputs where they are
    tensors (named by tensor_params)."""
    dtype, controls = op.outputs[0].dtype, [i for i in node.input if i.startswith("^")]
    given = op.attrs.get("tensor_params") or ()
    tensors = dict(zip(given, node.input[len(op.inputs) - len(given):len(op.inputs)]))
    bounds = [tensors.get(k) or const(nodes, f"{node.name}/{k}", op.attrs[k], dtype) for k in ("minval", "maxval")]
    node.input[:] = [_shape_input(node, op, nodes)] + bounds + controls
    for key in [k for k in node.attr if not k.startswith("_")]:
        node.attr.pop(key)
    node.attr.update(Tout=type_attr(dtype), T=type_attr(op.inputs[0].dtype if op.inputs else np.int32), **_seeds(op))
    return True


RANDOM_TO_TF = {**dict.fromkeys(STANDARD, _scaled_draw), "RandomUniformInt": _uniform_int}


def _tf_standard(params):
    """TF's standard draw of the shape its input gives (a Const, or a Shape a run computes) as ringflow's op of
    the standard distribution's numbers."""
    def rule(node, data, attrs, constants):
        attrs = {k: v for k, v in attrs.items() if k != "T"}
        attrs.update(params, tensor_params=())
        shape = constants.get(data[0].partition(":")[0])
        if shape is None:
            return data, dict(attrs, shape=None)
        return data[1:], dict(attrs, shape=tuple(int(d) for d in np.asarray(shape).ravel()))
    return rule


def _tf_uniform_int(node, data, attrs, constants):
    """TF's RandomUniformInt(shape, minval, maxval) of Const bounds as ringflow's op of those bounds."""
    bounds = [constants.get(name.partition(":")[0]) for name in data[1:3]]
    if any(b is None for b in bounds):
        raise NotImplementedError(f"import: RandomUniformInt {node.name!r} takes its bounds from tensors that are "
                                  "not constants; ringflow's op needs them while the graph is built")
    shape = constants.get(data[0].partition(":")[0])
    attrs = {"dtype": attrs["Tout"], "seed": attrs.get("seed", 0), "seed2": attrs.get("seed2", 0),
             "minval": int(bounds[0]), "maxval": int(bounds[1]), "tensor_params": ()}
    if shape is None:
        return data[:1], dict(attrs, shape=None)
    return [], dict(attrs, shape=tuple(int(d) for d in np.asarray(shape).ravel()))


RANDOM_FROM_TF = {  # TF's op: (the attr ringflow's op holds and TF's lacks, the rule giving it), as FROM_TF
    "RandomUniform": ("minval", _tf_standard({"minval": 0.0, "maxval": 1.0})),
    "RandomStandardNormal": ("mean", _tf_standard({"mean": 0.0, "stddev": 1.0})),
    "TruncatedNormal": ("mean", _tf_standard({"mean": 0.0, "stddev": 1.0})),
    "RandomUniformInt": ("minval", _tf_uniform_int),
}

