"""Where a ringflow step's time goes: its plan's kernels timed one at a time, summed by op type.

The step is the plan Session.run would build for (fetch, feed keys) (Session.plan, whose `steps` are
(kernel, input slots, output slot, op)); it is replayed here with a clock around each kernel, so the sum is
the kernels' own time and the rest of a real step is the executor's.
"""
import time

import numpy as np




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
    runs = []
    for _ in range(repeats + 1):  # the first run warms up caches
        env = plan.template[:]
        for i, (check, value) in enumerate(zip(plan.feed_checks, feed.values())):
            env[i] = check(value)
        spent = {}
        for kernel, ins, out, op in plan.steps:
            start = clock()
            env[out] = kernel(*[env[i] for i in ins])
            sync()
            spent[op.type] = spent.get(op.type, 0.0) + clock() - start
        runs.append(spent)
    calls = {}
    for kernel, ins, out, op in plan.steps:
        calls[op.type] = calls.get(op.type, 0) + 1
    by_type = {t: (calls[t], float(np.median([r[t] for r in runs[1:]]))) for t in calls}
    return Profile(len(plan.steps), by_type)
