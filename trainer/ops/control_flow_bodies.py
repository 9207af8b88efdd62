"""The bodies of TF1 control flow (tg.cond's branches, tg.while_loop's body), each run as a session sub-plan.

A control-flow op ("Cond", "While") takes its predicate or loop values and every outside tensor its bodies
use (the captured tensors) as inputs. The ops a body function builds that its outputs need are marked
`op.control_flow = <their Body>`: the session's outer plan never schedules them (plan.Plan), and the op's
kernel compiles one sub-plan per body (fetches: the body's outputs, feeds: the captured tensors). Only the
body the predicate picks runs, so the other body's side effects (assignments, random draws) do not happen.
Variables and placeholders made inside a body function live outside it, as TF1's init_scope lifts them.

Shared by control_flow_ops.py (cond, case) and while_loop_ops.py; Operation declares the attributes set here.
"""
import weakref

from ..framework.tensor import Tensor
from ..framework.registry import op_def

LIFTED = {"VariableV2", "Placeholder"}
building = weakref.WeakKeyDictionary()  # graph -> the Bodies whose function is running, innermost last


class Body:
    """One branch of a cond, or the inside of a while loop: what it returns and the op that owns it."""

    def __init__(self, kind, index, parent):
        self.kind, self.index, self.parent = kind, index, parent
        self.owner, self.outputs, self.exposed = None, [], {}
        self.saved = []  # a loop body's tensors its gradient reads, kept per iteration (while_loop_ops.py)

    def __str__(self):
        owner = self.owner.name if self.owner is not None else "<being built>"
        if self.kind == "cond":
            return f"the {('true', 'false')[self.index]} branch of the cond {owner!r}"
        return f"the while loop {owner!r}"


def encloses(body, inner):
    """True when ops of `body` may be used inside `inner` (None is the top level, around everything)."""
    while body is not inner:
        if inner is None:
            return False
        inner = inner.parent
    return True


def enclosing_body(graph):
    """The Body whose function is building ops in `graph` right now (None at the top level)."""
    stack = building.setdefault(graph, [])
    return stack[-1] if stack else None


def run_body(graph, body, fn, args):
    """Call a body function with `body` open; returns its result and the index of the first op it built."""
    stack = building.setdefault(graph, [])
    start = len(graph.operations)
    stack.append(body)
    try:
        return fn(*args), start
    finally:
        stack.pop()


def claim(graph, body, built, roots, inside):
    """Mark the ops in `built` (a slice of the graph's ops) that `roots` need as `body`'s.

    Returns the tensors from outside the body it reads (captured) and the outside ops it waits for (controls).
    """
    new, stack = set(graph.operations[built]), [r.op if isinstance(r, Tensor) else r for r in roots]
    while stack:
        op = stack.pop()
        if op in inside or op not in new or op.type in LIFTED or op.control_flow:
            continue
        op.control_flow = body
        inside.add(op)
        stack += [t.op for t in op.inputs] + list(op.control_inputs)
    captured, controls = {}, {}
    for op in sorted(inside, key=lambda o: o.schedule_key):
        for t in op.inputs[op_def(op.type).ref_inputs:]:
            if t.op not in inside:
                captured[t] = None
        controls.update((c, None) for c in op.control_inputs if c not in inside)
    captured.update((t, None) for t in roots if isinstance(t, Tensor) and t.op not in inside)
    return list(captured), list(controls)


def visible(t, pred, index, enclosing):
    """`t` as a tensor the new control-flow op can take as an input where it is built.

    A tensor from a branch of an earlier cond with the same predicate (a gradient cond reading its forward
    cond's intermediate values) becomes an extra output of that cond, as TF2's cond_v2 does.
    """
    while True:
        body = t.op.control_flow
        if encloses(body, enclosing):
            return t
        if body.kind == "cond" and body.owner is not None and body.owner.inputs[0] is pred and body.index == index:
            t = expose(t, body)
        elif enclosing is not None:
            return t  # the enclosing body's op resolves it when it is built
        else:
            raise ValueError(f"Tensor {t.name!r} was built inside {body} and is used outside it; return it "
                             "from the branch or loop function and use that output instead")


def expose(t, body):
    if t not in body.exposed:
        op = body.owner
        body.exposed[t] = Tensor(op, len(op.outputs), t.shape, t.dtype)
        op.outputs += (body.exposed[t],)
        for b in op.bodies:
            b.outputs.append(t if b is body else None)
    return body.exposed[t]


def body_plan(session, body, feeds, outputs):
    """A function of the captured values returning `outputs`' values (None where an output is None)."""
    tensors = [t for t in outputs if t is not None]
    execute = session.plan(tensors, feeds, branch=body).execute
    if len(tensors) == len(outputs):
        return execute

    def run(values):
        it = iter(execute(values))
        return [None if t is None else next(it) for t in outputs]
    return run
