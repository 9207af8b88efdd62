"""Plan: the ops one Session.run needs, sorted once, then executed as a plain loop over an environment list.

Separate from session.py because it is the executor itself (JAX's eval_jaxpr): a Session only caches one
Plan per (fetches, feed keys); control-flow ops build Plans of their own for each branch or loop body.
"""
import copy
import heapq
import operator
import time

from allreduce.errors import CollectiveMismatch
from .buffer_reuse import donate_buffers, write_into_destinations
from .fusion import accumulate_products, fold_producers, fuse_epilogues, fusion_on
from .shape_folding import folding_on, shape_folding
from ..platform.errors import (FailedPreconditionError, InvalidArgumentError, OpError, OutOfRangeError,
                               ResourceExhaustedError, UnimplementedError)
from .feed_fetch import aliases_state, feed_check, fetch_post
from ..framework.operation import Operation
from ..framework.tensor import Tensor, format_shape
from ..framework.registry import make_kernel, op_def


class Plan:
    """The ops a run needs, topologically sorted (Kahn's algorithm), as (kernel, input slots, output slot)."""

    def __init__(self, session, leaves, feed_keys, branch=None):
        """`branch`, where set, makes this the sub-plan of one control-flow body (ops/control_flow_bodies.py):
        it schedules only that body's ops, takes its captured values unchecked and returns arrays as they are."""
        graph = session.graph
        elements = [_element(graph, leaf, "fetch") for leaf in leaves]
        feeds = [_element(graph, key, "feed") for key in feed_keys]
        for t in feeds:
            if not isinstance(t, Tensor):
                raise TypeError(f"Only Tensors can be fed, got the Operation {t.name!r}")
        fed = set(feeds)
        ops = _topological_order(elements, fed, branch)
        self.ops = ops  # what this plan runs, in order (constants included: they are placed once, here)
        slots = {}
        for t in feeds:
            slots[t] = len(slots)
        self.template, steps = [None] * len(feeds), []
        read = {t for op in ops for t in op.inputs} | {e for e in elements if isinstance(e, Tensor)}
        for op in ops:
            d = op_def(op.type)
            if op.type == "Placeholder" and not all(t in fed for t in op.outputs):
                raise InvalidArgumentError(op.node_def, op, f"You must feed a value for placeholder tensor "
                                           f"{op.outputs[0].name!r} with dtype {op.outputs[0].dtype.name} and shape "
                                           f"{format_shape(op.outputs[0].shape)}")
            outs = []
            for t in op.outputs:
                if t not in slots:
                    slots[t] = len(self.template)
                    self.template.append(None)
                outs.append(slots[t])
            if d.constant:
                self.template[outs[0]] = session.to_device(op.attrs["value"])
                continue
            ins = tuple(slots[t] for t in op.inputs[d.ref_inputs:])
            kernel = make_kernel(op, session, {i for i, t in enumerate(op.outputs) if t in read})
            if len(outs) == 1:
                steps.append((kernel, ins, outs[0], op))
            else:
                tuple_slot = len(self.template)
                self.template.append(None)
                steps.append((kernel, ins, tuple_slot, op))
                if d.skips_unread:  # outputs nobody reads are not taken out; those read must be there
                    steps += [(_output(op, i), (tuple_slot,), s, op) for i, s in enumerate(outs)
                              if op.outputs[i] in read]
                else:
                    steps += [(operator.itemgetter(i), (tuple_slot,), s, op) for i, s in enumerate(outs)]
        fetched = {slots[e] for e in elements if isinstance(e, Tensor)} | set(range(len(feeds)))
        # the values shape folding keeps are read back after the run: like fetches, no step may write into them
        self.folding = None if branch is not None or not folding_on(session.config) else shape_folding(
            ops, fed, slots, [e for e in elements if isinstance(e, Tensor)], lambda o: op_def(o.type).constant)
        if self.folding is not None:
            fetched |= set(self.folding.boundary)
        steps = write_into_destinations(donate_buffers(steps, fetched, {s: t for t, s in slots.items()}, session),
                                        fetched, session)
        self.op_steps = steps  # one per op's kernel: what a traced run and a profile time, op by op
        self.steps, self.fused = steps, {}
        if fusion_on(session.config):
            folded, folds = fold_producers(accumulate_products(steps, fetched), fetched, session)
            self.steps, self.fused = fuse_epilogues(folded, fetched)
            self.fused.update(folds)
        if self.folding is not None:
            self.folding.use(self.steps)
        self.fetch_slots = [slots[e] if isinstance(e, Tensor) else None for e in elements]
        if branch is None:
            self.feed_checks = [feed_check(t, session.to_device) for t in feeds]
            self.fetch_post = [fetch_post(e, session) for e in elements]
        else:
            self.feed_checks = [_as_is] * len(feeds)
            self.fetch_post = [_copy if aliases_state(e) else _as_is for e in elements]

    def with_kernels(self, kernel_for):
        """A copy of this plan whose steps run `kernel_for(op, kernel)` instead of each op's kernel (a cluster
        runtime ships the updates of remote variables this way); the copy shares the rest of the plan. A fused
        step is asked about by its last op, and its ops one by one in `op_steps`; where that op gets another
        kernel, the fused step's ops run one by one in its place, each asked in turn."""
        plan = copy.copy(self)
        plan.steps, plan.folding = [], None  # the folded steps' short list holds this plan's kernels
        for kernel, ins, out, op in self.steps:
            swapped = kernel_for(op, kernel)
            if swapped is kernel or op not in self.fused:
                plan.steps.append((swapped, ins, out, op))
            else:
                plan.steps += [(kernel_for(o, k), i, s, o) for k, i, s, o in self.fused[op]]
        plan.op_steps = [(kernel_for(op, kernel), ins, out, op) for kernel, ins, out, op in self.op_steps]
        return plan

    def execute(self, feed_values, trace=None):
        """The fetched values; `trace(op, start_ns, end_ns, value)`, if given, is told of each kernel run
        (a traced Session.run: trainer/client/step_stats.py)."""
        env = self.template[:]
        for i, (check, value) in enumerate(zip(self.feed_checks, feed_values)):
            env[i] = check(value)
        steps = self.steps if trace is None else [(_timed(k, op, trace), ins, out, op)
                                                  for k, ins, out, op in self.op_steps]
        unknown = None  # the feed shapes of a run whose folded values are to be kept
        if self.folding is not None and trace is None:
            folded, unknown = self.folding.start(env)
            steps = self.steps if folded is None else folded
        op = None
        try:
            # Unary and binary kernels are called without building an argument list: at ~40 small ops
            # per training step, that per-op overhead is a visible part of the step.
            for kernel, ins, out, op in steps:
                n = len(ins)
                if n == 1:
                    env[out] = kernel(env[ins[0]])
                elif n == 2:
                    env[out] = kernel(env[ins[0]], env[ins[1]])
                else:
                    env[out] = kernel(*[env[i] for i in ins])
        except Exception as exc:
            if op in self.fused and trace is None:
                op = _culprit(self.fused[op], env)
            error = exc if op is None else _op_error(exc, op)
            if error is exc:
                raise
            raise error from exc
        if unknown is not None:
            self.folding.remember(unknown, env)
        return [post(env[s]) if s is not None else None for s, post in zip(self.fetch_slots, self.fetch_post)]


def _output(op, i):
    """Output i of a `skips_unread` op's kernel, which this plan reads: it may not be one the kernel skipped."""
    def take(outputs):
        value = outputs[i]
        if value is None:
            raise RuntimeError(f"{op.type} op {op.name!r} gave no value for its output {i} ({op.outputs[i].name!r}), "
                               f"which this run reads: a skips_unread kernel may skip only outputs outside `read`")
        return value
    return take


def _culprit(parts, env):
    """The op of a fused step's `parts` that fails, found by running them one at a time (a fused step's inputs are
    intact: it writes only its own buffers; a random producer draws again, on a run that failed anyway); its last op
    if none fails again."""
    for kernel, ins, out, op in parts:
        try:
            env[out] = kernel(*[env[i] for i in ins])
        except Exception:
            return op
    return op


def _timed(kernel, op, trace):
    def run(*args):
        start = time.perf_counter_ns()
        value = kernel(*args)
        trace(op, start, time.perf_counter_ns(), value)
        return value
    return run


def _topological_order(elements, fed, branch=None):
    """Kahn's algorithm over only the ops the fetches need; ties go to the op built first.

    Ops built inside a control-flow body (tg.cond, tg.while_loop) carry that body in `control_flow`; they
    run only in their body's sub-plan (`branch`), whose outside inputs are fed and whose outside control
    inputs the control-flow op itself waits for.
    """
    needed, stack = set(), [e if isinstance(e, Operation) else e.op for e in elements if e not in fed]
    controls = _controls_within(branch)
    while stack:
        op = stack.pop()
        if op in needed:
            continue
        if op.control_flow is not branch:
            raise ValueError(f"Operation {op.name!r} was built inside {op.control_flow} and runs only there; "
                             "return its value from the branch or loop function and use that output instead")
        needed.add(op)
        ref = op_def(op.type).ref_inputs
        stack += [t.op for t in op.inputs[ref:] if t not in fed]
        stack += [c for c in controls(op) if c not in needed]
    indegree, consumers = {op: 0 for op in needed}, {op: [] for op in needed}
    for op in needed:
        ref = op_def(op.type).ref_inputs
        for producer in {t.op for t in op.inputs[ref:] if t not in fed} | set(controls(op)):
            indegree[op] += 1
            consumers[producer].append(op)
    ready = [(op.schedule_key, op) for op, n in indegree.items() if n == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        _, op = heapq.heappop(ready)
        order.append(op)
        for consumer in consumers[op]:
            indegree[consumer] -= 1
            if indegree[consumer] == 0:
                heapq.heappush(ready, (consumer.schedule_key, consumer))
    return order


def _controls_within(branch):
    if branch is None:
        return operator.attrgetter("control_inputs")
    return lambda op: [c for c in op.control_inputs if c.control_flow is branch]


def _as_is(value):
    return value


def _copy(value):
    return value.copy()


def _element(graph, obj, role):
    try:
        return graph.as_graph_element(obj)
    except (TypeError, ValueError, KeyError) as exc:
        raise type(exc)(f"Cannot interpret {obj!r} as a {role}: {exc.args[0]}") from None


# The tf.errors class TF1 raises for what a kernel raised: the mapping TF1's py_func applies to Python exceptions,
# with IndexError and ZeroDivisionError (an index or divisor out of range) as InvalidArgument, as TF1's kernels
# report them; ranks disagreeing on a collective as Horovod reports it (FailedPrecondition, on every rank).
# Anything else (a collective's timeout, a RuntimeError) keeps its type: callers catch those.
OP_ERRORS = ((CollectiveMismatch, FailedPreconditionError), (StopIteration, OutOfRangeError),
             (MemoryError, ResourceExhaustedError),
             (NotImplementedError, UnimplementedError),
             ((ValueError, TypeError, IndexError, ZeroDivisionError), InvalidArgumentError))


def _op_error(exc, op):
    """`exc`, raised by op's kernel, as TF1 raises it: an OpError with .op and .node_def, its message prefixed with
    the failing op (the raiser chains `exc` as the cause of a new one); other exceptions keep their type."""
    if isinstance(exc, OpError) and exc.op is not None:  # from a sub-plan, naming its own op
        return exc
    text = exc.args[0] if len(exc.args) == 1 and isinstance(exc.args[0], str) else str(exc)
    # an uninitialized variable's message names it already, in TF1's words
    message = text if isinstance(exc, FailedPreconditionError) else f"{op.type} op {op.name!r} failed: {text}"
    if isinstance(exc, OpError):
        exc.args, exc.op, exc.node_def = (message,), op, op.node_def
        return exc
    for caught, error in OP_ERRORS:
        if isinstance(exc, caught):
            return error(op.node_def, op, message)
    if exc.args and isinstance(exc.args[0], str):
        exc.args = (f"{op.type} op {op.name!r} failed: {exc.args[0]}",) + exc.args[1:]
    elif hasattr(exc, "add_note"):
        exc.add_note(f"while running {op.type} op {op.name!r}")
    return exc
