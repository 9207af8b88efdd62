"""TF1 control flow: tg.cond, tg.case and tg.while_loop, each run as sub-plans of the session.

A control-flow op ("Cond", "While") takes its predicate or loop values and every outside tensor its bodies
use (the captured tensors) as inputs. The ops a body function builds that its outputs need are marked
`op._control_flow = <their Body>`: the session's outer plan never schedules them (session.Plan), and the op's
kernel compiles one sub-plan per body (fetches: the body's outputs, feeds: the captured tensors). Only the
body the predicate picks runs, so the other body's side effects (assignments, random draws) do not happen.
Variables and placeholders made inside a body function live outside it, as TF1's init_scope lifts them.
"""
import weakref

import numpy as np

from .. import dtypes
from ..errors import InvalidArgumentError
from ..graph import Operation, Tensor, get_default_graph
from ..tensor_shape import TensorShape
from .core_ops import constant, convert_to_tensor, identity
from .math_ops import equal, zeros_like
from .registry import op_def, register

_LIFTED = {"VariableV2", "Placeholder"}
_building = weakref.WeakKeyDictionary()  # graph -> the Bodies whose function is running, innermost last


class Body:
    """One branch of a cond, or the inside of a while loop: what it returns and the op that owns it."""

    def __init__(self, kind, index, parent):
        self.kind, self.index, self.parent = kind, index, parent
        self.owner, self.outputs, self.exposed = None, [], {}

    def __str__(self):
        owner = self.owner.name if self.owner is not None else "<being built>"
        if self.kind == "cond":
            return f"the {('true', 'false')[self.index]} branch of the cond {owner!r}"
        return f"the while loop {owner!r}"


def _encloses(body, inner):
    """True when ops of `body` may be used inside `inner` (None is the top level, around everything)."""
    while body is not inner:
        if inner is None:
            return False
        inner = inner.parent
    return True


def _run_body(graph, body, fn, args):
    """Call a body function with `body` open; returns its result and the index of the first op it built."""
    stack = _building.setdefault(graph, [])
    start = len(graph._ops)
    stack.append(body)
    try:
        return fn(*args), start
    finally:
        stack.pop()


def _claim(graph, body, built, roots, inside):
    """Mark the ops in `built` (a slice of the graph's ops) that `roots` need as `body`'s.

    Returns the tensors from outside the body it reads (captured) and the outside ops it waits for (controls).
    """
    new, stack = set(graph._ops[built]), [r.op if isinstance(r, Tensor) else r for r in roots]
    while stack:
        op = stack.pop()
        if op in inside or op not in new or op.type in _LIFTED or getattr(op, "_control_flow", None):
            continue
        op._control_flow = body
        inside.add(op)
        stack += [t.op for t in op.inputs] + list(op.control_inputs)
    captured, controls = {}, {}
    for op in sorted(inside, key=lambda o: o._id):
        for t in op.inputs[op_def(op.type).ref_inputs:]:
            if t.op not in inside:
                captured[t] = None
        controls.update((c, None) for c in op.control_inputs if c not in inside)
    captured.update((t, None) for t in roots if isinstance(t, Tensor) and t.op not in inside)
    return list(captured), list(controls)


def _visible(t, pred, index, enclosing):
    """`t` as a tensor the new control-flow op can take as an input where it is built.

    A tensor from a branch of an earlier cond with the same predicate (a gradient cond reading its forward
    cond's intermediate values) becomes an extra output of that cond, as TF2's cond_v2 does.
    """
    while True:
        body = getattr(t.op, "_control_flow", None)
        if _encloses(body, enclosing):
            return t
        if body.kind == "cond" and body.owner is not None and body.owner.inputs[0] is pred and body.index == index:
            t = _expose(t, body)
        elif enclosing is not None:
            return t  # the enclosing body's op resolves it when it is built
        else:
            raise ValueError(f"Tensor {t.name!r} was built inside {body} and is used outside it; return it "
                             "from the branch or loop function and use that output instead")


def _expose(t, body):
    if t not in body.exposed:
        op = body.owner
        body.exposed[t] = Tensor(op, len(op.outputs), t.shape, t.dtype)
        op.outputs += (body.exposed[t],)
        for b in op._bodies:
            b.outputs.append(t if b is body else None)
        op.graph.version += 1
    return body.exposed[t]


def _body_plan(session, body, feeds, outputs):
    """A function of the captured values returning `outputs`' values (None where an output is None)."""
    from ..session import Plan
    tensors = [t for t in outputs if t is not None]
    execute = Plan(session, tensors, feeds, branch=body).execute
    if len(tensors) == len(outputs):
        return execute

    def run(values):
        it = iter(execute(values))
        return [None if t is None else next(it) for t in outputs]
    return run


# --- nested structures of results -------------------------------------------------------------------
def _flatten(x):
    if isinstance(x, dict):
        keys = sorted(x)
        parts = [_flatten(x[k]) for k in keys]
        return [leaf for p in parts for leaf in p[0]], ("dict", keys, [p[1] for p in parts])
    if isinstance(x, (list, tuple)) and not isinstance(x, TensorShape):
        parts = [_flatten(v) for v in x]
        return [leaf for p in parts for leaf in p[0]], (type(x), None, [p[1] for p in parts])
    return [x], None


def _pack(structure, leaves):
    it = iter(leaves)

    def build(s):
        if s is None:
            return next(it)
        kind, keys, parts = s
        values = [build(p) for p in parts]
        if kind == "dict":
            return dict(zip(keys, values))
        return kind(*values) if hasattr(kind, "_fields") else kind(values)
    return build(structure)


def _same_structure(a, b):
    if a is None or b is None:
        return a is None and b is None
    return ((a[0] == b[0] or a[0] != "dict" and b[0] != "dict") and a[1] == b[1] and len(a[2]) == len(b[2])
            and all(_same_structure(x, y) for x, y in zip(a[2], b[2])))


def _describe(structure):
    return repr(_pack(structure, ["T"] * 10000)) if structure is not None else "a single value"


def _common_shape(a, b):
    """The most specific shape compatible with both."""
    if a.ndims is None or b.ndims is None or a.ndims != b.ndims:
        return TensorShape(None)
    return TensorShape([x if x == y else None for x, y in zip(a, b)])


# --- cond -----------------------------------------------------------------------------------------
def _cond_kernel(op, session):
    plans = [_body_plan(session, body, op._feeds, list(body.outputs)) for body in op._bodies]
    single = len(op.outputs) == 1

    def run(pred, *captured):
        values = plans[0 if pred else 1](captured)
        return values[0] if single else tuple(values)
    return run


def _cond_grad(op, *grads):
    """d(cond)/dx = cond(pred, d(true branch)/dx, d(false branch)/dx), zeros where a branch ignores x."""
    from ..gradients import gradients
    pred, captured, feeds = op.inputs[0], op.inputs[1:], op._feeds
    wrt = [j for j, t in enumerate(captured) if t.dtype.kind in "fc"]
    connected = set()

    def branch(body):
        def fn():
            pairs = [(t, g) for t, g in zip(body.outputs, grads) if t is not None and g is not None]
            xs = [feeds[j] for j in wrt]
            found = gradients([t for t, _ in pairs], xs, grad_ys=[g for _, g in pairs], name="gradients",
                              stop_gradients=feeds) if pairs else [None] * len(xs)
            connected.update(j for j, g in zip(wrt, found) if g is not None)
            return [g if g is not None else zeros_like(captured[j]) for j, g in zip(wrt, found)]
        return fn
    if not wrt:
        return [None] * len(op.inputs)
    results = cond(pred, branch(op._bodies[0]), branch(op._bodies[1]), strict=True, name="cond")
    by_input = dict(zip(wrt, results))
    return [None] + [by_input[j] if j in connected else None for j in range(len(captured))]


register("Cond", kernel=_cond_kernel, infer=lambda *a: [], grad=_cond_grad)


def cond(pred, true_fn=None, false_fn=None, strict=False, name=None):
    """Return true_fn() if `pred` else false_fn(); only the chosen function's ops run (TF1's tf.cond).

    `pred` is a scalar bool Tensor; a Python bool calls the chosen function right away (as smart_cond).
    """
    if not callable(true_fn) or not callable(false_fn):
        raise TypeError(f"cond needs callables true_fn and false_fn, got {true_fn!r} and {false_fn!r}")
    if isinstance(pred, (bool, np.bool_)):
        return true_fn() if pred else false_fn()
    pred = convert_to_tensor(pred)
    if pred.dtype != dtypes.bool or pred.shape.ndims not in (None, 0):
        raise ValueError(f"cond's pred must be a scalar bool Tensor, got {pred.name!r} of dtype "
                         f"{pred.dtype.name} and shape {pred.shape}")
    graph = pred.graph
    stack = _building.setdefault(graph, [])
    enclosing = stack[-1] if stack else None
    with graph.as_default(), graph.name_scope(name or "cond") as scope:
        bodies, results = [], []
        for index, fn in enumerate((true_fn, false_fn)):
            body = Body("cond", index, enclosing)
            result, start = _run_body(graph, body, fn, ())
            if result is None:
                raise ValueError("true_fn and false_fn must return at least one result: "
                                 f"{('true_fn', 'false_fn')[index]} {fn!r} returned None")
            if not strict and isinstance(result, (list, tuple)) and len(result) == 1:
                result = result[0]
            leaves, structure = _flatten(result)
            with graph.control_dependencies(None):
                leaves = [_branch_value(v, index) for v in leaves]
            bodies.append(body)
            results.append((leaves, structure, slice(start, len(graph._ops))))
        (t_leaves, t_struct, _), (f_leaves, f_struct, _) = results
        if not _same_structure(t_struct, f_struct) or len(t_leaves) != len(f_leaves):
            raise ValueError(f"true_fn and false_fn must return the same structure: true_fn returned "
                             f"{_describe(t_struct)} with {len(t_leaves)} tensor(s), false_fn returned "
                             f"{_describe(f_struct)} with {len(f_leaves)}")
        for a, b in zip(t_leaves, f_leaves):
            if a.dtype != b.dtype:
                raise ValueError(f"Outputs of true_fn and false_fn must have the same dtype: true_fn gives "
                                 f"{a.name!r} ({a.dtype.name}), false_fn gives {b.name!r} ({b.dtype.name})")
        feeds, controls = {}, {}
        for body, (leaves, _, built) in zip(bodies, results):
            body.outputs = list(leaves)
            captured, body_controls = _claim(graph, body, built, leaves, set())
            feeds.update((t, body.index) for t in captured)
            controls.update(dict.fromkeys(body_controls))
        inputs = [_visible(t, pred, index, enclosing) for t, index in feeds.items()]
        specs = [(_common_shape(a.shape, b.shape), a.dtype) for a, b in zip(t_leaves, f_leaves)]
        op = graph.create_op("Cond", [pred] + inputs, specs, name=scope[:-1], unique=False,
                             control_inputs=[c for c in controls if _encloses(
                                 getattr(c, "_control_flow", None), enclosing)])
        op._bodies, op._feeds = bodies, list(feeds)
        for body in bodies:
            body.owner = op
    return _pack(t_struct, list(op.outputs))


def _branch_value(value, index):
    """A branch result as a Tensor: an Operation becomes a bool that runs it (TF1's pivot value)."""
    if isinstance(value, Operation):
        with get_default_graph().control_dependencies([value]):
            return identity(constant(bool(index == 0)))
    return convert_to_tensor(value)


# --- case -----------------------------------------------------------------------------------------
def _case_index_kernel(op, session):
    exclusive, has_default = op.attrs["exclusive"], op.attrs["has_default"]
    names = [t.name for t in op.inputs]

    def run(*preds):
        true = [i for i, p in enumerate(preds) if p]
        if exclusive and len(true) > 1:
            raise InvalidArgumentError(f"More than one condition evaluated as True but exclusive=True: "
                                       f"{[names[i] for i in true]!r}")
        if not true and not has_default:
            raise InvalidArgumentError(f"None of the conditions evaluated as True and case has no default: "
                                       f"{names!r}")
        return np.int32(true[0] if true else len(preds))
    return run


register("CaseIndex", kernel=_case_index_kernel, infer=lambda *preds, **attrs: [((), dtypes.int32)])


def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    """The result of the first fn whose pred is True, else of default() (TF1's tf.case).

    Without a default, the last fn is used when no pred is True... after checking at run time that its pred
    is (TF1 raises InvalidArgumentError otherwise); exclusive=True checks that at most one pred is True.
    """
    pairs = list(pred_fn_pairs.items()) if isinstance(pred_fn_pairs, dict) else list(pred_fn_pairs)
    for pair in pairs:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2 or not callable(pair[1]):
            raise TypeError(f"case needs (pred, callable) pairs, got {pair!r}")
    if not pairs:
        if default is None:
            raise ValueError("case needs at least one (pred, fn) pair or a default")
        return default()
    graph = get_default_graph()
    with graph.name_scope(name or "case"):
        preds = [convert_to_tensor(p, dtype=dtypes.bool) for p, _ in pairs]
        fns = [fn for _, fn in pairs]
        index = graph.create_op("CaseIndex", preds, [((), dtypes.int32)], name="index",
                                attrs={"exclusive": bool(exclusive), "has_default": default is not None}).outputs[0]
        if default is None:
            default = fns.pop() if len(fns) > 1 else fns[0]

        def chain(k):
            if k == len(fns):
                return default()
            return cond(equal(index, k), fns[k], lambda: chain(k + 1), strict=strict, name=f"If_{k}")
        return chain(0)


# --- while_loop -----------------------------------------------------------------------------------
def _loop_var_kernel(op, session):
    raise ValueError(f"The loop variable {op.name!r} has a value only inside its while loop")


register("LoopVar", kernel=_loop_var_kernel, infer=lambda shape, dtype: [(shape, dtype)])


def _while_kernel(op, session):
    body, n, limited = op._bodies[0], op.attrs["num_loop_vars"], op.attrs["has_maximum_iterations"]
    test = _body_plan(session, body, op._feeds, [body.test])
    step = _body_plan(session, body, op._feeds, body.outputs)

    def run(*inputs):
        values, captured = list(inputs[:n]), list(inputs[n + limited:])
        limit = int(inputs[n]) if limited else None
        i = 0
        while (limit is None or i < limit) and test(values + captured)[0]:
            values = step(values + captured)
            i += 1
        return values[0] if n == 1 else tuple(values)
    return run


def _while_grad(op, *grads):
    if not op.attrs["back_prop"]:
        return [None] * len(op.inputs)
    raise NotImplementedError(f"The gradient of tg.while_loop {op.name!r} is not implemented; compute the "
                              "loop with back_prop=False or write the computation without the loop")


register("While", kernel=_while_kernel, infer=lambda *a: [], grad=_while_grad)


def _at_least_as_specific(shape, invariant):
    return invariant.ndims is None or shape.ndims == invariant.ndims and all(
        b is None or a == b for a, b in zip(shape, invariant))


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10, back_prop=True,  # noqa: C901
               swap_memory=False, maximum_iterations=None, name=None, return_same_structure=False):
    """Repeat `loop_vars = body(*loop_vars)` while cond(*loop_vars) is True (TF1's tf.while_loop).

    parallel_iterations and swap_memory are accepted and ignored (iterations run one after another).
    """
    if not callable(cond) or not callable(body):
        raise TypeError(f"while_loop needs callables cond and body, got {cond!r} and {body!r}")
    single = isinstance(loop_vars, Tensor) or not isinstance(loop_vars, (list, tuple, dict))
    structure_in = [loop_vars] if single else loop_vars
    leaves, structure = _flatten(structure_in)
    if not leaves:
        raise ValueError("while_loop needs at least one loop variable, got loop_vars=" + repr(loop_vars))
    graph = get_default_graph()
    stack = _building.setdefault(graph, [])
    enclosing = stack[-1] if stack else None
    with graph.name_scope(name or "while") as scope:
        leaves = [convert_to_tensor(v) for v in leaves]
        if shape_invariants is None:
            invariants = [t.shape for t in leaves]
        else:
            invariants = [TensorShape(s) for s in _flatten([shape_invariants] if single else shape_invariants)[0]]
            if len(invariants) != len(leaves):
                raise ValueError(f"shape_invariants has {len(invariants)} shapes for {len(leaves)} loop variables")
        for t, inv in zip(leaves, invariants):
            if not _at_least_as_specific(t.shape, inv):
                raise ValueError(f"The shape invariant {inv} for the loop variable {t.name!r} is not compatible "
                                 f"with its initial shape {t.shape}")
        inner = Body("while", 0, enclosing)
        with graph.control_dependencies(None):
            loop_vars_in = [graph.create_op("LoopVar", [], [(inv, t.dtype)], name="LoopVar",
                                            attrs={"shape": inv, "dtype": t.dtype}).outputs[0]
                            for t, inv in zip(leaves, invariants)]
        for v in loop_vars_in:
            v.op._control_flow = inner
        args = _pack(structure, loop_vars_in)
        test, start = _run_body(graph, inner, cond, args)
        test = convert_to_tensor(test)
        if test.dtype != dtypes.bool or test.shape.ndims not in (None, 0):
            raise ValueError(f"while_loop's cond must return a scalar bool Tensor, got {test!r}")
        result, _ = _run_body(graph, inner, body, args)
        if isinstance(result, Tensor) or not isinstance(result, (list, tuple, dict)):
            result = [result]
        out_leaves, out_structure = _flatten(result)
        if not _same_structure(structure, out_structure):
            raise ValueError(f"while_loop's body must return the structure of loop_vars {_describe(structure)}, "
                             f"got {_describe(out_structure)}")
        out_leaves = [convert_to_tensor(v) for v in out_leaves]
        for v, out, inv in zip(leaves, out_leaves, invariants):
            if out.dtype != v.dtype:
                raise ValueError(f"The loop variable {v.name!r} enters the loop as {v.dtype.name} but the body "
                                 f"returns {out.name!r} of dtype {out.dtype.name}")
            if not _at_least_as_specific(out.shape, inv):
                raise ValueError(f"Input tensor {v.name!r} enters the loop with shape {inv}, but has shape "
                                 f"{out.shape} after one iteration. To allow the shape to vary across "
                                 "iterations, use the `shape_invariants` argument of tg.while_loop to "
                                 "specify a less-specific shape.")
        inner.outputs, inner.test = out_leaves, test
        captured, controls = _claim(graph, inner, slice(start, None), out_leaves + [test],
                                    set(v.op for v in loop_vars_in))
        inputs = list(leaves)
        if maximum_iterations is not None:
            inputs.append(convert_to_tensor(maximum_iterations, dtype=dtypes.int32))
        inputs += [_visible(t, None, None, enclosing) for t in captured]
        op = graph.create_op("While", inputs, [(inv, t.dtype) for t, inv in zip(leaves, invariants)],
                             name=scope[:-1], unique=False,
                             control_inputs=[c for c in controls
                                             if _encloses(getattr(c, "_control_flow", None), enclosing)],
                             attrs={"num_loop_vars": len(leaves), "back_prop": bool(back_prop),
                                    "has_maximum_iterations": int(maximum_iterations is not None)})
        op._bodies, op._feeds = [inner], loop_vars_in + captured
        inner.owner = op
    outputs = list(op.outputs)
    if not return_same_structure and len(outputs) == 1:
        return outputs[0]
    packed = _pack(structure, outputs)
    return packed[0] if single else packed
