"""Buffer reuse in a Plan's steps: in-place kernels where an input dies, producers writing into their consumer's buffer.

Separate from plan.py because it is an optimisation over finished steps (kernel, input slots, output slot,
op): the plan is correct without it, and the ops opt in where they are registered (`inplace`, `into`, `fresh`,
`destinations` in framework/registry.py).
"""
import functools
import operator

from ..framework.registry import make_inplace_kernel, op_def


def write_into_destinations(steps, keep, session):
    """Let a producer with an `into` kernel write straight into the buffer its only consumer copies it to in
    `session`.

    Only a buffer already on the session's device qualifies (`to_device` hands such a buffer back as is):
    host buckets on a GPU session keep their copy."""
    producer = {out: k for k, (kernel, ins, out, op) in enumerate(steps)}
    readers = {}
    for kernel, ins, out, op in steps:
        for s in ins:
            readers[s] = readers.get(s, 0) + 1
    steps = list(steps)
    for kernel, ins, out, op in steps:
        destinations = op_def(op.type).destinations
        if destinations is None:
            continue
        for s, dest in zip(ins, destinations(op, session)):
            k = producer.get(s)
            if dest is None or k is None or s in keep or readers[s] != 1:
                continue
            p_kernel, p_ins, p_out, p_op = steps[k]
            into = op_def(p_op.type).into
            if (into is not None and p_op.outputs[0].shape == dest.shape and p_op.outputs[0].dtype == dest.dtype
                    and session.to_device(dest) is dest):
                steps[k] = (functools.partial(into, dest, **p_op.attrs), p_ins, p_out, p_op)
    return steps


def donate_buffers(steps, keep, tensors, session):
    """Swap in an op's in-place kernel where the input it writes into (OpDef.inplace_input) is a buffer nobody
    reads afterwards.

    A buffer qualifies when a `fresh` op (one whose outputs never alias inputs or variables) made it,
    it has rank >= 1, and neither it nor anything that may alias it (outputs of non-fresh ops that
    read it) is read by a later step or fetched (`keep` holds fetched and fed slots).
    """
    last = dict.fromkeys(keep, len(steps))
    for k in range(len(steps) - 1, -1, -1):
        kernel, ins, out, op = steps[k]
        fresh = op_def(op.type).fresh and not isinstance(kernel, operator.itemgetter)
        for s in ins:
            last[s] = max(last.get(s, -1), k if fresh else max(k, last.get(out, k)))
    owned = {out for kernel, ins, out, op in steps if op_def(op.type).fresh
             and out in tensors and tensors[out].ndim and out not in keep}
    donated = []
    for k, (kernel, ins, out, op) in enumerate(steps):
        d = op_def(op.type)
        i = d.inplace_input
        if d.inplace is not None and len(ins) > i and ins[i] in owned and last[ins[i]] == k:
            kernel = make_inplace_kernel(op, session)
        donated.append((kernel, ins, out, op))
    return donated
