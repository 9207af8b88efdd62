"""How long the steps of `ringflow train` take, and how much of that is the gradients' allreduce."""
import time

import numpy as np

from ...train.session_run_hook import SessionRunHook


class TimingHook(SessionRunHook):
    """Times each run (from this hook's before_run to its after_run: list it first, so the other hooks'
    before_run is inside) and the allreduce inside it, told by DistributedOptimizer's allreduce callback.
    `batch_size` is the samples of one step over all ranks (what examples/sec counts)."""

    def __init__(self, optimizer, batch_size):
        self.batch_size = batch_size
        self.step_seconds, self.comm_seconds = [], []
        self.ends = []  # perf_counter() at the end of each step: the wall clock that rates() divides by
        self.started = time.perf_counter()
        self._comm = 0.0
        if hasattr(optimizer, "add_allreduce_callback"):  # a plain optimizer communicates nothing
            optimizer.add_allreduce_callback(self._allreduce)

    def after_create_session(self, session, coord):
        self.started = time.perf_counter()

    def _allreduce(self, start, end):
        self._comm += end - start

    def before_run(self, run_context):
        self._comm = 0.0
        self._start = time.perf_counter()

    def after_run(self, run_context, run_values):
        self.ends.append(time.perf_counter())
        self.step_seconds.append(self.ends[-1] - self._start)
        self.comm_seconds.append(self._comm)

    def rates(self, steps):
        """Over the last `steps` steps: global_step/sec and examples/sec by the wall clock from the end of the
        step before them (or the session's start), as TF1's StepCounterHook counts, and allreduce_fraction,
        the share of those steps' time spent in the gradients' allreduce."""
        steps = min(steps, len(self.ends))
        if steps <= 0:
            return {}
        since = self.ends[-steps - 1] if steps < len(self.ends) else self.started
        wall, busy = self.ends[-1] - since, sum(self.step_seconds[-steps:])
        return {"global_step/sec": steps / wall if wall > 0 else 0.0,
                "examples/sec": steps * self.batch_size / wall if wall > 0 else 0.0,
                "allreduce_fraction": sum(self.comm_seconds[-steps:]) / busy if busy > 0 else 0.0}

    def summary(self):
        """Timing of the steps run; the first (it compiles the plans) is left out when there are others."""
        skip = 1 if len(self.step_seconds) > 1 else 0
        steps, comms = self.step_seconds[skip:], self.comm_seconds[skip:]
        seconds, comm = sum(steps), sum(comms)
        return {"train_seconds": float(sum(self.step_seconds)),
                "samples_per_sec": len(steps) * self.batch_size / seconds if seconds else 0.0,
                "allreduce_fraction": comm / seconds if seconds else 0.0,
                # medians resist a noisy machine better than totals
                "step_ms_median": float(np.median(steps) * 1e3) if steps else 0.0,
                "allreduce_ms_median": float(np.median(comms) * 1e3) if comms else 0.0}
