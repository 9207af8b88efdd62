"""TF1's tg.while_loop: a "While" op whose kernel runs its body's sub-plan until the cond sub-plan says stop.

Separate from control_flow_ops.py (cond, case) because a loop has its own pieces: "LoopVar" placeholders fed
each pass, shape invariants, and no gradient (back_prop=False only). The bodies machinery they share is in
control_flow_bodies.py.
"""
from ..framework import dtypes
from ..framework.tensor import Tensor
from ..framework.graph import get_default_graph
from ..framework.tensor_shape import TensorShape
from .control_flow_bodies import Body, body_plan, claim, enclosing_body, encloses, run_body, visible
from .core_ops import convert_to_tensor
from .nest import describe, flatten, pack, same_structure
from ..framework.registry import register


def loop_var_kernel(op, session):
    raise ValueError(f"The loop variable {op.name!r} has a value only inside its while loop")


register("LoopVar", kernel=loop_var_kernel, infer=lambda shape, dtype: [(shape, dtype)])


def while_kernel(op, session):
    body, n, limited = op.bodies[0], op.attrs["num_loop_vars"], op.attrs["has_maximum_iterations"]
    test = body_plan(session, body, op.feeds, [body.test])
    step = body_plan(session, body, op.feeds, body.outputs)

    def run(*inputs):
        values, captured = list(inputs[:n]), list(inputs[n + limited:])
        limit = int(inputs[n]) if limited else None
        i = 0
        while (limit is None or i < limit) and test(values + captured)[0]:
            values = step(values + captured)
            i += 1
        return values[0] if n == 1 else tuple(values)
    return run


def while_grad(op, *grads):
    if not op.attrs["back_prop"]:
        return [None] * len(op.inputs)
    raise NotImplementedError(f"The gradient of tg.while_loop {op.name!r} is not implemented; compute the "
                              "loop with back_prop=False or write the computation without the loop")


register("While", kernel=while_kernel, infer=lambda *a: [], grad=while_grad)


def at_least_as_specific(shape, invariant):
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
    leaves, structure = flatten(structure_in)
    if not leaves:
        raise ValueError("while_loop needs at least one loop variable, got loop_vars=" + repr(loop_vars))
    graph = get_default_graph()
    enclosing = enclosing_body(graph)
    with graph.name_scope(name or "while") as scope:
        leaves = [convert_to_tensor(v) for v in leaves]
        if shape_invariants is None:
            invariants = [t.shape for t in leaves]
        else:
            invariants = [TensorShape(s) for s in flatten([shape_invariants] if single else shape_invariants)[0]]
            if len(invariants) != len(leaves):
                raise ValueError(f"shape_invariants has {len(invariants)} shapes for {len(leaves)} loop variables")
        for t, inv in zip(leaves, invariants):
            if not at_least_as_specific(t.shape, inv):
                raise ValueError(f"The shape invariant {inv} for the loop variable {t.name!r} is not compatible "
                                 f"with its initial shape {t.shape}")
        inner = Body("while", 0, enclosing)
        with graph.control_dependencies(None):
            loop_vars_in = [graph.create_op("LoopVar", [], [(inv, t.dtype)], name="LoopVar",
                                            attrs={"shape": inv, "dtype": t.dtype}).outputs[0]
                            for t, inv in zip(leaves, invariants)]
        for v in loop_vars_in:
            v.op.control_flow = inner
        args = pack(structure, loop_vars_in)
        test, start = run_body(graph, inner, cond, args)
        test = convert_to_tensor(test)
        if test.dtype != dtypes.bool or test.shape.ndims not in (None, 0):
            raise ValueError(f"while_loop's cond must return a scalar bool Tensor, got {test!r}")
        result, _ = run_body(graph, inner, body, args)
        if isinstance(result, Tensor) or not isinstance(result, (list, tuple, dict)):
            result = [result]
        out_leaves, out_structure = flatten(result)
        if not same_structure(structure, out_structure):
            raise ValueError(f"while_loop's body must return the structure of loop_vars {describe(structure)}, "
                             f"got {describe(out_structure)}")
        out_leaves = [convert_to_tensor(v) for v in out_leaves]
        for v, out, inv in zip(leaves, out_leaves, invariants):
            if out.dtype != v.dtype:
                raise ValueError(f"The loop variable {v.name!r} enters the loop as {v.dtype.name} but the body "
                                 f"returns {out.name!r} of dtype {out.dtype.name}")
            if not at_least_as_specific(out.shape, inv):
                raise ValueError(f"Input tensor {v.name!r} enters the loop with shape {inv}, but has shape "
                                 f"{out.shape} after one iteration. To allow the shape to vary across "
                                 "iterations, use the `shape_invariants` argument of tg.while_loop to "
                                 "specify a less-specific shape.")
        inner.outputs, inner.test = out_leaves, test
        captured, controls = claim(graph, inner, slice(start, None), out_leaves + [test],
                                    set(v.op for v in loop_vars_in))
        inputs = list(leaves)
        if maximum_iterations is not None:
            inputs.append(convert_to_tensor(maximum_iterations, dtype=dtypes.int32))
        inputs += [visible(t, None, None, enclosing) for t in captured]
        op = graph.create_op("While", inputs, [(inv, t.dtype) for t, inv in zip(leaves, invariants)],
                             name=scope[:-1], unique=False,
                             control_inputs=[c for c in controls
                                             if encloses(c.control_flow, enclosing)],
                             attrs={"num_loop_vars": len(leaves), "back_prop": bool(back_prop),
                                    "has_maximum_iterations": int(maximum_iterations is not None)})
        op.bodies, op.feeds = [inner], loop_vars_in + captured
        inner.owner = op
    outputs = list(op.outputs)
    if not return_same_structure and len(outputs) == 1:
        return outputs[0]
    packed = pack(structure, outputs)
    return packed[0] if single else packed
