"""TF1's tf.cond as TensorFlow writes it (Switch/Merge nodes, no ringflow annotations) read as ringflow's conds.

A node is inside a branch when it reads, at any distance, a Switch's output 1 (true) or 0 (false), or a pivot; a
Merge leaves the branch. TF's gradients of ops inside a cond stay in the cond's branch, reading its values, and
leave through Merges of their own: so each Merge becomes one cond of ringflow's, its branches the nodes behind each
input that are inside that branch and not already taken by an earlier Merge (a later cond reads those through
tg.cond's exposed values). Conds are keyed by the predicate behind TF's `pred_id` Identity, so a gradient cond and
its forward cond share one predicate. The nodes get the annotations cond_nodes.py writes, and import rebuilds them
as it rebuilds ringflow's own. Nodes inside a branch that no Merge takes (gradients nothing uses) are left out.
"""
from ..framework.node_def import AttrValue, NodeDef
from .cond_nodes import BODY, INPUTS, OUTPUTS, OWNER, PART

SWITCHES = ("Switch", "RefSwitch")


def _split(name):
    op, _, index = name.lstrip("^").partition(":")
    return op, int(index or 0)


def _strings(values):
    return AttrValue(list=AttrValue.ListValue(s=[v.encode() for v in values]))


def has_tf_conds(nodes):
    """True when `nodes` hold Switch/Merge nodes TensorFlow wrote (not ringflow's own, which carry PART)."""
    return any(n.op in SWITCHES + ("Merge",) and PART not in n.attr for n in nodes)


def read_tf_conds(nodes):
    """`nodes` (inputs first, while loops already read by tf_loop_nodes.py) annotated as cond_nodes.py writes a
    cond, one cond per Merge."""
    by_name = {n.name: n for n in nodes}

    def key(name):
        """The predicate a Switch reads: through TF's `pred_id` Identity to the tensor behind it."""
        op, index = _split(name)
        node = by_name.get(op)
        if node is not None and node.op == "Identity" and op.endswith("pred_id"):
            return key(node.input[0])
        return f"{op}:{index}"

    def outside(name):
        """A Switch's output as the tensor it passes on."""
        op, index = _split(name)
        node = by_name.get(op)
        return outside(node.input[0]) if node is not None and node.op in SWITCHES else name

    contexts, pivots, closes = {}, set(), {}
    for node in nodes:
        inherited = set()
        for name in node.input:
            op, index = _split(name)
            source = by_name.get(op)
            if source is None:
                continue
            inherited |= contexts.get(op, frozenset())
            if source.op in SWITCHES and not name.startswith("^"):
                inherited.add((key(source.input[1]), index))
        if node.op in SWITCHES and _split(node.input[0])[0] == _split(node.input[1])[0]:
            pivots.add(node.name)
        if node.op == "Identity" and _split(node.input[0])[0] in pivots:
            pivots.add(node.name)
        if node.op == "Merge":
            closes[node.name], inherited = _leave(node, inherited, contexts, by_name, key)
        contexts[node.name] = frozenset(inherited)

    owner, extra = {}, []
    for merge in (n for n in nodes if n.op == "Merge"):
        pred, branches = closes[merge.name], {}
        for name in merge.input:
            op, index = _split(name)
            source = by_name[op]
            branch = index if source.op in SWITCHES else next(b for k, b in contexts[op] if k == pred)
            body = f"{merge.name}:{1 - branch}"
            branches[1 - branch] = outside(name)
            _take(op, body, pred, branch, by_name, contexts, owner, key, pivots)
        extra.append(NodeDef(name=f"{merge.name}/pred_id", op="Identity", input=[pred], attr={
            PART: AttrValue(s=b"pred_id"), INPUTS: _strings([pred]), OUTPUTS[0]: _strings([branches[0]]),
            OUTPUTS[1]: _strings([branches[1]])}))
    kept = []
    for node in nodes:
        node = NodeDef.FromString(node.SerializeToString())
        if node.op in SWITCHES or node.name in pivots:
            node.attr[PART] = AttrValue(s=b"pivot")
        elif node.op == "Merge":
            node.attr[PART], node.attr[OWNER] = AttrValue(s=b"merge"), AttrValue(s=node.name.encode())
        elif contexts[node.name] and node.name not in owner:
            continue
        if node.name in owner:
            node.attr[BODY] = AttrValue(s=owner[node.name].encode())
        inputs = [outside(i) for i in node.input if not (i.startswith("^") and _split(i)[0] in pivots)]
        node.attr[INPUTS] = _strings(inputs)
        kept.append(node)
    return kept + extra


def _leave(merge, inherited, contexts, by_name, key):
    """(the predicate of the cond `merge` closes, the contexts after it: its inputs' less that cond's)."""
    per_input = []
    for name in merge.input:
        op, index = _split(name)
        source = by_name[op]
        here = set(contexts.get(op, ()))
        if source.op in SWITCHES:
            here.add((key(source.input[1]), index))
        per_input.append(here)
    if len(per_input) != 2:
        raise NotImplementedError(f"import_meta_graph: Merge {merge.name!r} has {len(per_input)} inputs; "
                                  "ringflow rebuilds TF1's tf.cond, whose Merges take two")
    closed = [k for k, b in per_input[0] if (k, 1 - b) in per_input[1]]
    if not closed:
        raise NotImplementedError(f"import_meta_graph: Merge {merge.name!r} does not join the two branches of "
                                  "one tf.cond, which is all ringflow rebuilds of TF1's control flow")
    return closed[-1], {(k, b) for k, b in inherited if k != closed[-1]}


def _take(start, body, pred, branch, by_name, contexts, owner, key, pivots):
    """Give `body` the nodes behind `start` that run in branch `branch` of `pred` and no earlier Merge took."""
    stack, seen = [start], set()
    while stack:
        name = stack.pop()
        node = by_name.get(name)
        if node is None or name in seen or (pred, branch) not in contexts.get(name, ()) or name in pivots:
            continue
        seen.add(name)
        if node.op in SWITCHES and key(node.input[1]) == pred:
            continue
        if node.op not in SWITCHES:  # a nested cond's nodes stay its own; what they read from here is ours
            owner.setdefault(name, body)
        stack += [_split(i)[0] for i in node.input]
