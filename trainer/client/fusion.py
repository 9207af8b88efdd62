"""Fusion in a Plan's steps: a producer and the in-place ops right after it that finish its buffer run as one step.

TF's grappler remapper turns MatMul -> BiasAdd -> Relu into one _FusedMatMul kernel (and Conv2D's chain into
_FusedConv2D), and ConfigProto's graph_options.rewrite_options.remapping = RewriterConfig.OFF turns it off; this
is ringflow's counterpart, and obeys the same switch. After buffer reuse (buffer_reuse.py) has given BiasAdd and
Relu their in-place kernels on a dying MatMul buffer, the three kernels are called as one: the same kernels on
the same buffer, so the values are the unfused ones to the bit, on every device, and only the executor's
per-step work goes. A link qualifies only where nothing can tell: the consumer is the very next step, it takes
the producer's buffer in place as its input 0, and nothing else reads that buffer or fetches it.

The second mechanism, fold_producers, runs a real fused kernel an op declares for the op making one of its inputs
(framework/registry.py's register_fusion: MaxPoolGrad with the ReluGrad that masks its gradient), under the same
switch and the same rule, and with the unfused values to the bit. A variable's update declares one too (SGD's with
its gradient's MatMul: one GEMM into the variable, within rounding of the two); the plan runs updates after the
whole backward pass, so its fused step is the update moved up to the producer's place, which is allowed only where
no step between reads or updates that variable and the update's other inputs are made before the producer.

The third, accumulate_products, takes an AddN of MatMul products that nothing else reads (a weight's gradient summed
over the time steps of an unrolled RNN): each product after the first is added into the first one's buffer by BLAS
(beta = 1) where it is made, so the products are not kept to the end and summed in a pass of their own. The sum
keeps AddN's order (the products are added in its input order, which must be the order they are made); each add
rounds once, as AddN's does.
"""
import functools
import operator

import numpy as np

from ..framework.registry import fusions, op_def
from ..ops.kernels import gemm

REMAPPING_OFF = 2  # RewriterConfig.OFF, TF's Toggle value


def fusion_on(config):
    """Whether `config` (a ConfigProto, or None) leaves TF's remapper, and so this fusion, on."""
    graph_options = getattr(config, "graph_options", None)
    rewrite_options = getattr(graph_options, "rewrite_options", None)
    return getattr(rewrite_options, "remapping", 0) != REMAPPING_OFF


def fuse_epilogues(steps, keep):
    """`steps` with each producer and its in-place consumers merged into one step, and {fused step's op: the
    steps it merged}; the merged step writes the last consumer's slot and carries that consumer's op."""
    readers = {}
    for kernel, ins, out, op in steps:
        for s in ins:
            readers[s] = readers.get(s, 0) + 1
    chains = []
    for step in steps:
        if chains and _finishes(chains[-1][-1], step, readers, keep):
            chains[-1].append(step)
        else:
            chains.append([step])
    fused, parts = [], {}
    for chain in chains:
        if len(chain) == 1:
            fused.append(chain[0])
            continue
        last = chain[-1]
        fused.append((_composed(chain), chain[0][1] + tuple(s for step in chain[1:] for s in step[1][1:]), last[2],
                      last[3]))
        parts[last[3]] = chain
    return fused, parts


def _finishes(producer, step, readers, keep):
    """Whether `step` takes `producer`'s output in place (its op's in-place kernel on a buffer nobody else sees)."""
    p_kernel, p_ins, p_out, p_op = producer
    kernel, ins, out, op = step
    d = op_def(op.type)
    inplace = d.inplace
    return (inplace is not None and d.inplace_input == 0 and ins and ins[0] == p_out and readers[p_out] == 1
            and p_out not in keep
            and (kernel is inplace or isinstance(kernel, functools.partial) and kernel.func is inplace)
            and op_def(p_op.type).fresh and len(p_op.outputs) == len(op.outputs) == 1 and not d.ref_inputs)


def _composed(chain):
    """One function calling the chain's kernels in turn, each on the last one's result and its own other inputs;
    MatMul -> BiasAdd (-> Relu) spelled out, so that the fused step costs no more than its kernels."""
    kernels, arities = [k for k, *_ in chain], tuple(len(ins) for _, ins, *_ in chain)
    if arities == (2, 2, 1):
        first, then, last = kernels
        return lambda a, b, c: last(then(first(a, b), c))
    if arities == (2, 2):
        first, then = kernels
        return lambda a, b, c: then(first(a, b), c)
    ends = [len(chain[0][1])]
    for n in arities[1:]:
        ends.append(ends[-1] + n - 1)

    def run(*args):
        value = kernels[0](*args[:ends[0]])
        for kernel, start, end in zip(kernels[1:], ends, ends[1:]):
            value = kernel(value, *args[start:end])
        return value
    return run


def fold_producers(steps, keep, session=None):
    """`steps` with each op that has a fused kernel for the op making one of its inputs (registry.register_fusion)
    run as one step with that producer, and {fused step's op: the two steps it merged}.

    A real fused kernel, where fuse_epilogues calls the same kernels in turn: a pair qualifies where the producer is
    the step right before (nothing runs between them that could write its inputs in place), has one output, and
    that output feeds only this op and is not fetched. The op keeps the buffer reuse already chosen for it: its
    in-place kernel's fused form where it had one. A variable's update (a `kernel` fusion, built in `session`) runs
    at its producer's place instead (_hoisted)."""
    readers = {}
    for kernel, ins, out, op in steps:
        for s in ins:
            readers[s] = readers.get(s, 0) + 1
    parts = {}
    if session is not None:
        steps = _hoisted(steps, readers, keep, session, parts)
    folded = []
    for step in steps:
        fused = _fold(folded[-1], step, readers, keep) if folded and folded[-1][3] not in parts else None
        if fused is None:
            folded.append(step)
        else:
            parts[step[3]] = [folded[-1], step]
            folded[-1] = fused
    return folded, parts


def _fold(producer, step, readers, keep):
    """The step computing `step` with `producer` in one fused kernel, or None."""
    p_kernel, p_ins, p_out, p_op = producer
    kernel, ins, out, op = step
    d = op_def(op.type)
    for index, producer_type, forward, inplace, _ in fusions(op.type):
        if (forward is None or p_op.type != producer_type or len(ins) <= index or ins[index] != p_out
                or readers[p_out] != 1 or p_out in keep or len(p_op.outputs) != 1 or op_def(p_op.type).ref_inputs
                or d.ref_inputs):
            continue
        chosen = inplace if _runs(kernel, d.inplace) else forward if _runs(kernel, d.forward) else None
        if chosen is not None:
            return (functools.partial(chosen, **op.attrs) if op.attrs else chosen,
                    ins[:index] + p_ins + ins[index + 1:], out, op)
    return None


def _runs(kernel, fn):
    return fn is not None and (kernel is fn or isinstance(kernel, functools.partial) and kernel.func is fn)


def _hoisted(steps, readers, keep, session, parts):
    """`steps` with each variable update that has a `kernel` fusion for its input's producer run as one step in the
    producer's place (recorded in `parts`), where _movable allows it."""
    made = {out: k for k, (kernel, ins, out, op) in enumerate(steps)}
    moved, dropped = {}, set()
    for q, (kernel, ins, out, op) in enumerate(steps):
        for index, producer_type, _, _, factory in fusions(op.type):
            p = made.get(ins[index]) if factory is not None and len(ins) > index else None
            if p is None or p in moved:
                continue
            p_kernel, p_ins, p_out, p_op = steps[p]
            others = [s for i, s in enumerate(ins) if i != index]
            if (p_op.type != producer_type or readers[p_out] != 1 or p_out in keep or len(p_op.outputs) != 1
                    or op_def(p_op.type).ref_inputs or not _movable(steps, p, q, others, made)):
                continue
            fused = factory(op, p_op, session)
            if fused is not None:
                moved[p] = (fused, ins[:index] + p_ins + ins[index + 1:], out, op)
                parts[op] = [steps[p], steps[q]]
                dropped.add(q)
                break
    return [moved.get(k, step) for k, step in enumerate(steps) if k not in dropped]


def _movable(steps, p, q, other_inputs, made):
    """Whether the update at step q can run at step p: its other inputs and control inputs come from before p, and
    no step between reads its variables (nor anything that may alias them: outputs of ops that are not `fresh`),
    updates them, or names them in its attributes (a var_list)."""
    op = steps[q][3]
    variables = {t.op for t in op.inputs[:op_def(op.type).ref_inputs]}
    at = {step[3]: k for k, step in enumerate(steps)}
    if any(made.get(s, -1) > p for s in other_inputs) or any(at.get(c, -1) > p for c in op.control_inputs):
        return False
    aliases = set()
    for k, (kernel, ins, out, s_op) in enumerate(steps[:q]):
        reads = any(s in aliases for s in ins)
        if s_op in variables or reads and (not op_def(s_op.type).fresh or isinstance(kernel, operator.itemgetter)):
            aliases.add(out)
        if k > p and (reads or _names(s_op, variables)):
            return False
    return True


def _names(op, variables):
    """Whether `op` updates one of `variables` (as a ref input) or lists it in its attributes."""
    refs = op.inputs[:op_def(op.type).ref_inputs]
    return (any(t.op in variables for t in refs)
            or any(getattr(v, "op", None) in variables for v in op.attrs.get("var_list", ())))


# The least sum (elements, known while building) whose products are added as they are made: a GEMM with beta = 1
# through gemm.dot_add costs some 4 us a call more than numpy's dot, what the sum's own pass and the products' fresh
# buffers cost at about 8K elements. One core, 28 steps of batch 64: a GRU's [156, 256] and [156, 128] weight
# gradients and an unrolled LSTM's [157, 512] gain (its step 1.45-1.54 -> 1.36-1.43x PyTorch's), Keras' [28, 384]
# input kernel of a GRU lost 5%.
ACCUMULATED_SIZE = 1 << 14


def _size(op):
    dims = op.outputs[0].shape.as_list() if op.outputs[0].shape.dims is not None else [None]
    return 0 if None in dims else int(np.prod(dims))


def accumulate_products(steps, keep):
    """`steps` with each AddN whose inputs are all MatMul products, read by nothing else, not fetched and made in the
    AddN's input order, summed as they are made (module docstring). Each changed step keeps its op, so an error names
    the MatMul that failed; none of these ops is one a runtime swaps a kernel of (Plan.with_kernels: updates)."""
    readers, made = {}, {}
    for k, (kernel, ins, out, op) in enumerate(steps):
        made[out] = k
        for s in ins:
            readers[s] = readers.get(s, 0) + 1
    replaced = {}
    for q, (kernel, ins, out, op) in enumerate(steps):
        if op.type != "AddN" or len(ins) < 2:
            continue
        producers = [made.get(s) for s in ins]
        if (None in producers or producers != sorted(set(producers)) or _size(op) < ACCUMULATED_SIZE
                or any(steps[p][3].type != "MatMul" or len(steps[p][1]) != 2 or readers[steps[p][2]] != 1
                       or steps[p][2] in keep or p in replaced for p in producers)):
            continue
        for previous, p in zip(producers, producers[1:]):
            m_kernel, m_ins, m_out, m_op = steps[p]
            replaced[p] = (_adding(m_kernel, m_op), m_ins + (steps[previous][2],), m_out, m_op)
        replaced[q] = (_same, (ins[-1],), out, op)
    return [replaced.get(k, step) for k, step in enumerate(steps)]


def _same(total):
    return total


def _adding(product, op):
    """A kernel (a, b, total) adding the MatMul op's product of a and b into total, in place: one BLAS GEMM with
    beta = 1 on host arrays it takes, else the product and an add."""
    ta, tb = op.attrs["transpose_a"], op.attrs["transpose_b"]

    def add(a, b, total):
        if type(total) is np.ndarray and gemm.dot_add(a.T if ta else a, b.T if tb else b, total) is not None:
            return total
        np.add(total, product(a, b), out=total)  # numpy's ufuncs dispatch CuPy arrays to CuPy
        return total
    return add
