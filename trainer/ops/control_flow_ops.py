"""TF1 control flow: tg.cond and tg.case, each branch run as a sub-plan of the session; tg.while_loop.

A "Cond" op takes its predicate and every outside tensor its branches use as inputs; only the branch the
predicate picks runs, so the other branch's side effects (assignments, random draws) do not happen. How the
ops a branch builds are claimed for it and run is in control_flow_bodies.py; tg.while_loop is in
while_loop_ops.py and importable from here, as are the helpers that used to live in this module.
"""
import numpy as np

from ..framework import dtypes
from ..platform.errors import InvalidArgumentError
from ..framework.operation import Operation
from ..framework.graph import get_default_graph
from ..framework.tensor import Tensor
from ..framework.tensor_shape import TensorShape
from .control_flow_bodies import Body, body_plan, claim, enclosing_body, encloses, run_body, visible
from .core_ops import constant, convert_to_tensor, identity
from .math_ops import equal, zeros_like
from .nest import describe, flatten, pack, same_structure
from ..framework.registry import register
from .gradients import gradients


def _common_shape(a, b):
    """The most specific shape compatible with both."""
    if a.ndims is None or b.ndims is None or a.ndims != b.ndims:
        return TensorShape(None)
    return TensorShape([x if x == y else None for x, y in zip(a, b)])


def _cond_kernel(op, session):
    plans = [body_plan(session, body, op.feeds, list(body.outputs)) for body in op.bodies]
    single = len(op.outputs) == 1

    def run(pred, *captured):
        values = plans[0 if pred else 1](captured)
        return values[0] if single else tuple(values)
    return run


def _cond_grad(op, *grads):
    """d(cond)/dx = cond(pred, d(true branch)/dx, d(false branch)/dx), zeros where a branch ignores x."""
    pred, captured, feeds = op.inputs[0], op.inputs[1:], op.feeds
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
    results = cond(pred, branch(op.bodies[0]), branch(op.bodies[1]), strict=True, name="cond")
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
    enclosing = enclosing_body(graph)
    with graph.as_default(), graph.name_scope(name or "cond") as scope:
        bodies, results = [], []
        for index, fn in enumerate((true_fn, false_fn)):
            body = Body("cond", index, enclosing)
            result, start = run_body(graph, body, fn, ())
            if result is None:
                raise ValueError("true_fn and false_fn must return at least one result: "
                                 f"{('true_fn', 'false_fn')[index]} {fn!r} returned None")
            if not strict and isinstance(result, (list, tuple)) and len(result) == 1:
                result = result[0]
            leaves, structure = flatten(result)
            with graph.control_dependencies(None):
                leaves = [_branch_value(v, index) for v in leaves]
            bodies.append(body)
            results.append((leaves, structure, slice(start, len(graph.operations))))
        (t_leaves, t_struct, _), (f_leaves, f_struct, _) = results
        if not same_structure(t_struct, f_struct) or len(t_leaves) != len(f_leaves):
            raise ValueError(f"true_fn and false_fn must return the same structure: true_fn returned "
                             f"{describe(t_struct)} with {len(t_leaves)} tensor(s), false_fn returned "
                             f"{describe(f_struct)} with {len(f_leaves)}")
        for a, b in zip(t_leaves, f_leaves):
            if a.dtype != b.dtype:
                raise ValueError(f"Outputs of true_fn and false_fn must have the same dtype: true_fn gives "
                                 f"{a.name!r} ({a.dtype.name}), false_fn gives {b.name!r} ({b.dtype.name})")
        feeds, controls = {}, {}
        for body, (leaves, _, built) in zip(bodies, results):
            body.outputs = list(leaves)
            captured, body_controls = claim(graph, body, built, leaves, set())
            feeds.update((t, body.index) for t in captured)
            controls.update(dict.fromkeys(body_controls))
        inputs = [visible(t, pred, index, enclosing) for t, index in feeds.items()]
        specs = [(_common_shape(a.shape, b.shape), a.dtype) for a, b in zip(t_leaves, f_leaves)]
        op = graph.create_op("Cond", [pred] + inputs, specs, name=scope[:-1], unique=False,
                             control_inputs=[c for c in controls if encloses(
                                 c.control_flow, enclosing)])
        op.bodies, op.feeds = bodies, list(feeds)
        for body in bodies:
            body.owner = op
    return pack(t_struct, list(op.outputs))


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


def switch_case(branch_index, branch_fns, default=None, name="switch_case"):
    """The result of branch_fns[branch_index]() for an int32 scalar index; out of range, of default() (the last
    branch when there is no default), as TF1's tf.switch_case. branch_fns: callables, (int, callable) pairs or a
    dict with keys 0 .. n - 1."""
    items = sorted(branch_fns.items()) if isinstance(branch_fns, dict) else [
        f if isinstance(f, (list, tuple)) else (i, f) for i, f in enumerate(branch_fns)]
    if not items or [k for k, _ in items] != list(range(len(items))) or not all(callable(f) for _, f in items):
        raise ValueError(f"switch_case needs branch_fns: callables, or (index, callable) pairs with indices 0 .. n - 1; "
                         f"got {branch_fns!r}")
    fns = [f for _, f in items]
    if not isinstance(branch_index, Tensor):
        raise TypeError(f"switch_case: branch_index must be a Tensor, got {branch_index!r}: use tg.constant for a "
                        "fixed one")
    graph = get_default_graph()
    with graph.name_scope(name or "switch_case"):
        index = branch_index
        if index.dtype != dtypes.int32:
            raise TypeError(f"switch_case: branch_index must be an int32 Tensor, got {index.name!r} of dtype "
                            f"{index.dtype.name}")
        last = len(fns) if default is not None else len(fns) - 1
        default = default or fns[-1]

        def chain(k):
            if k == last:
                return default()
            return cond(equal(index, k), fns[k], lambda: chain(k + 1), name=f"If_{k}")
        return chain(0)
