"""tg.cond in a MetaGraphDef: written as TF1's Switch/Merge nodes, rebuilt as a Cond on import.

Export writes each Cond as tf.cond in TF 1.15 builds it (v1 control flow): `C/pred_id` (Identity of the
predicate), `C/Switch` of the predicate with the pivots `C/switch_t` and `C/switch_f`, one `C/Switch_k` per captured
tensor, whose output 1 (true) or 0 (false) the branch nodes read, one `C/Merge_j` per output, of the false then
the true branch's value, and `C` itself, an Identity of the first output. A branch node with no input from its
branch waits for the branch's pivot, so TensorFlow runs only the taken branch. An output one branch lacks (a
forward value a gradient cond reads) is a Merge of one input. The branch nodes keep their own names. A node no
session can run (a gradient nothing uses, reading a branch's value from outside it) is left out.

The nodes carry what ringflow needs to rebuild the cond (TensorFlow ignores "_" attrs): each branch node its branch
(BODY) and its inputs as ringflow built them (INPUTS); the scaffolding its role (PART); `C/pred_id` the branches'
outputs. Import builds each branch's nodes inside tg.cond's branch functions, so a cond computes, differentiates
and trains on as the one exported.
"""
from ..framework.node_def import AttrValue, NodeDef
from ..ops.control_flow_bodies import encloses
from ..ops.control_flow_ops import cond

BODY = "_ringflow_body"  # "<cond name>:<0 true | 1 false>": the innermost branch a node runs in
INPUTS = "_ringflow_inputs"  # a branch node's inputs as ringflow built it (the file's read the Switches)
PART = "_ringflow_cond"  # on the scaffolding: "pred_id", "pivot", "switch", "merge" or "alias"
OUTPUTS = ("_ringflow_then", "_ringflow_else")  # on C/pred_id: each branch's outputs ("" where it has none)
OWNER = "_ringflow_cond_name"  # on a Merge whose cond is not named by its scope (one read from TF's own nodes)


def written_as_nodes(op, loops=()):
    """True when `op` (a Cond, or an op in cond branches) is written as Switch/Merge nodes: outside loops, or in
    `loops` (the While ops written as TF1 frames: loop_nodes.py)."""
    if op.bodies and op.type != "Cond":
        return False
    body = op.control_flow
    while body is not None:
        if body.kind != "cond" and body.owner not in loops:
            return False
        body = body.parent
    return True


def _branch(op):
    """The cond branch `op` runs in directly, or None (the top level, or a loop's body, which loop_nodes.py
    writes)."""
    body = op.control_flow if op is not None else None
    return body if body is not None and body.kind == "cond" else None


def merge_name(c, j):
    """The name of the Merge node that is output `j` of the Cond `c` in the file."""
    return f"{c.name}/Merge" + (f"_{j}" if j else "")


def _inside(t, body):
    """True when `t` is built in `body` or in a branch within it."""
    return t.op.control_flow is not None and encloses(body, t.op.control_flow)


def _tensor_name(t):
    return t.op.name if t.value_index == 0 else t.name


def _strings(values):
    return AttrValue(list=AttrValue.ListValue(s=[v.encode() for v in values]))



def home_op(ops, name):
    """The op of `ops` (name -> op) a node TF's form added belongs to ("x/shape" is x's), or None: the node runs in
    that op's branch or loop."""
    while "/" in name:
        name = name.rpartition("/")[0]
        if name in ops:
            return ops[name]
    return None

class _Writer:
    def __init__(self, graph, conds):
        self.ops = {op.name: op for op in graph.get_operations()}
        self.merges = {c: [merge_name(c, j) for j in range(len(c.outputs))] for c in conds}

    def name(self, t):
        """A tensor's name in the file: a Cond's output is its Merge."""
        return self.merges[t.op][t.value_index] if t.op in self.merges else _tensor_name(t)

    def seen(self, t, body):
        """The name by which a node in `body` reads `t`: through its cond's Switch when `t` is from outside."""
        if body is None or body.kind != "cond" or _inside(t, body):
            return self.name(t)
        owner = body.owner
        if t not in owner.feeds:  # a ref input (a variable an Assign updates) is read in place
            return self.name(t)
        return f"{owner.name}/Switch_{owner.feeds.index(t) + 1}:{1 - body.index}"

    def stranded(self, node, op, dropped):
        """True for a node no session can run: it reads a branch's value from outside that branch (a gradient
        tg.gradients built but nothing uses), or reads such a node."""
        body = op.control_flow if op is not None else None
        for name in node.input:
            if name.lstrip("^").partition(":")[0] in dropped:
                return True
            t = None if name.startswith("^") or op is None else self.tensor(name)
            if t is not None and not encloses(t.op.control_flow, body) and (body is None or t not in body.owner.feeds):
                return True
        return False

    def tensor(self, name):
        op, _, index = name.partition(":")
        op = self.ops.get(op)
        return None if op is None else op.outputs[int(index or 0)]

    def home(self, name):
        """The op a node TF's form added belongs to, whose branch it runs in (home_op)."""
        return home_op(self.ops, name)

    def rewrite(self, node, op):
        """Point `node`'s inputs at the Merges and Switches; True when one of them changed."""
        body = _branch(op)
        new, live = [], False
        for name in node.input:
            if name.startswith("^"):
                source = self.ops.get(name[1:])
                if source in self.merges:
                    name = "^" + self.merges[source][0]
                live = live or (source is not None and body is not None and source.control_flow is not None
                                and encloses(body, source.control_flow))
            else:
                t = self.tensor(name)
                if t is not None:
                    name = self.seen(t, body)
                    live = live or (body is not None and (name.startswith(f"{body.owner.name}/Switch_") or
                                                          _inside(t, body)))
            new.append(name)
        if body is not None and not live:  # a Const: it runs when its branch's pivot does
            new.append(f"^{body.owner.name}/{('switch_t', 'switch_f')[body.index]}")
        changed = new != list(node.input)
        if changed:
            del node.input[:]
            node.input.extend(new)
        return changed

    def scaffold(self, c):
        where = c.control_flow
        pred = self.seen(c.inputs[0], where)
        dtype = AttrValue(type=c.inputs[0].dtype.as_datatype_enum)
        nodes = [NodeDef(name=f"{c.name}/Switch", op="Switch", input=[pred, pred], attr={"T": dtype}),
                 NodeDef(name=f"{c.name}/switch_t", op="Identity", input=[f"{c.name}/Switch:1"], attr={"T": dtype}),
                 NodeDef(name=f"{c.name}/switch_f", op="Identity", input=[f"{c.name}/Switch"], attr={"T": dtype}),
                 NodeDef(name=f"{c.name}/pred_id", op="Identity", input=[pred], attr={"T": dtype})]
        for node in nodes:
            node.attr[PART] = AttrValue(s=b"pivot")
        nodes[-1].attr[PART] = AttrValue(s=b"pred_id")
        nodes[-1].attr[INPUTS] = _strings([_tensor_name(c.inputs[0])])
        for key, body in zip(OUTPUTS, c.bodies):
            nodes[-1].attr[key] = _strings(["" if t is None else _tensor_name(t) for t in body.outputs])
        for k, t in enumerate(c.inputs[1:]):
            # a variable passes as a reference, which a branch's Assign updates: TF1's RefSwitch
            switch = "RefSwitch" if t.op.type in ("VariableV2", "Variable") else "Switch"
            nodes.append(NodeDef(name=f"{c.name}/Switch_{k + 1}", op=switch,
                                 input=[self.seen(t, where), f"{c.name}/pred_id"],
                                 attr={"T": AttrValue(type=t.dtype.as_datatype_enum), PART: AttrValue(s=b"switch")}))
        for j, out in enumerate(c.outputs):
            values = [self.seen(b.outputs[j], b) for b in reversed(c.bodies) if b.outputs[j] is not None]
            nodes.append(NodeDef(name=self.merges[c][j], op="Merge", input=values, attr={
                "T": AttrValue(type=out.dtype.as_datatype_enum), "N": AttrValue(i=len(values)),
                PART: AttrValue(s=b"merge")}))
        # the cond's own name, as ringflow's op has it, so that TensorFlow fetches "C" and "C:0" too
        nodes.append(NodeDef(name=c.name, op="Identity", input=[self.merges[c][0]], attr={
            "T": AttrValue(type=c.outputs[0].dtype.as_datatype_enum), PART: AttrValue(s=b"alias")}))
        if _branch(c) is not None:
            for node in nodes:
                node.attr[BODY] = AttrValue(s=f"{where.owner.name}:{where.index}".encode())
        return nodes


def write_conds(graph_def, graph, loops=()):
    """Rewrite `graph_def` (export's nodes of `graph`, in TF's form) so that its Conds are Switch/Merge nodes
    (those in `loops`, the While ops written as frames, too)."""
    conds = [op for op in graph.get_operations() if op.type == "Cond" and written_as_nodes(op, loops)]
    if not conds:
        return
    writer = _Writer(graph, conds)
    dropped, size = set(), -1
    while size != len(dropped):  # export appends TF's helper nodes after the nodes that read them
        size = len(dropped)
        dropped.update(n.name for n in graph_def.node if writer.stranded(n, writer.ops.get(n.name), dropped))
    kept = []
    for node in graph_def.node:
        op = writer.ops.get(node.name)
        if op in writer.merges or node.name in dropped:
            continue
        before = list(node.input)
        if writer.rewrite(node, op if op is not None else writer.home(node.name)):
            node.attr[INPUTS] = _strings(before)
        if _branch(op) is not None:
            node.attr[BODY] = AttrValue(s=f"{op.control_flow.owner.name}:{op.control_flow.index}".encode())
        kept.append(node)
    for c in conds:
        kept.extend(writer.scaffold(c))
    del graph_def.node[:]
    graph_def.node.extend(kept)


def body_of(node):
    """The branch ("C:0", "C:1") a written node runs in, or None at the top level."""
    return node.attr[BODY].s.decode() if BODY in node.attr else None


def part_of(node):
    """The node's role in a cond's scaffolding ("pred_id", "pivot", "switch", "merge"), or None."""
    return node.attr[PART].s.decode() if PART in node.attr else None


def cond_of(merge):
    """The name of the cond a Merge node belongs to."""
    return merge.attr[OWNER].s.decode() if OWNER in merge.attr else merge.name.rpartition("/")[0]


def ringflow_inputs(node):
    """The node's inputs as ringflow built it (a branch node reads captured tensors directly)."""
    return [s.decode() for s in node.attr[INPUTS].list.s] if INPUTS in node.attr else list(node.input)


def rebuild_cond(pred_node, resolve, build_branch, scoped):
    """Rebuild the Cond `pred_node` (a `C/pred_id` node) describes, named scoped("C"): `resolve(name)` gives a
    tensor by its name, `build_branch("C:i")` builds that branch's nodes. Returns {"C:j": tensor} per output."""
    name = pred_node.name.rpartition("/")[0]
    outputs = [[s.decode() for s in pred_node.attr[key].list.s] for key in OUTPUTS]
    regular = [j for j, pair in enumerate(zip(*outputs)) if all(pair)]

    def branch(index):
        def fn():
            build_branch(f"{name}:{index}")
            return [resolve(outputs[index][j]) for j in regular]
        return fn
    pred = resolve(ringflow_inputs(pred_node)[0])
    results = cond(pred, branch(0), branch(1), strict=True, name=scoped(name) + "/")
    made = {f"{name}:{j}": t for j, t in zip(regular, results)}
    for j, pair in enumerate(zip(*outputs)):
        if j not in regular:  # the one branch's value itself: a later cond with the same pred exposes it again
            made[f"{name}:{j}"] = resolve(pair[0] or pair[1])
    return made
