"""The step-driven hooks act at the global step they read, never at a count of their own runs: each is checked
in a session whose global step is restored to 100 after the hook started (as a restore listed after it does),
so a hook that counted its runs would act at steps 1, 2, ... instead of 101, 102, ..."""
import json
import os
import signal

import numpy as np
import pytest

import allreduce
import trainer as tg
from trainer.data import Pipeline
from trainer.program import CheckpointHook, MetricsHook, StopAtStepHook, StopOnSignalHook, TimelineHook
from trainer.program.hooks.step_hook import EveryNSteps, StepHook

RESTORED = 100


class RestoredAt(tg.train.SessionRunHook):
    """Sets the global step to `step` when the session is created, as a restore does."""

    def __init__(self, step):
        self.step = step

    def begin(self):
        self._global_step = tg.train.get_global_step()

    def after_create_session(self, session, coord):
        self._global_step.load(self.step, session)


def train(hooks, runs, feed=None):
    """`runs` steps (fewer if a hook stops first) of a graph whose train op advances the global step; `feed`:
    the placeholder fed with each step's index, or None."""
    graph = tg.Graph()
    with graph.as_default():
        global_step = tg.train.get_or_create_global_step()
        w = tg.get_variable("w", [2], tg.float64, initializer=tg.zeros_initializer())
        train_op = tg.train.GradientDescentOptimizer(0.5).minimize(tg.reduce_sum(w), global_step=global_step)
        made = [hook(graph) for hook in hooks]
        with tg.train.MonitoredSession(hooks=made + [RestoredAt(RESTORED)]) as sess:
            for _ in range(runs):
                if sess.should_stop():
                    break
                sess.run(train_op)
    return made


def communicator():
    return allreduce.create_communicator("ring")


def test_every_n_steps_is_due_once_at_each_multiple_and_at_the_last_step():
    period = EveryNSteps(3, 100, last=104)
    assert [period(step) for step in (101, 102, 102, 103, 104, 105, 106)] == [False, True, False, False, True,
                                                                               True, False]
    no_period = EveryNSteps(None, 0)
    assert not any(no_period(step) for step in range(5))


def test_a_step_hook_needs_a_global_step():
    with tg.Graph().as_default(), pytest.raises(ValueError, match="get_or_create_global_step"):
        StepHook().begin()


def test_checkpoints_are_saved_at_the_restored_global_steps(tmp_path):
    def hook(graph):
        return CheckpointHook(communicator(), str(tmp_path), tg.train.Saver(max_to_keep=5, save_format="npz"),
                              Pipeline((np.arange(10.0),), batch_size=2), every_steps=3)
    train([hook], 4)
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "model.ckpt-102.meta", "model.ckpt-102.npz",
                                            "model.ckpt-104.meta", "model.ckpt-104.npz"]


def test_metrics_are_reported_at_the_restored_global_steps():
    reports = []

    class Reporter:
        def report(self, step, metrics, final=False):
            reports.append(step)

    def hook(graph):
        return MetricsHook({"one": tg.constant(1.0)}, communicator(), 1, RESTORED + 5, 2, reporters=[Reporter()])
    train([hook, lambda graph: StopAtStepHook(last_step=RESTORED + 5)], 10)
    assert reports == [102, 104, 105]


def test_timeline_steps_are_the_restored_global_steps(tmp_path):
    path = str(tmp_path / "timeline.json")
    train([lambda graph: TimelineHook(path, communicator(), optimizer=None)], 3)
    with open(path) as f:
        events = json.load(f)["traceEvents"]
    assert sorted(e["args"]["step"] for e in events if e["ph"] == "X") == [101, 102, 103]


def test_a_signal_stops_at_the_restored_global_step():
    class SignalFirst(tg.train.SessionRunHook):
        def before_run(self, run_context):
            if not signalled:
                signalled.append(os.kill(os.getpid(), signal.SIGTERM))

    signalled = []
    stopper, _ = train([lambda graph: StopOnSignalHook(communicator()), lambda graph: SignalFirst()], 5)
    assert stopper.stopped == signal.SIGTERM and stopper.step == RESTORED + 1
