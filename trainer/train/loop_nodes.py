"""tg.while_loop in a MetaGraphDef: ringflow's While written as the frame TF1's tf.while_loop writes, which TensorFlow
runs and tf_loop_nodes.py reads back as a While.

A While `W` becomes, per loop variable k: `W/Enter_k` (frame_name "W/while_context"), `W/Merge_k` (of the Enter and
`W/NextIteration_k`), `W/Switch_k` (on `W/LoopCond`), `W/Identity_k` (its output 1, what the body reads) and
`W/Exit_k` (its output 0, the loop's value); the condition's nodes read the Merges, the body's the Identities, and
each tensor from outside enters once, by an Enter with is_constant. A loop with maximum_iterations, sequences or
per-step outputs (step_loop's: dynamic_rnn, map_fn) counts its iterations in one more variable, first, as TF1 counts
maximum_iterations: the condition compares it with the maximum and with each sequence's length, the body slices the
sequences at it (a GatherV2 under the name of ringflow's slice) and writes each per-step output into a TensorArray
whose flow is a loop variable, stacked after the loop (TensorArrayGatherV3). A node of the loop with no inputs waits
for its pivot (the first Merge in the condition, the first Identity in the body), so that it runs in the frame.

Loops in loops, conds in loops (cond_nodes.py writes their Switch/Merge nodes, this module points them at the
frame's Identities) and loops in conds (their Enters read what comes from outside the cond through its Switches, as
the While's node does, and their nodes of no inputs wait for the branch's pivot) are written. A loop's gradient
(WhileGrad) of a loop at the top level with nothing but its own ops in its body is TF's backward loop over stacks
(loop_gradient_nodes.py); any other keeps export's mark of what it could not write, with its loop, and importing
them names them.
"""
import numpy as np

from ..framework import dtypes
from ..framework.node_def import AttrValue, NodeDef, attr_value
from ..framework.tensor_shape import TensorShape
from ..ops.control_flow_bodies import encloses
from .cond_nodes import BODY, INPUTS, home_op, merge_name, ringflow_inputs, written_as_nodes
from .loop_frames import chain, level
from .loop_gradient_nodes import plan_gradient, scaffold_gradient
from .tf_nodes import ORIGINAL

PARALLEL_ITERATIONS = 10  # TF1's default; ringflow runs one iteration after another whatever it says
_SHAPES = "_output_shapes"


def _tensor_name(t):
    return t.op.name if t.value_index == 0 else t.name


def _type(dtype):
    return AttrValue(type=dtypes.as_dtype(dtype).as_datatype_enum)


class _Writer:
    def __init__(self, graph_def, graph, loops, roles):
        self.ops = {op.name: op for op in graph.get_operations()}
        self.names = {n.name for n in graph_def.node}
        self.loops, self.roles, self.added = loops, roles, []
        self.enters, self.frames = {}, {}
        # each While's inputs as its node reads them: a loop in a cond reads outside tensors through the cond's Switches
        self.sources = {self.ops[n.name]: [i for i in n.input if not i.startswith("^")] for n in graph_def.node
                        if self.ops.get(n.name) in loops}
        self.ringflow_sources = {self.ops[n.name]: [i for i in ringflow_inputs(n) if not i.startswith("^")]
                                 for n in graph_def.node if self.ops.get(n.name) in loops}
        self.ringflow_names = {}  # a name a written node reads -> ringflow's tensor (not a Switch's, not a Merge)

    def fresh(self, base):
        name, k = base, 0
        while name in self.names:
            k += 1
            name = f"{base}_{k}"
        self.names.add(name)
        return name

    def place(self, op):
        """(the loop body `op` runs in, innermost; "test" or "body": in its condition or its body; the body or
        branch `op` runs in directly)."""
        if op is None:
            return None, None, None
        body, holder = level(op)
        return body, self.roles.get(holder), op.control_flow

    def pivot(self, place):
        """What a node of no inputs at `place` waits for: its cond branch's pivot, or its loop's."""
        body, role, inner = place
        if inner is not None and inner.kind == "cond":
            return f"{inner.owner.name}/{('switch_t', 'switch_f')[inner.index]}"
        if body is None:
            return None
        frame = self.frames[body.owner]
        return (frame["merges"] if role == "test" else frame["identities"])[0]

    def node(self, base, op_type, inputs, attrs, place, shapes=None, name=None):
        """A new node named `name`, or `base` made unique; a node of no inputs in a loop waits for its pivot."""
        node = NodeDef(name=name or self.fresh(base), op=op_type, input=list(inputs), attr=attrs)
        if not inputs and self.pivot(place):
            node.input.append(f"^{self.pivot(place)}")
        ringflow = [self.ringflow_names.get(i, i) for i in inputs]
        if ringflow != list(inputs):  # ringflow's import reads the cond outputs and Switched tensors themselves
            node.attr[INPUTS] = AttrValue(list=AttrValue.ListValue(s=[i.encode() for i in ringflow]))
        if place[2] is not None and place[2].kind == "cond" and place[0] is None:  # ringflow's import: its branch
            node.attr[BODY] = AttrValue(s=f"{place[2].owner.name}:{place[2].index}".encode())
        if shapes is not None:
            node.attr[_SHAPES] = AttrValue(list=AttrValue.ListValue(shape=[TensorShape(s).as_proto() for s in shapes]))
        self.added.append(node)
        return node.name

    def const(self, base, value, dtype, place):
        array = np.asarray(value, dtype=dtypes.as_dtype(dtype).as_numpy_dtype)
        return self.node(base, "Const", [], {"value": attr_value(array), "dtype": _type(dtype)}, place)

    def read(self, t, place, tf_form=True):
        """The name by which a node at `place` reads `t` (tf_form=False: as ringflow's import reads it, a cond's
        output by the cond's name, not its Merge's)."""
        body, role, _ = place
        if body is not None and t in self.frames[body.owner].get("reads", ()):  # a gradient's saved value or seed
            return self.frames[body.owner]["reads"][t]
        if level(t.op)[0] is not body and body is not None:
            return self.enter(body.owner, t, lambda: self.outside(body.owner, t), t.dtype)
        if t.op.type in ("While", "WhileGrad") and t.op in self.loops:
            return self.frames[t.op]["outputs"][t.value_index]
        if tf_form and t.op.type == "Cond" and written_as_nodes(t.op, self.loops):
            self.ringflow_names[merge_name(t.op, t.value_index)] = _tensor_name(t)
            return merge_name(t.op, t.value_index)
        if t.op.type == "LoopVar" and t.op.control_flow.owner in self.loops:
            frame = self.frames[t.op.control_flow.owner]
            if t in frame["slices"]:
                return frame["slices"][t]
            k = frame["carried"].index(t) + frame["counted"]
            return (frame["merges"] if role == "test" else frame["identities"])[k]
        return _tensor_name(t)

    def enter(self, loop, key, source, dtype):
        """A value from outside `loop` read inside it (`key`: a tensor, or the name of a node written here; `source()`
        its name outside): one Enter with is_constant per loop and value."""
        if (loop, key) not in self.enters:
            frame = self.frames[loop]
            self.enters[loop, key] = self.node(f"{frame['prefix']}/Enter", "Enter", [source()], {
                "T": _type(dtype), "frame_name": frame["frame"], "is_constant": AttrValue(b=True),
                "parallel_iterations": AttrValue(i=frame["parallel"])}, self.place(loop))
        return self.enters[loop, key]

    def enter_tensor(self, loop, t):
        return self.enter(loop, t, lambda: self.outside(loop, t), t.dtype)

    def outside(self, loop, t, start=None):
        """The name by which `loop`'s node reads `t`, one of its inputs (from `start` on: its captured tensors), or
        which a node beside it reads `t` by (a Const TF's form of a body node reads, which the body did not take)."""
        a = loop.attrs
        if start is None:
            start = (1 + a["num_carried"] + a["num_stacked"] if loop.type == "WhileGrad" else
                     a["num_loop_vars"] + a["has_maximum_iterations"] + a["num_sequences"])
        position = next((j for j in range(start, len(loop.inputs)) if loop.inputs[j] is t), None)
        if position is None:
            return self.read(t, self.place(loop))
        return self.source(loop, position)

    def source(self, loop, position):
        """`loop`'s input `position` as its node reads it, noting the name ringflow's import reads it by."""
        name = self.rename(self.sources[loop][position], self.place(loop))
        self.ringflow_names[name] = self.rename(self.ringflow_sources[loop][position], self.place(loop), False)
        return name

    def plan(self, loop):
        """Reserve the names of the frame's nodes that other nodes read: its variables' Merges, Identities, Exits,
        the stacked outputs, the slices (which keep their LoopVar's name)."""
        a, w = loop.attrs, loop.name
        n, s, k, limited = a["num_loop_vars"], a["num_sequences"], a["num_stacked"], a["has_maximum_iterations"]
        graded = any(op.type == "WhileGrad" and op.bodies[0].parent.owner is loop for op in self.loops)
        counted = int(bool(limited or s or k or graded))  # a gradient pops as many values as iterations ran
        variables = counted + n + k
        frame = self.frames[loop] = {
            "carried": list(loop.feeds[:n]), "counted": counted, "frame": AttrValue(s=f"{w}/while_context".encode()),
            "slices": {slot: slot.op.name for slot in loop.feeds[n:n + s]}, "prefix": w,
            # one iteration at a time where a gradient's stacks take each iteration's values in order
            "parallel": 1 if graded else PARALLEL_ITERATIONS,
            **{part: [self.fresh(f"{w}/{op_type}") for _ in range(variables)] for part, op_type in (
                ("enters", "Enter"), ("merges", "Merge"), ("switches", "Switch"), ("identities", "Identity"),
                ("exits", "Exit"), ("nexts", "NextIteration"))}}
        frame["outputs"] = frame["exits"][counted:counted + n] + [self.fresh(f"{w}/TensorArrayStack") for _ in range(k)]
        frame["inside"] = (loop.bodies[0], None, loop.bodies[0])

    def scaffold(self, loop):
        a, body, outer, w, frame = loop.attrs, loop.bodies[0], self.place(loop), loop.name, self.frames[loop]
        n, s, k, limited = a["num_loop_vars"], a["num_sequences"], a["num_stacked"], a["has_maximum_iterations"]
        counted, test, step = frame["counted"], (body, "test", body), (body, "body", body)
        initial = [self.source(loop, j) for j in range(n)]
        specs = [(t.dtype, t.shape) for t in loop.outputs[:n]]
        arrays = []
        for t in loop.outputs[n:n + k]:
            size = self.const(f"{w}/TensorArray/size", 0, dtypes.int32, outer)
            arrays.append(self.node(f"{w}/TensorArray", "TensorArrayV3", [size], {
                "dtype": _type(t.dtype), "element_shape": AttrValue(shape=_element(t).as_proto()),
                "dynamic_size": AttrValue(b=True), "clear_after_read": AttrValue(b=True),
                "identical_element_shapes": AttrValue(b=True), "tensor_array_name": AttrValue(s=b"")}, outer))
        if counted:
            initial.insert(0, self.const(f"{w}/iteration_counter", 0, dtypes.int32, outer))
            specs.insert(0, (dtypes.int32, TensorShape([])))
        initial += [f"{handle}:1" for handle in arrays]
        specs += [(dtypes.float32, TensorShape([]))] * k
        frame["arrays"] = arrays
        for init, (dtype, shape), enter, merge, next_ in zip(initial, specs, frame["enters"], frame["merges"],
                                                             frame["nexts"]):
            self.node(None, "Enter", [init], {
                "T": _type(dtype), "frame_name": frame["frame"], "is_constant": AttrValue(b=False),
                "parallel_iterations": AttrValue(i=frame["parallel"])}, outer, name=enter)
            self.node(None, "Merge", [enter, next_], {"T": _type(dtype), "N": AttrValue(i=2)}, frame["inside"],
                      shapes=[shape, []], name=merge)
        conditions = [] if body.test is None else [self.read(body.test, test)]
        counter, int32 = frame["merges"][0], {"T": _type(dtypes.int32)}
        for x in reversed(loop.inputs[n + limited:n + limited + s]):
            shape = self.node(f"{w}/Shape", "Shape", [self.outside(loop, x, n + limited)],
                              {"T": _type(x.dtype), "out_type": _type(dtypes.int32)}, outer)
            length = self.node(f"{w}/length", "GatherV2", [shape, self.const(f"{w}/first", 0, dtypes.int32, outer),
                                                            self.const(f"{w}/axis", 0, dtypes.int32, outer)],
                               _gather_attrs(dtypes.int32), outer)
            entered = self.enter(loop, length, lambda: length, dtypes.int32)
            conditions.insert(0, self.node(f"{w}/Less", "Less", [counter, entered], int32, test))
        if limited:
            limit = self.enter(loop, loop.inputs[n], lambda: self.outside(loop, loop.inputs[n], n), dtypes.int32)
            conditions.insert(0, self.node(f"{w}/Less", "Less", [counter, limit], int32, test))
        pred = conditions[0]
        for more in conditions[1:]:
            pred = self.node(f"{w}/LogicalAnd", "LogicalAnd", [pred, more], {}, test)
        loop_cond = self.node(f"{w}/LoopCond", "LoopCond", [pred], {}, test)
        for (dtype, _), merge, switch, identity, exit_ in zip(specs, frame["merges"], frame["switches"],
                                                              frame["identities"], frame["exits"]):
            self.node(None, "Switch", [merge, loop_cond], {"T": _type(dtype)}, frame["inside"], name=switch)
            self.node(None, "Identity", [f"{switch}:1"], {"T": _type(dtype)}, frame["inside"], name=identity)
            self.node(None, "Exit", [switch], {"T": _type(dtype)}, outer, name=exit_)
        index = frame["identities"][0]
        for x, slot in zip(loop.inputs[n + limited:n + limited + s], loop.feeds[n:n + s]):
            sequence = self.enter(loop, x, lambda: self.outside(loop, x, n + limited), x.dtype)
            axis = self.const(f"{slot.op.name}/axis", 0, dtypes.int32, step)
            self.node(None, "GatherV2", [sequence, index, axis], _gather_attrs(x.dtype), step,
                      name=frame["slices"][slot])
        results = [self.read(t, step) for t in body.outputs[:n]]
        if counted:
            one = self.const(f"{w}/add/y", 1, dtypes.int32, step)
            results.insert(0, self.node(f"{w}/add", "Add", [index, one], int32, step))
        for handle, t, flow in zip(arrays, body.outputs[n:n + k], frame["identities"][counted + n:]):
            entered = self.enter(loop, handle, lambda: handle, dtypes.resource)
            results.append(self.node(f"{w}/TensorArrayWrite", "TensorArrayWriteV3",
                                     [entered, index, self.read(t, step), flow], {"T": _type(t.dtype)}, step))
        for result, (dtype, _), next_ in zip(results, specs, frame["nexts"]):
            self.node(None, "NextIteration", [result], {"T": _type(dtype)}, frame["inside"], name=next_)
        for handle, t, flow, stacked in zip(arrays, loop.outputs[n:n + k], frame["exits"][counted + n:],
                                            frame["outputs"][n:]):
            size = self.node(f"{w}/TensorArraySize", "TensorArraySizeV3", [handle, flow], {}, outer)
            steps = self.node(f"{w}/range", "Range", [self.const(f"{w}/range/start", 0, dtypes.int32, outer), size,
                                                     self.const(f"{w}/range/delta", 1, dtypes.int32, outer)],
                              {"Tidx": _type(dtypes.int32)}, outer)
            self.node(None, "TensorArrayGatherV3", [handle, steps, flow], {
                "dtype": _type(t.dtype), "element_shape": AttrValue(shape=_element(t).as_proto())}, outer, name=stacked)

    def rewrite(self, node):
        """Point `node`'s inputs (and its ORIGINAL's and INPUTS', the forms ringflow reads back) at the frames'
        nodes."""
        op = self.ops.get(node.name) or self.home(node.name)
        place = self.place(op)
        node.input[:] = [name for i in node.input for name in (self.waits(i) if i.startswith("^") else
                                                                [self.rename(i, place)])]
        if INPUTS in node.attr:
            named = [self.rename(i.decode(), place, False) for i in node.attr[INPUTS].list.s]
            node.attr[INPUTS] = AttrValue(list=AttrValue.ListValue(s=[i.encode() for i in named]))
        if ORIGINAL in node.attr:
            original = NodeDef.FromString(node.attr[ORIGINAL].s)
            original.input[:] = [i if i.startswith("^") else self.rename(i, place, False) for i in original.input]
            node.attr[ORIGINAL] = AttrValue(s=original.SerializeToString())
        pivot = self.pivot(place)
        if pivot and not [i for i in node.input if not i.startswith("^")] and f"^{pivot}" not in node.input:
            node.input.append(f"^{pivot}")

    def stranded(self, node, dropped):
        """True for a node no frame can hold: it reads a value of a loop body it is not in (a cond's Merge reads its
        branches: they are in its loop), or such a node."""
        op = self.ops.get(node.name) or self.home(node.name)
        for name in node.input:
            source, _, index = name.lstrip("^").partition(":")
            if source in dropped:
                return True
            source = self.ops.get(source)
            if op is not None and source is not None and not encloses(level(source)[0], op.control_flow):
                return True
        return False

    def waits(self, control):
        """A control input as written: waiting for a loop is waiting for its Exits."""
        op = self.ops.get(control[1:])
        return [f"^{e}" for e in self.frames[op]["exits"]] if op in self.loops else [control]

    def rename(self, name, place, tf_form=True):
        op, _, index = name.partition(":")
        source = self.ops.get(op)
        if source is None or int(index or 0) >= len(source.outputs):
            return name
        return self.read(source.outputs[int(index or 0)], place, tf_form)

    def home(self, name):
        """The op a node TF's form added belongs to, whose loop it runs in (home_op)."""
        return home_op(self.ops, name)


def _element(stacked):
    """The shape of one step of a stacked per-step output."""
    return stacked.shape[1:] if stacked.shape.ndims is not None else TensorShape(None)


def _gather_attrs(dtype):
    return {"Tparams": _type(dtype), "Tindices": _type(dtypes.int32), "Taxis": _type(dtypes.int32),
            "batch_dims": AttrValue(i=0)}


def write_loops(graph_def, graph, loops, roles):
    """Rewrite `graph_def` (export's nodes of `graph`) so that the While ops in `loops` are TF1 frames."""
    if not loops:
        return
    writer = _Writer(graph_def, graph, loops, roles)
    ordered = sorted((op for op in loops if op.type == "While"), key=lambda op: len(chain(op)))  # outer loops first
    gradients = [op for op in loops if op.type == "WhileGrad"]
    for loop in ordered:
        writer.plan(loop)
    for grad in gradients:  # the Enters a gradient's Exits are named after: the forward loop's, made first
        forward = grad.bodies[0].parent.owner
        a = forward.attrs
        start = a["num_loop_vars"] + a["has_maximum_iterations"]
        for t in forward.inputs[start:]:
            writer.enter(forward, t, lambda t=t: writer.outside(forward, t, start), t.dtype)
    for grad in gradients:
        plan_gradient(writer, grad)
    for loop in ordered:
        writer.scaffold(loop)
    for grad in gradients:
        scaffold_gradient(writer, grad)
    dropped, size = set(), -1
    while size != len(dropped):  # a gradient tg.gradients built in a loop's gradient but nothing uses, reading it
        size = len(dropped)
        dropped.update(node.name for node in graph_def.node if writer.stranded(node, dropped))
    kept = []
    for node in graph_def.node:
        op = writer.ops.get(node.name)
        if op is not None and (op in loops or (op.type == "LoopVar" and op.control_flow.owner in loops)):
            continue
        if node.name in dropped:
            continue
        writer.rewrite(node)
        kept.append(node)
    del graph_def.node[:]
    graph_def.node.extend(kept + writer.added)
