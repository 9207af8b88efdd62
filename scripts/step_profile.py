"""Where a ringflow step's time goes: its plan's kernels timed one at a time, summed by op type.

The step is the plan Session.run would build for (fetch, feed keys) (Session.plan, whose `op_steps` are
(kernel, input slots, output slot, op), one per op); it is replayed here with a clock around each kernel, so the
sum is the kernels' own time and the rest of a real step is the executor's. `executor_cost` measures that rest: a
session's run of a plan against a bare replay of the steps it runs (`steps`: a fused step runs several ops'
kernels, client/fusion.py), per step. Steps the plan folds (client/shape_folding.py: they run once per feed shape)
run for their values but are neither timed nor counted.
"""
import time

import numpy as np

import trainer as tg

TRIVIAL_OPS = (10, 410)  # chain lengths: the difference between them leaves Session.run's fixed cost out


class Profile:
    def __init__(self, kernels, by_type):
        self.kernels = kernels
        self.by_type = by_type  # op type: (calls per step, median seconds per step)

    def table(self, top=25):
        total = sum(s for _, s in self.by_type.values())
        rows = sorted(self.by_type.items(), key=lambda item: -item[1][1])[:top]
        lines = [f"{'op type':28} {'calls':>5} {'ms/step':>8} {'us/call':>8} {'share':>6}"]
        lines += [f"{name:28} {calls:5d} {s * 1e3:8.3f} {s * 1e6 / calls:8.1f} {s / total:6.1%}"
                  for name, (calls, s) in rows]
        lines.append(f"{'all kernels':28} {self.kernels:5d} {total * 1e3:8.3f}")
        return "\n".join(lines)


def kernel_profile(sess, fetch, feed, repeats=10, clock=time.perf_counter, sync=lambda: None):
    """Profile of the plan that runs `fetch` with `feed` (a dict of Tensor: value) in `sess`; `sync` waits for the
    device after each kernel (a GPU kernel's launch returns before it ends)."""
    plan = sess.plan([fetch], list(feed))
    folded = plan.folding.folded if plan.folding is not None else ()  # run once per feed shape, not every step
    runs = []
    for _ in range(repeats + 1):  # the first run warms up caches
        env = plan.template[:]
        for i, (check, value) in enumerate(zip(plan.feed_checks, feed.values())):
            env[i] = check(value)
        spent = {}
        for kernel, ins, out, op in plan.op_steps:
            start = clock()
            env[out] = kernel(*[env[i] for i in ins])
            sync()
            if op not in folded:
                spent[op.type] = spent.get(op.type, 0.0) + clock() - start
        runs.append(spent)
    calls = {}
    for kernel, ins, out, op in plan.op_steps:
        if op not in folded:
            calls[op.type] = calls.get(op.type, 0) + 1
    by_type = {t: (calls[t], float(np.median([r[t] for r in runs[1:]]))) for t in calls}
    return Profile(sum(calls.values()), by_type)


def replay(plan, feed_values):
    """A function calling `plan`'s kernels in a bare loop on the arguments they got in one run: their own time,
    with none of the executor's bookkeeping (the environment, feeds, fetches)."""
    env, calls = plan.template[:], []
    for i, (check, value) in enumerate(zip(plan.feed_checks, feed_values)):
        env[i] = check(value)
    folded = plan.folding.folded if plan.folding is not None else ()  # run once per feed shape, not every step
    for kernel, ins, out, op in plan.steps:
        args = tuple(env[i] for i in ins)
        env[out] = kernel(*args)
        if op not in folded:
            calls.append((kernel, args))

    def run():
        for kernel, args in calls:
            kernel(*args)
    return run


def _median_seconds(fns, repeats, inner, clock):
    """Median seconds per call of each function in `fns`, timed in turn, repeat by repeat."""
    times = [[] for _ in fns]
    for fn in fns:
        fn()
    for _ in range(repeats):
        for t, fn in zip(times, fns):
            start = clock()
            for _ in range(inner):
                fn()
            t.append((clock() - start) / inner)
    return [float(np.median(t)) for t in times]


def executor_cost(sess, fetch, feed, repeats=30, inner=20, clock=time.perf_counter):
    """(steps, seconds per Session.run, seconds per bare replay of its steps' kernels) for `fetch` with `feed`."""
    plan = sess.plan([fetch], list(feed))
    run, bare = _median_seconds([lambda: sess.run(fetch, feed), replay(plan, list(feed.values()))],
                                repeats, inner, clock)
    return len(plan.steps), run, bare


def trivial_op_cost(repeats=30, inner=20, clock=time.perf_counter):
    """The executor's microseconds per op, apart from the kernels: Session.run of chains of Identity ops (whose
    kernel returns its input) of two lengths, less a bare replay of their kernels, per op of the difference."""
    spent = []
    for n in TRIVIAL_OPS:
        with tg.Graph().as_default():
            x = tg.placeholder(tg.float32, [4], name="x")
            y = x
            for _ in range(n):
                y = tg.identity(y)
            sess = tg.Session()
            kernels, run, bare = executor_cost(sess, y.op, {x: np.ones(4, np.float32)}, repeats, inner, clock)
            spent.append((kernels, run - bare))
    (k0, s0), (k1, s1) = spent
    return (s1 - s0) / (k1 - k0) * 1e6
