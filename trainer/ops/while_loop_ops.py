"""TF1's tg.while_loop and step_loop (the loop of dynamic_rnn, raw_rnn and map_fn over unknown lengths): a
"While" op whose kernel runs its body's sub-plan until the cond sub-plan says stop, and its gradient.

Separate from control_flow_ops.py (cond, case) because a loop has its own pieces: "LoopVar" placeholders fed
each pass, shape invariants, per-step slices and stacked per-step outputs, and a gradient over iterations. The
bodies machinery they share is in control_flow_bodies.py.

The gradient is simpler than TF1's backward while_loop over stacks: once a gradient is built, the While op
gets one more output, a LoopTrace holding, for every iteration of the run, the body values the gradient
reads (Body.saved: the loop variables entering it and the intermediate values the gradient ops use). A
"WhileGrad" op runs the body's gradient sub-plan over the trace, last iteration first, carrying the loop
variables' gradients back and summing those of the captured tensors (a cell's kernel and bias). Random
draws inside the body are read from the trace, never drawn again.
"""
import collections
import itertools

import numpy as np

from ..framework import dtypes
from ..framework.tensor import Tensor
from ..framework.graph import get_default_graph
from ..framework.tensor_shape import TensorShape
from ..platform.errors import InvalidArgumentError
from .control_flow_bodies import Body, body_plan, claim, enclosing_body, encloses, run_body, visible
from .core_ops import convert_to_tensor
from .gradients import gradients
from .math_ops import zeros_like
from .nest import describe, flatten, pack, same_structure
from ..framework.registry import get_array_module, register

# What one run of a While op kept for its gradient: the tensors (Body.saved), their values per iteration,
# the sliced sequences and the captured values (the gradient's shapes where no iteration ran).
LoopTrace = collections.namedtuple("LoopTrace", "saved iterations sequences captured")


def loop_var_kernel(op, session):
    raise ValueError(f"The loop variable {op.name!r} has a value only inside its while loop")


register("LoopVar", kernel=loop_var_kernel, infer=lambda shape, dtype: [(shape, dtype)])


def while_kernel(op, session):
    body, a = op.bodies[0], op.attrs
    n, s, k, limited = a["num_loop_vars"], a["num_sequences"], a["num_stacked"], a["has_maximum_iterations"]
    carried, captured_feeds = op.feeds[:n], op.feeds[n + s:]
    test = None if body.test is None else body_plan(session, body, carried + captured_feeds, [body.test])
    saved = tuple(body.saved) if len(op.outputs) > n + k else None
    step = body_plan(session, body, op.feeds, list(body.outputs) + list(saved or ()))
    stacked_like = op.outputs[n:n + k]

    def run(*inputs):
        values, rest = list(inputs[:n]), inputs[n + limited:]
        sequences, captured = rest[:s], list(rest[s:])
        limit = int(inputs[n]) if limited else None
        length = _common_length(op, sequences)
        stacked, iterations, i = [[] for _ in range(k)], [], 0
        while ((limit is None or i < limit) and (length is None or i < length)
               and (test is None or test(values + captured)[0])):
            out = step(values + [x[i] for x in sequences] + captured)
            values = out[:n]
            for parts, value in zip(stacked, out[n:n + k]):
                parts.append(value)
            if saved is not None:
                iterations.append(out[n + k:])
            i += 1
        outs = values + [_stack(session, parts, t) for parts, t in zip(stacked, stacked_like)]
        if saved is not None:
            outs.append(LoopTrace(saved, iterations, sequences, captured))
        return outs[0] if len(outs) == 1 else tuple(outs)
    return run


def _common_length(op, sequences):
    lengths = {len(x) for x in sequences}
    if len(lengths) > 1:
        raise InvalidArgumentError(f"The sequences of the loop {op.name!r} differ in length along axis 0: "
                                   f"{[tuple(x.shape) for x in sequences]}; give them the same number of steps")
    return lengths.pop() if lengths else None


def _stack(session, parts, like):
    if parts:
        return get_array_module(parts[0]).stack(parts)
    if like.shape.ndims is None or not like.shape[1:].is_fully_defined():
        raise InvalidArgumentError(f"The loop {like.op.name!r} ran no iteration, and the shape {like.shape} of its "
                                   f"stacked output {like.name!r} is not fully defined, so its empty value has no "
                                   "shape (as TF1's zero-size TensorArray); give the per-step outputs static shapes")
    return session.to_device(np.zeros([0] + like.shape.as_list()[1:], like.dtype))


def while_grad_kernel(op, session):
    a, body = op.attrs, op.bodies[0]
    nc, nk, sliced, captured = a["num_carried"], a["num_stacked"], a["sliced"], a["captured"]
    saved = op.feeds[:a["num_saved"]]
    step = body_plan(session, body, op.feeds, body.outputs)
    picks = {}

    def run(trace, *inputs):
        g_carried, g_stacked, outside = list(inputs[:nc]), inputs[nc:nc + nk], list(inputs[nc + nk:])
        if trace.saved not in picks:
            where = {t: i for i, t in enumerate(trace.saved)}
            picks[trace.saved] = [where[t] for t in saved]
        pick = picks[trace.saved]
        xp = get_array_module(next(itertools.chain(trace.sequences, g_carried, g_stacked, trace.captured), np.zeros(0)))
        slice_grads = [xp.zeros_like(trace.sequences[j]) for j in sliced]
        sums = [None] * len(captured)
        for i in reversed(range(len(trace.iterations))):
            values = [trace.iterations[i][p] for p in pick]
            out = step(values + g_carried + [g[i] for g in g_stacked] + outside)
            g_carried = [xp.zeros_like(values[j]) if g is None else g for j, g in enumerate(out[:nc])]
            for grad, g in zip(slice_grads, out[nc:nc + len(sliced)]):
                grad[i] = g
            for j, g in enumerate(out[nc + len(sliced):]):
                if sums[j] is None:
                    sums[j] = g.copy()
                else:
                    sums[j] += g
        sums = [xp.zeros_like(trace.captured[c]) if g is None else g for c, g in zip(captured, sums)]
        outs = g_carried + slice_grads + sums
        return outs[0] if len(outs) == 1 else tuple(outs)
    return run


def second_order(op, *grads):
    raise NotImplementedError(f"The gradient of {op.name!r}, itself the gradient of a tg.while_loop, is not "
                              "implemented (no second-order gradients through a loop); give the loop's elements or "
                              "time steps a static size, so that the computation is unrolled, or stop the gradient")


register("WhileGrad", kernel=while_grad_kernel, infer=lambda *a: [], grad=second_order)


def _differentiable(tensors):
    return [j for j, t in enumerate(tensors) if t.dtype.kind in "fc"]


def _trace(op, n, k):
    """The While op's LoopTrace output, added the first time a gradient needs it."""
    if len(op.outputs) == n + k:
        op.outputs += (Tensor(op, n + k, TensorShape([]), dtypes.string),)
    return op.outputs[n + k]


def _loop_var(graph, body, shape, dtype, name="LoopVar"):
    with graph.control_dependencies(None):
        v = graph.create_op("LoopVar", [], [(shape, dtype)], name=name, attrs={"shape": shape, "dtype": dtype})
    v.control_flow = body
    return v.outputs[0]


def while_grad(op, *grads):
    """The gradients of the loop variables' initial values, the sequences and the captured tensors: a WhileGrad
    op running the body's gradient (built once, as a sub-plan) over the iterations of the LoopTrace."""
    a, body, graph = op.attrs, op.bodies[0], op.graph
    if not a["back_prop"]:
        return [None] * len(op.inputs)
    n, s, k, limited = a["num_loop_vars"], a["num_sequences"], a["num_stacked"], a["has_maximum_iterations"]
    carried, sequences, captured = op.feeds[:n], op.feeds[n:n + s], op.feeds[n + s:]
    lc, lk = _differentiable(carried), _differentiable(body.outputs[n:])
    ls, lx = _differentiable(sequences), _differentiable(captured)
    ys = [body.outputs[j] for j in lc] + [body.outputs[n + j] for j in lk]
    grad_body = Body("while", 0, body)  # its ops may read the forward body's values: the trace feeds them
    seeds = [_loop_var(graph, grad_body, y.shape, y.dtype, "OutputGrad") for y in ys]
    xs = [carried[j] for j in lc] + [sequences[j] for j in ls] + [captured[j] for j in lx]
    start = len(graph.operations)
    found, _ = run_body(graph, grad_body, lambda: gradients(ys, xs, grad_ys=seeds, name="body",
                                                             stop_gradients=op.feeds), ())
    nc = len(lc)
    sliced = [j for j, g in zip(ls, found[nc:nc + len(ls)]) if g is not None]
    summed = [j for j, g in zip(lx, found[nc + len(ls):]) if g is not None]
    fetch = found[:nc] + [g for g in found[nc:] if g is not None]
    reads, controls = claim(graph, grad_body, slice(start, None), [g for g in fetch if g is not None],
                            set(v.op for v in seeds))
    saved = [carried[j] for j in lc]
    saved += [t for t in reads if t.op.control_flow is body and t not in saved]
    outside = [t for t in reads if t.op.control_flow is not body]
    body.saved += [t for t in saved if t not in body.saved]
    grad_body.outputs = fetch
    enclosing = enclosing_body(graph)
    out_grads = [grads[j] if grads[j] is not None else zeros_like(op.outputs[j]) for j in lc]
    out_grads += [grads[n + j] if grads[n + j] is not None else zeros_like(op.outputs[n + j]) for j in lk]
    inputs = [_trace(op, n, k)] + out_grads + [visible(t, None, None, enclosing) for t in outside]
    specs = [(op.inputs[j].shape, op.inputs[j].dtype) for j in lc]
    specs += [(op.inputs[n + limited + j].shape, op.inputs[n + limited + j].dtype) for j in sliced]
    specs += [(op.inputs[n + limited + s + j].shape, op.inputs[n + limited + s + j].dtype) for j in summed]
    grad_op = graph.create_op("WhileGrad", inputs, specs, name="WhileGrad",
                              control_inputs=[c for c in controls if encloses(c.control_flow, enclosing)],
                              attrs={"num_carried": nc, "num_stacked": len(lk), "num_saved": len(saved),
                                     "sliced": tuple(sliced), "captured": tuple(summed)})
    grad_op.bodies, grad_op.feeds = [grad_body], saved + seeds + outside
    grad_body.owner = grad_op
    results = [None] * len(op.inputs)
    positions = lc + [n + limited + j for j in sliced] + [n + limited + s + j for j in summed]
    for position, g in zip(positions, grad_op.outputs):
        results[position] = g
    return results


register("While", kernel=while_kernel, infer=lambda *a: [], grad=while_grad)


def at_least_as_specific(shape, invariant):
    return invariant.ndims is None or shape.ndims == invariant.ndims and all(
        b is None or a == b for a, b in zip(shape, invariant))


def _invariants(leaves, shape_invariants):
    if shape_invariants is None:
        return [t.shape for t in leaves]
    invariants = [TensorShape(s) for s in flatten(shape_invariants)[0]]
    if len(invariants) != len(leaves):
        raise ValueError(f"shape_invariants has {len(invariants)} shapes for {len(leaves)} loop variables")
    for t, inv in zip(leaves, invariants):
        if not at_least_as_specific(t.shape, inv):
            raise ValueError(f"The shape invariant {inv} for the loop variable {t.name!r} is not compatible "
                             f"with its initial shape {t.shape}")
    return invariants


def _check_next(leaves, out_leaves, invariants):
    for v, out, inv in zip(leaves, out_leaves, invariants):
        if out.dtype != v.dtype:
            raise ValueError(f"The loop variable {v.name!r} enters the loop as {v.dtype.name} but the body "
                             f"returns {out.name!r} of dtype {out.dtype.name}")
        if not at_least_as_specific(out.shape, inv):
            raise ValueError(f"Input tensor {v.name!r} enters the loop with shape {inv}, but has shape "
                             f"{out.shape} after one iteration. To allow the shape to vary across "
                             "iterations, use the `shape_invariants` argument of tg.while_loop to "
                             "specify a less-specific shape.")


def _build(cond, step, leaves, invariants, sequences, maximum_iterations, back_prop, scope):
    """The While op of cond(carried) -> scalar bool (None: run to the end of the sequences) and
    step(carried, slices) -> (next carried, per-step outputs); returns (final carried, stacked outputs)."""
    graph = get_default_graph()
    enclosing = enclosing_body(graph)
    inner = Body("while", 0, enclosing)
    carried = [_loop_var(graph, inner, inv, t.dtype) for t, inv in zip(leaves, invariants)]
    slices = [_loop_var(graph, inner, x.shape[1:] if x.shape.ndims else TensorShape(None), x.dtype, "Slice")
              for x in sequences]
    start, test = len(graph.operations), None
    if cond is not None:
        test = convert_to_tensor(run_body(graph, inner, cond, (carried,))[0])
        if test.dtype != dtypes.bool or test.shape.ndims not in (None, 0):
            raise ValueError(f"while_loop's cond must return a scalar bool Tensor, got {test!r}")
    (out_leaves, per_step), _ = run_body(graph, inner, step, (carried, slices))
    out_leaves, per_step = [convert_to_tensor(v) for v in out_leaves], [convert_to_tensor(v) for v in per_step]
    _check_next(leaves, out_leaves, invariants)
    inner.outputs, inner.test = out_leaves + per_step, test
    captured, controls = claim(graph, inner, slice(start, None), inner.outputs + ([test] if test is not None else []),
                                set(v.op for v in carried + slices))
    inputs = list(leaves)
    if maximum_iterations is not None:
        inputs.append(convert_to_tensor(maximum_iterations, dtype=dtypes.int32))
    inputs += list(sequences) + [visible(t, None, None, enclosing) for t in captured]
    stacked = [(TensorShape([None]).concatenate(t.shape), t.dtype) for t in per_step]
    op = graph.create_op("While", inputs, [(inv, t.dtype) for t, inv in zip(leaves, invariants)] + stacked,
                         name=scope[:-1], unique=False,
                         control_inputs=[c for c in controls if encloses(c.control_flow, enclosing)],
                         attrs={"num_loop_vars": len(leaves), "back_prop": bool(back_prop),
                                "has_maximum_iterations": int(maximum_iterations is not None),
                                "num_sequences": len(sequences), "num_stacked": len(per_step)})
    op.bodies, op.feeds = [inner], carried + slices + captured
    inner.owner = op
    return list(op.outputs[:len(leaves)]), list(op.outputs[len(leaves):len(leaves) + len(per_step)])


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10, back_prop=True,
               swap_memory=False, maximum_iterations=None, name=None, return_same_structure=False):
    """Repeat `loop_vars = body(*loop_vars)` while cond(*loop_vars) is True (TF1's tf.while_loop).

    parallel_iterations and swap_memory are accepted and ignored (iterations run one after another).
    """
    if not callable(cond) or not callable(body):
        raise TypeError(f"while_loop needs callables cond and body, got {cond!r} and {body!r}")
    single = isinstance(loop_vars, Tensor) or not isinstance(loop_vars, (list, tuple, dict))
    leaves, structure = flatten([loop_vars] if single else loop_vars)
    if not leaves:
        raise ValueError("while_loop needs at least one loop variable, got loop_vars=" + repr(loop_vars))

    def step(carried, slices):
        result = body(*pack(structure, carried))
        if isinstance(result, Tensor) or not isinstance(result, (list, tuple, dict)):
            result = [result]
        out_leaves, out_structure = flatten(result)
        if not same_structure(structure, out_structure):
            raise ValueError(f"while_loop's body must return the structure of loop_vars {describe(structure)}, "
                             f"got {describe(out_structure)}")
        return out_leaves, []

    with get_default_graph().name_scope(name or "while") as scope:
        leaves = [convert_to_tensor(v) for v in leaves]
        invariants = _invariants(leaves, None if shape_invariants is None
                                 else [shape_invariants] if single else shape_invariants)
        outputs, _ = _build(lambda carried: cond(*pack(structure, carried)), step, leaves, invariants, [],
                            maximum_iterations, back_prop, scope)
    if not return_same_structure and len(outputs) == 1:
        return outputs[0]
    packed = pack(structure, outputs)
    return packed[0] if single else packed


def step_loop(step, loop_vars, sequences=(), cond=None, maximum_iterations=None, shape_invariants=None,
              back_prop=True, name=None):
    """`loop_vars, outputs = step(loop_vars, slices)` once per step, where slices are the sequences' entries
    along axis 0 (as tf.scan's elems); returns (the final loop_vars, each per-step output stacked on a new axis 0).

    The loop stops at the sequences' end, after maximum_iterations, or when cond(loop_vars) is False. Lists of
    Tensors in and out; its gradient reaches loop_vars, the sequences and the tensors step captures.
    """
    if not sequences and cond is None and maximum_iterations is None:
        raise ValueError("step_loop needs sequences, a cond or maximum_iterations to know when to stop")
    with get_default_graph().name_scope(name or "while") as scope:
        leaves = [convert_to_tensor(v) for v in loop_vars]
        sequences = [convert_to_tensor(x) for x in sequences]
        for x in sequences:
            if x.shape.ndims == 0:
                raise ValueError(f"step_loop slices its sequences along axis 0, but {x.name!r} is a scalar")
        return _build(cond, step, leaves, _invariants(leaves, shape_invariants), sequences, maximum_iterations,
                      back_prop, scope)
