"""TF1's tf.while_loop as TensorFlow writes it (a frame of Enter, Merge, Switch, Identity, NextIteration, Exit and
LoopCond nodes) read as ringflow's While, the loop of tg.while_loop.

A frame is named by its Enters' frame_name. Each loop variable k enters by `F/Enter_k`, is `F/Merge_k` (of the Enter
and `F/NextIteration_k`) in the loop's condition, `F/Identity_k` (of `F/Switch_k:1`, the Switch on LoopCond) in its
body, and leaves by `F/Exit_k` (of `F/Switch_k:0`); an Enter with is_constant is a tensor from outside the loop that
the condition or body reads (a TensorArray's handle, a weight). A node is in the frame its inputs are in: an Enter
opens its frame, an Exit leaves it. The condition is what LoopCond reads, back to the Merges; the body what the
NextIterations read, back to the Identities; an inner loop in the body is its Exits, reading what its Enters read.

The scaffolding is dropped; each Exit stays as a stand-in (PART "loop") whose inputs are what the loop reads from
outside, so that a cond around the loop takes it into its branch as it takes any node. Import rebuilds the loop with
tg.while_loop when it meets the first stand-in (rebuild_loop), building the condition's and the body's nodes inside
its functions: a loop imports, computes and differentiates as one ringflow built. maximum_iterations needs nothing
of its own: TF writes it as one more loop variable, a counter its condition compares.

The backward loops TF writes for a loop's gradients (tf.gradients of a loop: stacks the forward loop pushes, a
second frame popping them) are refused, naming them: a graph TF wrote for training does not import.
"""
import collections

from ..framework.node_def import AttrValue, NodeDef
from ..framework.tensor_shape import TensorShape
from ..ops.while_loop_ops import while_loop
from .cond_nodes import BODY, PART, ringflow_inputs

LOOP_NODES = ("Enter", "RefEnter", "Exit", "RefExit", "NextIteration", "RefNextIteration", "LoopCond")
MERGES, SWITCHES = ("Merge", "RefMerge"), ("Switch", "RefSwitch")
GRADIENT_LOOPS = ("StackV2", "StackPushV2", "StackPopV2", "Stack", "StackPush", "StackPop", "TensorArrayGradV3")
_SHAPES = "_output_shapes"

# One loop: its name ("rnn/while"); the Enter nodes, in the order its stand-ins read their inputs; which of them are
# loop variables (positions into enters, in the variables' order); per variable its Merge, Identity, Switch, the
# tensor NextIteration takes, its Exit; the tensor LoopCond takes; the variables' shapes as TF recorded them; the
# NextIteration and LoopCond nodes.
Loop = collections.namedtuple("Loop", "name enters carried merges identities switches results exits test shapes "
                                      "nexts loop_cond")


def _split(name):
    op, _, index = name.lstrip("^").partition(":")
    return op, int(index or 0)


def has_tf_loops(nodes):
    """True when `nodes` hold TF1's while-loop frames."""
    return any(n.op in LOOP_NODES for n in nodes)


def loop_back_edge(node, source):
    """True for the edge by which a loop's Merge reads its NextIteration (ordering the nodes skips it)."""
    return node.op in MERGES and source.op in ("NextIteration", "RefNextIteration")


def read_tf_loops(nodes):
    """(`nodes` with each frame's scaffolding replaced by Exit stand-ins and its nodes marked with the body they run
    in ("F:test", "F:body"), {loop name: Loop}). `nodes` come inputs first, loop back edges aside."""
    gradient = sorted({n.op for n in nodes if n.op in GRADIENT_LOOPS})
    if gradient:
        raise NotImplementedError(
            f"import_meta_graph: the graph holds TF1's gradient loops (the backward while loops tf.gradients builds "
            f"for a tf.while_loop, dynamic_rnn or map_fn, over the stacks {gradient} the forward loop fills), which "
            "ringflow does not rebuild; forward loops import. Import an inference graph (export it before building "
            "the optimizer, or freeze the serving graph) and build the training ops on it with ringflow, or build "
            "the graph with the same Python code and restore its variables with Saver.restore")
    by_name = {n.name: n for n in nodes}
    frames = {}
    for node in nodes:
        if node.op in ("Enter", "RefEnter"):
            frames[node.name] = frames.get(_split(node.input[0])[0], ()) + (node.attr["frame_name"].s.decode(),)
            continue
        deepest = ()
        for name in node.input:
            op = _split(name)[0]
            here = frames.get(op, ())
            if by_name.get(op) is not None and by_name[op].op in ("Exit", "RefExit"):
                here = here[:-1]
            deepest = max(deepest, here, key=len)
        frames[node.name] = deepest
    loops = {frame: _loop(frame, [n for n in nodes if frames[n.name] and frames[n.name][-1] == frame], by_name)
             for frame in sorted({f[-1] for f in frames.values() if f})}
    scaffold = {n.name for n in nodes if n.op in LOOP_NODES}
    for loop in loops.values():
        scaffold.update(loop.merges + loop.switches + [i for i in loop.identities if i])
    standins = {}
    marks = _mark(loops, by_name, frames)
    kept = []
    for node in nodes:
        if node.name in scaffold and node.op not in ("Exit", "RefExit"):
            continue
        node = NodeDef.FromString(node.SerializeToString())
        if node.op in ("Exit", "RefExit"):
            loop = next(loop for loop in loops.values() if node.name in loop.exits)
            standin = NodeDef(name=node.name, op="Exit", attr={PART: AttrValue(s=b"loop")},
                              input=[ringflow_inputs(by_name[e])[0] for e in loop.enters])
            if BODY in node.attr:  # the cond branch ringflow wrote the loop in
                standin.attr[BODY] = node.attr[BODY]
            node = standin
            standins[node.name] = loop
        elif node.name not in marks and frames[node.name]:
            continue  # in a loop but neither its condition nor its body needs it
        inputs = [i for i in node.input if not (i.startswith("^") and _split(i)[0] in scaffold)]
        del node.input[:]
        node.input.extend(inputs)
        where = marks.get(node.name)
        if where is not None and BODY not in node.attr:  # a cond's branch ringflow wrote keeps its branch
            node.attr[BODY] = AttrValue(s=where.encode())
        kept.append(node)
    return kept, standins


def _loop(frame, members, by_name):
    enters = [n.name for n in by_name.values() if n.op in ("Enter", "RefEnter")
              and n.attr["frame_name"].s.decode() == frame]
    merges = [n for n in members if n.op in MERGES and any(_split(i)[0] in enters for i in n.input)]
    loop_cond = next((n for n in members if n.op == "LoopCond"), None)
    if loop_cond is None:
        raise NotImplementedError(f"import_meta_graph: the while-loop frame {frame!r} has no LoopCond node; "
                                  "ringflow rebuilds the frames TF1's tf.while_loop writes")
    name = loop_cond.name.rpartition("/")[0]
    carried, identities, switches, results, exits, shapes, nexts = [], [], [], [], [], [], []
    for merge in merges:
        enter = next(_split(i)[0] for i in merge.input if _split(i)[0] in enters)
        following = next(_split(i)[0] for i in merge.input if _split(i)[0] not in enters)
        switch = next(n for n in members if n.op in SWITCHES and _split(n.input[0])[0] == merge.name
                      and _split(n.input[1])[0] == loop_cond.name)
        identity = next((n.name for n in members if n.op == "Identity" and n.input[0] == f"{switch.name}:1"), None)
        exit_ = next((n.name for n in members if n.op in ("Exit", "RefExit") and _split(n.input[0]) == (switch.name, 0)),
                     None)  # a frozen graph keeps only the Exits its outputs read
        carried.append(enters.index(enter))
        identities.append(identity)
        switches.append(switch.name)
        results.append(ringflow_inputs(by_name[following])[0])
        nexts.append(following)
        exits.append(exit_)
        shape = merge.attr[_SHAPES].list.shape if _SHAPES in merge.attr else ()
        shapes.append(TensorShape(shape[0]) if len(shape) else TensorShape(None))
    return Loop(name, enters, carried, [m.name for m in merges], identities, switches, results, exits,
                ringflow_inputs(loop_cond)[0], shapes, nexts, loop_cond.name)


def _mark(loops, by_name, frames):
    """{node name: "F:test" or "F:body"} for the nodes each loop's condition and body need."""
    inner = {}
    for loop in loops.values():
        inner.update((exit_, loop) for exit_ in loop.exits if exit_)
    marks = {}
    for loop in loops.values():
        frame = by_name[loop.enters[0]].attr["frame_name"].s.decode()
        stops = set(loop.enters) | set(loop.merges) | set(loop.switches) | {i for i in loop.identities if i}
        for where, roots in ((f"{loop.name}:test", by_name[loop.loop_cond].input[:1]),
                             (f"{loop.name}:body", [by_name[n].input[0] for n in loop.nexts])):
            stack = [_split(r)[0] for r in roots]
            while stack:
                name = stack.pop()
                node = by_name.get(name)
                if node is None or name in stops or name in marks or by_name[name].op == "LoopCond":
                    continue
                if name in inner and inner[name] is not loop:  # an inner loop: what it reads from here
                    marks[name] = where
                    stack += [_split(by_name[e].input[0])[0] for e in inner[name].enters]
                    continue
                if frames[name][-1:] != (frame,):
                    continue
                marks[name] = where
                stack += [_split(i)[0] for i in node.input]
    return marks


def rebuild_loop(loop, outside, resolve, bind, build_body, scoped):
    """Rebuild `loop` with tg.while_loop: `outside` are the tensors its Enters read (in loop.enters' order),
    `bind({name: tensor})` makes names resolve inside its functions, `build_body("F:test" | "F:body")` builds those
    nodes. Returns {"F/Exit_k:0": tensor} per loop variable."""
    constants = {f"{e}:0": t for k, (e, t) in enumerate(zip(loop.enters, outside)) if k not in loop.carried}
    initial = [outside[k] for k in loop.carried]

    def test(*values):
        bind({**constants, **{f"{m}:0": v for m, v in zip(loop.merges, values)}})
        build_body(f"{loop.name}:test")
        return resolve(loop.test)

    def body(*values):
        bind({**constants, **{f"{s}:1": v for s, v in zip(loop.switches, values)},
              **{f"{i}:0": v for i, v in zip(loop.identities, values) if i}})
        build_body(f"{loop.name}:body")
        return [resolve(r) for r in loop.results]
    # TF's shape invariants are its Merges' shapes; a GraphDef without them (a frozen graph) keeps each variable's
    # rank and lets its dimensions vary, as shape_invariants may have
    invariants = [shape if shape.ndims is not None else TensorShape(None if t.shape.ndims is None else
                                                                     [None] * t.shape.ndims)
                  for shape, t in zip(loop.shapes, initial)]
    outputs = while_loop(test, body, initial, shape_invariants=invariants, name=scoped(loop.name) + "/",
                         return_same_structure=True)
    return {f"{e}:0": t for e, t in zip(loop.exits, outputs) if e}
