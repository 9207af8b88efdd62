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

The backward loop TF writes for a loop's gradient (a frame popping the stacks the forward loop pushed) is paired with
its forward loop by TF's names (a b_exit Enter "<scope>/<forward Exit>_grad/b_exit" takes the gradient of that Exit;
an Exit "<scope>/<forward Enter>_grad/Exit" or ".../b_acc_3" gives the gradient of that Enter's input); its frame and
the stacks are dropped, each of those Exits stays as a stand-in (PART "gradient loop"), and import builds ringflow's
gradient of the rebuilt While in their place (rebuild_gradient_loop), under TF's gradient scope, so that the
TensorArray gradients inside meet those TF wrote around the loop. So a training graph TF wrote trains on. The
gradient of a loop in a loop is refused by name.
"""
import collections

from ..framework.node_def import AttrValue, NodeDef
from ..framework.registry import op_def
from ..framework.tensor_shape import TensorShape
from ..ops.math_ops import zeros_like
from ..ops.while_loop_ops import while_loop
from .cond_nodes import BODY, PART, ringflow_inputs
from .tf_node_defs import from_tf_form
from .tf_nodes import ORIGINAL

LOOP_NODES = ("Enter", "RefEnter", "Exit", "RefExit", "NextIteration", "RefNextIteration", "LoopCond")
MERGES, SWITCHES = ("Merge", "RefMerge"), ("Switch", "RefSwitch")
STACKS = ("StackV2", "StackPushV2", "StackPopV2", "Stack", "StackPush", "StackPop")
GRADIENT_EXITS = ("_grad/Exit", "_grad/b_acc_3")  # TF's names for the gradient of a loop variable, of a captured tensor
_SHAPES = "_output_shapes"

# One loop: its name ("rnn/while"); the Enter nodes, in the order its stand-ins read their inputs; which of them are
# loop variables (positions into enters, in the variables' order); per variable its Merge, Identity, Switch, the
# tensor NextIteration takes, its Exit; the tensor LoopCond takes; the variables' shapes as TF recorded them; the
# NextIteration and LoopCond nodes; the tensors its Enters read (ringflow's names where ringflow wrote the file).
Loop = collections.namedtuple("Loop", "name enters carried merges identities switches results exits test shapes "
                                      "nexts loop_cond sources")
# TF's backward loop of `forward`, built by tf.gradients under `scope`: the gradient each forward Exit receives
# ({Exit name: tensor name}), and for each of its Exits the forward Enter whose input it is the gradient of.
GradientLoop = collections.namedtuple("GradientLoop", "forward scope received gives")


def _split(name):
    op, _, index = name.lstrip("^").partition(":")
    return op, int(index or 0)


def _inputs(node):
    """A node's inputs, and, where ringflow wrote it in TF's form, those it had (TF's form may read Consts import
    leaves out, in place of a value of the loop)."""
    return list(node.input) + (list(from_tf_form(node).input) if ORIGINAL in node.attr else [])


def has_tf_loops(nodes):
    """True when `nodes` hold TF1's while-loop frames."""
    return any(n.op in LOOP_NODES for n in nodes)


def loop_back_edge(node, source):
    """True for the edge by which a loop's Merge reads its NextIteration (ordering the nodes skips it)."""
    return node.op in MERGES and source.op in ("NextIteration", "RefNextIteration")


def read_tf_loops(nodes):
    """(`nodes` with each frame's scaffolding replaced by Exit stand-ins and its nodes marked with the body they run
    in ("F:test", "F:body"), {stand-in name: its Loop or GradientLoop}). `nodes` come inputs first, loop back edges
    aside."""
    by_name, frames = {n.name: n for n in nodes}, {}

    def outside(name):  # the frames a node reading `name` is in: an Exit's less its own
        op = _split(name)[0]
        here = frames.get(op, ())
        return here[:-1] if by_name.get(op) is not None and by_name[op].op in ("Exit", "RefExit") else here
    for node in nodes:
        if node.op in ("Enter", "RefEnter"):
            frames[node.name] = outside(node.input[0]) + (node.attr["frame_name"].s.decode(),)
        else:
            frames[node.name] = max((outside(name) for name in _inputs(node)), key=len, default=())
    nodes = [n for n in nodes if n.op not in STACKS]  # what TF's backward loops pop: ringflow's gradient keeps its own
    by_name = {n.name: n for n in nodes}
    backward = {frames[n.name][-1] for n in nodes if n.op == "Enter" and n.name.endswith("/b_exit")}
    nested = sorted({f[-1] for f in frames.values() if len(f) > 1 and f[-1] in backward})
    if nested:
        raise NotImplementedError(f"import_meta_graph: the backward loops {nested} are inside other loops (TF's "
                                  "gradient of a loop in a loop), which ringflow does not rebuild; import the "
                                  "inference graph and build the training ops on it with ringflow")
    loops = {frame: _loop(frame, [n for n in nodes if frames[n.name] and frames[n.name][-1] == frame], by_name)
             for frame in sorted({f[-1] for f in frames.values() if f} - backward)}
    standins, replaced = {}, {}
    for frame in sorted(backward):
        gradient = _gradient_loop(frame, loops, nodes, frames)
        forward_exit = next(e for e in gradient.forward.exits if e)
        for exit_ in gradient.gives:  # each stands for the gradient it gives, made by ringflow's gradient of the loop
            standins[exit_] = gradient
            replaced[exit_] = NodeDef(name=exit_, op="Exit", attr={PART: AttrValue(s=b"gradient loop")},
                                      input=[*gradient.received.values(), forward_exit])
    nodes = [replaced.get(n.name, n) for n in nodes if n.name in replaced or not set(frames[n.name]) & backward]
    scaffold = {n.name for n in nodes if n.op in LOOP_NODES and n.name not in replaced}
    for loop in loops.values():
        scaffold.update(loop.merges + loop.switches + [i for i in loop.identities if i])
    marks = _mark(loops, by_name, frames)
    exits = {e for loop in loops.values() for e in loop.exits}  # waiting for a loop is waiting for its stand-in
    unwaited, kept = scaffold - exits, []
    for node in nodes:
        if node.name in replaced:
            kept.append(node)
            continue
        if node.name in scaffold and node.op not in ("Exit", "RefExit"):
            continue
        node = NodeDef.FromString(node.SerializeToString())
        if node.op in ("Exit", "RefExit"):
            loop = next(loop for loop in loops.values() if node.name in loop.exits)
            standin = NodeDef(name=node.name, op="Exit", attr={PART: AttrValue(s=b"loop")}, input=loop.sources)
            if BODY in node.attr:  # the cond branch ringflow wrote the loop in
                standin.attr[BODY] = node.attr[BODY]
            node = standin
            standins[node.name] = loop
        elif node.name not in marks and frames[node.name]:
            continue  # in a loop but neither its condition nor its body needs it
        inputs = [i for i in node.input if not (i.startswith("^") and (_split(i)[0] in unwaited or
                                                                         _split(i)[0] not in by_name))]
        del node.input[:]
        node.input.extend(inputs)
        where = marks.get(node.name)
        if where is not None and BODY not in node.attr:  # a cond's branch ringflow wrote keeps its branch
            node.attr[BODY] = AttrValue(s=where.encode())
        kept.append(node)
    return kept, standins


def _gradient_loop(frame, loops, nodes, frames):
    """The GradientLoop of the backward frame `frame`, paired with its forward loop by TF's names: a b_exit Enter
    "<scope>/<forward Exit>_grad/b_exit" takes the gradient of that Exit, an Exit "<scope>/<forward Enter>_grad/Exit"
    (or ".../b_acc_3") gives the gradient of that Enter's input."""
    members = [n for n in nodes if frames[n.name][-1:] == (frame,)]
    exits = {e: loop for loop in loops.values() for e in loop.exits if e}
    received, scope, forward = {}, None, None
    for node in members:
        if node.op == "Enter" and node.name.endswith("/b_exit"):
            path = node.name[:-len("_grad/b_exit")]
            exit_ = max((e for e in exits if path.endswith("/" + e)), key=len, default=None)
            if exit_ is None:
                raise NotImplementedError(f"import_meta_graph: the backward loop {frame!r} takes a gradient "
                                          f"({node.name!r}) of no forward loop's Exit ringflow found")
            scope, forward = path[:-len(exit_) - 1], exits[exit_]
            received[exit_] = node.input[0]
    gives = {}
    for node in members:
        suffix = next((s for s in GRADIENT_EXITS if node.name.endswith(s)), None)
        if node.op == "Exit" and suffix and node.name[len(scope) + 1:-len(suffix)] in forward.enters:
            gives[node.name] = node.name[len(scope) + 1:-len(suffix)]
    return GradientLoop(forward, scope, received, gives)


def _loop(frame, members, by_name):
    enters = [n.name for n in by_name.values() if n.op in ("Enter", "RefEnter")
              and n.attr["frame_name"].s.decode() == frame and _split(n.input[0])[0] in by_name]
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
        exit_ = next((n.name for n in members if n.op in ("Exit", "RefExit")
                      and _split(n.input[0]) == (switch.name, 0)), None)  # a frozen graph keeps only the Exits read
        carried.append(enters.index(enter))
        identities.append(identity)
        switches.append(switch.name)
        results.append(ringflow_inputs(by_name[following])[0])
        nexts.append(following)
        exits.append(exit_)
        shape = merge.attr[_SHAPES].list.shape if _SHAPES in merge.attr else ()
        shapes.append(TensorShape(shape[0]) if len(shape) else TensorShape(None))
    return Loop(name, enters, carried, [m.name for m in merges], identities, switches, results, exits,
                ringflow_inputs(loop_cond)[0], shapes, nexts, loop_cond.name,
                [ringflow_inputs(by_name[e])[0] for e in enters])


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
                stack += [_split(i)[0] for i in _inputs(node)]
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


def rebuild_gradient_loop(gradient, resolve, graph):
    """The gradients `gradient` (a GradientLoop) gives, as ringflow's gradient of its rebuilt forward While (built
    under TF's gradient scope, so that TensorArray gradients meet TF's own): {"<scope>/..._grad/Exit:0": tensor}."""
    loop = gradient.forward
    while_op = resolve(f"{next(e for e in loop.exits if e)}:0").op
    received = [None] * len(while_op.outputs)
    for exit_, name in gradient.received.items():
        received[loop.exits.index(exit_)] = resolve(name)
    with graph.name_scope(gradient.scope + "/"):
        grads = op_def(while_op.type).grad(while_op, *received)
        made, n = {}, len(loop.carried)
        for exit_, enter in gradient.gives.items():
            j = loop.enters.index(enter)
            source = resolve(loop.sources[j])
            position = loop.carried.index(j) if j in loop.carried else next(
                (p for p in range(n, len(while_op.inputs)) if while_op.inputs[p] is source), None)
            found = None if position is None else grads[position]
            made[f"{exit_}:0"] = found if found is not None else zeros_like(source)
    return made
