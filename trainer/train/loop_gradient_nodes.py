"""ringflow's WhileGrad written as the backward loop TF1's tf.gradients builds for a while loop, over stacks.

The forward loop pushes, each iteration, every value the gradient reads (Body.saved: the loop variables entering the
iteration, the body's values the gradient's ops use) onto a StackV2 (StackPushV2, which its counter's NextIteration
waits for). The backward frame "<scope>/<loop>/while_context" counts the iterations down from the forward counter's
Exit, pops the values in reverse (StackPopV2), and runs the body's gradient nodes, under their names, on them. Its
variables, named as TF names them: the gradient of each loop variable, entering by "<scope>/<loop's Exit>_grad/b_exit"
and leaving by "<scope>/<loop's Enter>_grad/Exit"; per per-step output, the flow of TF's gradient TensorArray
(TensorArrayGradV3, scattered with the output's gradient) read at each step; per captured tensor and per sequence a
sum, leaving by "<scope>/<its Enter>_grad/b_acc_3" (a sequence's step i adds its row i). tf_loop_nodes.py pairs a
backward frame with its loop by these names, so ringflow reads the file back as it reads TF's training graphs. Both
frames run one iteration at a time (parallel_iterations 1): the stacks take and give the iterations in order.
"""
import numpy as np

from ..framework import dtypes
from ..framework.node_def import AttrValue


def _type(dtype):
    return AttrValue(type=dtypes.as_dtype(dtype).as_datatype_enum)


def _scope(grad):
    """TF's gradient scope of `grad`'s name: up to its first part named "gradients..." ("gradients" by default)."""
    parts = grad.name.split("/")
    first = next((i for i, part in enumerate(parts) if part.startswith("gradients")), None)
    return "gradients" if first is None else "/".join(parts[:first + 1])


def _layout(grad):
    """(the forward loop, its differentiable carried and per-step output positions, where its sequences and
    captured tensors start among its inputs)."""
    loop = grad.bodies[0].parent.owner
    n = loop.attrs["num_loop_vars"]
    carried = [j for j, t in enumerate(loop.feeds[:n]) if t.dtype.kind in "fc"]
    stacked = [j for j, t in enumerate(loop.bodies[0].outputs[n:]) if t.dtype.kind in "fc"]
    sequences = n + loop.attrs["has_maximum_iterations"]
    return loop, carried, stacked, sequences, sequences + loop.attrs["num_sequences"]


def plan_gradient(writer, grad):
    """Reserve the names of the backward frame's nodes, TF's, once the forward loop's Enters and Exits have theirs."""
    loop, carried, stacked, sequences, captured = _layout(grad)
    a, forward, scope = grad.attrs, writer.frames[loop], _scope(grad)
    counted, n, prefix = forward["counted"], loop.attrs["num_loop_vars"], f"{scope}/{loop.name}"
    summed = [writer.enters[loop, loop.inputs[captured + c]] for c in a["captured"]]
    summed += [writer.enters[loop, loop.inputs[sequences + j]] for j in a["sliced"]]
    variables = 1 + len(carried) + len(stacked) + len(summed)
    frame = writer.frames[grad] = {
        "frame": AttrValue(s=f"{prefix}/while_context".encode()), "prefix": prefix, "parallel": 1, "reads": {},
        "enters": [writer.fresh(f"{prefix}/b_count")]
        + [writer.fresh(f"{scope}/{forward['exits'][counted + j]}_grad/b_exit") for j in carried]
        + [writer.fresh(f"{scope}/{forward['exits'][counted + n + j]}_grad/b_exit") for j in stacked]
        + [writer.fresh(f"{scope}/{e}_grad/b_acc_1") for e in summed],
        "exits": [writer.fresh(f"{prefix}/b_count_3")]
        + [writer.fresh(f"{scope}/{forward['enters'][counted + j]}_grad/Exit") for j in carried]
        + [writer.fresh(f"{scope}/{forward['enters'][counted + n + j]}_grad/Exit") for j in stacked]
        + [writer.fresh(f"{scope}/{e}_grad/b_acc_3") for e in summed],
        "index": writer.fresh(f"{prefix}/index"),
        **{part: [writer.fresh(f"{prefix}/{op_type}") for _ in range(variables)] for part, op_type in (
            ("merges", "Merge"), ("switches", "Switch"), ("identities", "Identity"), ("nexts", "NextIteration"))}}
    exits, sums = frame["exits"], 1 + len(carried) + len(stacked)
    # WhileGrad's outputs: the loop variables', the sequences', the captured tensors' gradients
    frame["outputs"] = (exits[1:1 + len(carried)] + exits[sums + len(a["captured"]):]
                        + exits[sums:sums + len(a["captured"])])


def scaffold_gradient(writer, grad):
    """Write the stacks, the forward loop's pushes and the backward frame of `grad`."""
    loop, carried, stacked, sequences, captured = _layout(grad)
    a, frame, forward = grad.attrs, writer.frames[grad], writer.frames[loop]
    body, prefix, scope, index = grad.bodies[0], frame["prefix"], _scope(grad), frame["index"]
    outer, step = (None, None, None), (body, "body", body)
    nc, saved = a["num_carried"], grad.feeds[:a["num_saved"]]
    counted, n, int32 = forward["counted"], loop.attrs["num_loop_vars"], {"T": _type(dtypes.int32)}
    pushes = []
    for t in saved:
        stack = writer.node(f"{prefix}/f_acc", "StackV2", [writer.const(f"{prefix}/f_acc/max_size", -1, dtypes.int32,
                                                                         outer)],
                            {"elem_type": _type(t.dtype), "stack_name": AttrValue(s=b"")}, outer)
        pushed = writer.enter(loop, ("stack", stack), lambda: stack, dtypes.resource)
        pushes.append(writer.node(f"{stack}/StackPushV2", "StackPushV2", [pushed, writer.read(t, forward["inside"])],
                                  {"T": _type(t.dtype), "swap_memory": AttrValue(b=False)}, forward["inside"]))
        popped = writer.enter(grad, ("stack", stack), lambda: stack, dtypes.resource)
        frame["reads"][t] = writer.node(f"{stack}/StackPopV2", "StackPopV2", [popped, f"^{index}"],
                                        {"elem_type": _type(t.dtype)}, step)
    counter = next(node for node in writer.added if node.name == forward["nexts"][0])
    counter.input.extend(f"^{push}" for push in pushes)  # each iteration's pushes before the next iteration
    initial, specs = [forward["exits"][0]], [(dtypes.int32, ())]
    initial += [writer.source(grad, 1 + k) for k in range(nc)]
    specs += [(t.dtype, t.shape) for t in saved[:nc]]
    arrays = []
    for m, j in enumerate(stacked):  # TF's TensorArray gradient: the output's gradient scattered into a second array
        handle, flow = forward["arrays"][j], forward["exits"][counted + n + j]
        array = writer.node(f"{prefix}/TensorArrayGrad", "TensorArrayGradV3", [handle, flow],
                            {"source": AttrValue(s=scope.encode())}, outer)
        size = writer.node(f"{array}/size", "TensorArraySizeV3", [handle, flow], {}, outer)
        steps = writer.node(f"{array}/range", "Range", [writer.const(f"{array}/start", 0, dtypes.int32, outer), size,
                                                         writer.const(f"{array}/delta", 1, dtypes.int32, outer)],
                            {"Tidx": _type(dtypes.int32)}, outer)
        value = loop.outputs[n + j]
        initial.append(writer.node(f"{array}/scatter", "TensorArrayScatterV3", [
            array, steps, writer.source(grad, 1 + nc + m), f"{array}:1"], {"T": _type(value.dtype)}, outer))
        arrays.append(array)
        specs.append((dtypes.float32, ()))
    summed = [(loop.inputs[captured + c], captured) for c in a["captured"]]
    summed += [(loop.inputs[sequences + j], sequences) for j in a["sliced"]]
    for t, start in summed:
        initial.append(writer.node(f"{prefix}/b_acc", "ZerosLike", [writer.outside(loop, t, start)],
                                   {"T": _type(t.dtype)}, outer))
        specs.append((t.dtype, t.shape))
    _frame(writer, grad, initial, specs)
    identities = frame["identities"]
    writer.node(None, "Sub", [identities[0], writer.const(f"{prefix}/one", 1, dtypes.int32, step)], int32, step,
                name=index)
    for m, (array, seed) in enumerate(zip(arrays, grad.feeds[a["num_saved"] + nc:])):
        entered = writer.enter(grad, ("array", array), lambda: array, dtypes.resource)
        frame["reads"][seed] = writer.node(f"{array}/read", "TensorArrayReadV3", [
            entered, index, identities[1 + nc + m]], {"dtype": _type(seed.dtype)}, step)
    for k, seed in enumerate(grad.feeds[a["num_saved"]:a["num_saved"] + nc]):
        frame["reads"][seed] = identities[1 + k]
    results = [index]
    for k, g in enumerate(body.outputs[:nc]):
        results.append(writer.read(g, step) if g is not None else writer.node(
            f"{prefix}/zeros", "ZerosLike", [frame["reads"][saved[k]]], {"T": _type(saved[k].dtype)}, step))
    results += identities[1 + nc:1 + nc + len(arrays)]
    grads = body.outputs[nc + len(a["sliced"]):] + body.outputs[nc:nc + len(a["sliced"])]
    for k, ((t, _), g) in enumerate(zip(summed, grads)):
        total, g = identities[1 + nc + len(arrays) + k], writer.read(g, step)
        if k >= len(a["captured"]):  # a sequence's step gives its row `index`
            g = _row(writer, grad, t, g, loop, sequences, prefix, step)
        results.append(writer.node(f"{prefix}/b_acc/Add", "Add", [total, g], {"T": _type(t.dtype)}, step))
    for result, (dtype, _), next_ in zip(results, specs, frame["nexts"]):
        writer.node(None, "NextIteration", [result], {"T": _type(dtype)}, step, name=next_)


def _row(writer, grad, sequence, g, loop, sequences, prefix, step):
    """`g`, the gradient of step `index`'s slice, as a gradient of the whole sequence: zeros but that row."""
    shape = writer.node(f"{prefix}/sequence_shape", "Shape", [writer.outside(loop, sequence, sequences)],
                        {"T": _type(sequence.dtype), "out_type": _type(dtypes.int32)}, (None, None, None))
    entered = writer.enter(grad, ("shape", sequence), lambda: shape, dtypes.int32)
    int32 = _type(dtypes.int32)
    where = writer.node(f"{prefix}/row", "Reshape", [writer.frames[grad]["index"], writer.const(
        f"{prefix}/row/shape", np.array([1, 1]), dtypes.int32, step)], {"T": int32, "Tshape": int32}, step)
    rows = writer.node(f"{prefix}/rows", "ExpandDims", [g, writer.const(f"{prefix}/rows/dim", 0, dtypes.int32, step)],
                       {"T": _type(sequence.dtype), "Tdim": int32}, step)
    return writer.node(f"{prefix}/dense", "ScatterNd", [where, rows, entered],
                       {"T": _type(sequence.dtype), "Tindices": int32}, step)


def _frame(writer, grad, initial, specs):
    """The backward frame's Enters, Merges, LoopCond (count > 0), Switches, Identities and Exits."""
    frame, body = writer.frames[grad], grad.bodies[0]
    test = (body, "test", body)
    for init, (dtype, _), enter, merge, next_ in zip(initial, specs, frame["enters"], frame["merges"], frame["nexts"]):
        writer.node(None, "Enter", [init], {
            "T": _type(dtype), "frame_name": frame["frame"], "is_constant": AttrValue(b=False),
            "parallel_iterations": AttrValue(i=1)}, (None, None, None), name=enter)
        writer.node(None, "Merge", [enter, next_], {"T": _type(dtype), "N": AttrValue(i=2)}, test, name=merge)
    more = writer.node(f"{frame['prefix']}/Greater", "Greater", [frame["merges"][0], writer.const(
        f"{frame['prefix']}/zero", 0, dtypes.int32, test)], {"T": _type(dtypes.int32)}, test)
    loop_cond = writer.node(f"{frame['prefix']}/b_count_2", "LoopCond", [more], {}, test)
    for (dtype, _), merge, switch, identity, exit_ in zip(specs, frame["merges"], frame["switches"],
                                                          frame["identities"], frame["exits"]):
        writer.node(None, "Switch", [merge, loop_cond], {"T": _type(dtype)}, test, name=switch)
        writer.node(None, "Identity", [f"{switch}:1"], {"T": _type(dtype)}, test, name=identity)
        writer.node(None, "Exit", [switch], {"T": _type(dtype)}, (None, None, None), name=exit_)
