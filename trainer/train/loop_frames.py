"""Which of a graph's loops export writes as TF1 frames (loop_nodes.py, loop_gradient_nodes.py), and where each op
goes in them: the loop body it runs in and whether in the loop's condition or its body.

A loop is written when every body it holds and is held in is a loop's or a cond's; a loop's gradient (WhileGrad)
when it and its loop are at the top level and the loop's body holds nothing but its own ops and its gradients'. Any
other keeps export's mark of what it could not write.
"""


def chain(op):
    """The bodies `op` runs in, innermost first."""
    body, bodies = op.control_flow, []
    while body is not None:
        bodies.append(body)
        body = body.parent
    return bodies


def _walk(body, roots):
    """The ops of `body` that `roots` need, directly in it."""
    seen, stack = set(), [r.op for r in roots if r is not None]
    while stack:
        op = stack.pop()
        if op in seen or op.control_flow is not body:
            continue
        seen.add(op)
        stack += [t.op for t in op.inputs] + list(op.control_inputs)
    return seen


def level(op):
    """(the loop body `op` runs in, innermost, or None; the op directly in that body that holds `op`: itself, or
    the cond it is inside)."""
    while op.control_flow is not None and op.control_flow.kind != "while":
        op = op.control_flow.owner
    return op.control_flow, op


def _simple_gradients(graph):
    """The WhileGrads written as TF's backward loops: at the top level, of a loop at the top level whose body holds
    nothing but its own ops and its gradients' (no cond, no loop)."""
    held = [chain(op) for op in graph.get_operations()]
    simple = set()
    for grad in (op for op in graph.get_operations() if op.type == "WhileGrad"):
        loop = grad.bodies[0].parent.owner
        if grad.control_flow is not None or loop is None or loop.type != "While" or loop.control_flow is not None:
            continue
        body = loop.bodies[0]
        if all(bodies == [body] or len(bodies) == 2 and bodies[1] is body and bodies[0].owner.type == "WhileGrad"
               for bodies in held if body in bodies):
            simple.add(grad)
    return simple


def written_loops(graph):
    """({While and WhileGrad op written as a TF1 frame}, {op directly in such a loop's body: "test" or "body"})."""
    gradients = _simple_gradients(graph)
    loops = [op for op in graph.get_operations() if op.type == "While"]
    unwritten = set()
    for op in graph.get_operations():
        bodies = chain(op)
        if any(b.owner is None or b.owner.type not in ("While", "Cond") and b.owner not in gradients for b in bodies):
            unwritten.update(b.owner for b in bodies if b.owner is not None and b.owner.type == "While")
    roles = {op: "body" for op in graph.get_operations() if op.control_flow is not None
             and op.control_flow.owner in gradients}
    for loop in loops:
        body = loop.bodies[0]
        test, step = _walk(body, [body.test]), _walk(body, body.outputs)
        if {op for op in test & step if op.type != "LoopVar"}:
            unwritten.add(loop)  # a value both the condition and the body read: TF's frame has it in one of them
        roles.update((op, "test") for op in test)
        roles.update((op, "body") for op in step - test)
    changed = True
    while changed:
        changed = False
        for loop in loops:
            if loop not in unwritten and any(b.owner in unwritten for b in chain(loop)):
                unwritten.add(loop)
                changed = True
    written = {loop for loop in loops if loop not in unwritten}
    return written | {grad for grad in gradients if grad.bodies[0].parent.owner in written}, roles


def written_as_loop(op, loops):
    """True when `op` (a While, or an op in loop bodies and conds in them) is written as a TF1 frame's nodes."""
    if op.type in ("While", "WhileGrad"):
        return op in loops
    bodies = chain(op)
    return bool(bodies) and all(b.owner in loops or b.kind == "cond" for b in bodies) and any(
        b.owner in loops for b in bodies)
