"""How long the steps of `ringflow train` take, and how much of that is the gradients' allreduce."""
import time

import numpy as np

from ...train.session_run_hook import SessionRunHook


class TimingHook(SessionRunHook):
    """Times each run (from this hook's before_run to its after_run: list it first, so the other hooks'
    before_run is inside) and the allreduce inside it, told by DistributedOptimizer's allreduce callback."""

    def __init__(self, optimizer, batch_size):
        self.batch_size = batch_size
        self.step_seconds, self.comm_seconds = [], []
        self._comm = 0.0
        if hasattr(optimizer, "add_allreduce_callback"):  # a plain optimizer communicates nothing
            optimizer.add_allreduce_callback(self._allreduce)

    def _allreduce(self, start, end):
        self._comm += end - start

    def before_run(self, run_context):
        self._comm = 0.0
        self._start = time.perf_counter()

    def after_run(self, run_context, run_values):
        self.step_seconds.append(time.perf_counter() - self._start)
        self.comm_seconds.append(self._comm)

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
