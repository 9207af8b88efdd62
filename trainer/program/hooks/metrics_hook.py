"""The metrics `ringflow train` reports: averaged over every rank's samples, during training and at the end."""
import math

import numpy as np

from ...data import eval_batches
from ...train.session_run_hook import SessionRunHook
from ...train.training_util import get_global_step
from .step_hook import EveryNSteps, StepHook

EVAL_BATCH = 1024  # rows per evaluation run: bounds the activations' memory whatever the dataset's size


class MetricMeter:
    """Shard-size-weighted sums of metrics on this rank, averaged over every rank on demand."""

    def __init__(self, names, communicator):
        self.names, self.communicator = list(names), communicator
        self.sums = np.zeros(len(self.names) + 1)

    def add(self, values, count):
        if count:
            self.sums[:-1] += count * np.array([float(values[n]) for n in self.names])
            self.sums[-1] += count

    def average(self):
        """Means over every rank's samples since the last call (collective)."""
        total = self.communicator.allreduce(self.sums, op="sum") if self.communicator.size > 1 else self.sums
        self.sums = np.zeros_like(self.sums)
        return {n: float(v) / float(total[-1]) for n, v in zip(self.names, total[:-1])} if total[-1] else {}


class MetricsHook(StepHook):
    """Fetches `metrics` (name -> Tensor) with every step; every `every` steps and at `last_step` it averages
    them over all ranks (a collective, at the same steps on every rank) and hands them to each reporter's
    report(step, metrics). `shard_size` is this rank's samples per step; `summarize` post-processes the
    averages (the model's own, e.g. micro-F1 from counts). `every=None` means ten reports over the run."""

    def __init__(self, metrics, communicator, shard_size, last_step, every=None, summarize=dict, reporters=()):
        self.metrics, self.shard_size, self.last_step = metrics, shard_size, last_step
        self.every, self.summarize, self.reporters = every, summarize, list(reporters)
        self.meter = MetricMeter(metrics, communicator)

    def after_create_session(self, session, coord):
        super().after_create_session(session, coord)
        every = self.every or max(1, (self.last_step - self.step) // 10)
        self._period = EveryNSteps(every, self.step, last=self.last_step)

    def add(self, values, count):
        """Count metric values of `count` samples run outside this hook's runs (the other passes of a step)."""
        self.meter.add(values, count)

    def fetches(self):
        return self.metrics

    def after_step(self, run_context, results):
        self.meter.add(results, self.shard_size)
        if self._period(self.step):
            metrics = self.summarize(self.meter.average())
            for reporter in self.reporters:
                reporter.report(self.step, metrics)


class FinalMetricsHook(SessionRunHook):
    """At the end, the metrics over the whole training set (`arrays`, each rank evaluating its even share of
    it, fed to `inputs`); kept in `.metrics` and `.step` and handed to each reporter's report(..., final=True)."""

    def __init__(self, metrics, inputs, arrays, communicator, summarize=dict, reporters=()):
        self.metrics_tensors, self.inputs, self.arrays = metrics, tuple(inputs), tuple(arrays)
        self.communicator, self.summarize, self.reporters = communicator, summarize, list(reporters)
        self.metrics, self.step = None, None

    def begin(self):
        self._global_step = get_global_step()

    def end(self, session):
        meter = MetricMeter(self.metrics_tensors, self.communicator)
        for batch in eval_batches(self.arrays, EVAL_BATCH, self.communicator.rank, self.communicator.size):
            meter.add(session.run(self.metrics_tensors, dict(zip(self.inputs, batch))), len(batch[0]))
        self.metrics = self.summarize(meter.average())
        self.step = int(session.run(self._global_step))
        for reporter in self.reporters:
            reporter.report(self.step, self.metrics, final=True)


def strict_json(value):
    """`value` with every NaN or inf float replaced by None, so json.dump(..., allow_nan=False) writes strict JSON
    (a diverged loss is null: JSON has no NaN, and parsers other than Python's reject the bare word)."""
    if isinstance(value, dict):
        return {k: strict_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [strict_json(v) for v in value]
    if isinstance(value, (float, np.floating)):
        return float(value) if math.isfinite(value) else None
    return value
