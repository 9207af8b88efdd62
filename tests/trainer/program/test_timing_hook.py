"""TimingHook: step and allreduce times from DistributedOptimizer's public allreduce callback."""
import pytest

import trainer as tg
from trainer.program import StopAtStepHook, TimingHook


class Optimizer:
    """Stands in for DistributedOptimizer: keeps the callbacks its allreduce would call."""

    def __init__(self):
        self.callbacks = []

    def add_allreduce_callback(self, callback):
        self.callbacks.append(callback)


class Allreduce(tg.train.SessionRunHook):
    """Reports one allreduce of the given length inside each step (the timing hook's clock is running)."""

    def __init__(self, optimizer, seconds):
        self.optimizer, self.seconds = optimizer, list(seconds)

    def before_run(self, run_context):
        for callback in self.optimizer.callbacks:
            callback(10.0, 10.0 + self.seconds.pop(0))


def test_allreduce_seconds_per_step_and_the_first_step_left_out():
    optimizer = Optimizer()
    timing = TimingHook(optimizer, batch_size=8)
    graph = tg.Graph()
    with graph.as_default():
        step = tg.train.get_or_create_global_step().assign_add(1)
        with tg.train.MonitoredSession(hooks=[timing, StopAtStepHook(3), Allreduce(optimizer, [1.0, 0.25, 0.5])]) as s:
            while not s.should_stop():
                s.run(step)
    summary = timing.summary()
    assert summary["allreduce_ms_median"] == pytest.approx(375.0)  # steps 2 and 3: the first compiles plans
    assert 0 < summary["step_ms_median"] < 1000 and summary["train_seconds"] > 0
    measured = summary["samples_per_sec"] and 2 * 8 / summary["samples_per_sec"]  # the two timed steps' seconds
    assert summary["allreduce_fraction"] == pytest.approx(0.75 / measured)


def test_a_plain_optimizer_communicates_nothing():
    timing = TimingHook(tg.train.GradientDescentOptimizer(0.1), batch_size=4)
    assert timing.summary()["allreduce_fraction"] == 0.0 and timing.summary()["step_ms_median"] == 0.0
