"""MetricsHook and FinalMetricsHook: shard-weighted means, reported every K steps, at the end, to reporters."""
import numpy as np
import pytest

import allreduce
import trainer as tg
from trainer.program import FinalMetricsHook, MetricMeter, MetricsHook, StopAtStepHook


class Reporter:
    def __init__(self):
        self.reports = []

    def report(self, step, metrics, final=False):
        self.reports.append((step, metrics, final))


def run(batches, every, last_step, arrays=(np.ones(3),)):
    """Feed `batches` (one per step) to a graph whose metric is mean(x); the reports each hook made."""
    communicator = allreduce.create_communicator("ring")
    graph = tg.Graph()
    with graph.as_default():
        x = tg.placeholder(tg.float64, [None])
        metrics = {"mean": tg.reduce_mean(x), "max": tg.reduce_max(x)}
        step_op = tg.train.get_or_create_global_step().assign_add(1)
        reporter = Reporter()

        def summarize(m):
            return dict(m, double=2 * m["mean"])
        hooks = [StopAtStepHook(last_step),
                 MetricsHook(metrics, communicator, len(batches[0]), last_step, every, summarize, [reporter]),
                 FinalMetricsHook({"mean": metrics["mean"]}, [x], arrays, communicator, reporters=[reporter])]
        with tg.train.MonitoredSession(hooks=hooks) as sess:
            for batch in batches:
                if sess.should_stop():
                    break
                sess.run(step_op, {x: batch})
    return reporter.reports


def test_reports_every_k_steps_and_at_the_last_step_with_means_since_the_last_report():
    batches = [np.random.default_rng(s).standard_normal(4) for s in range(7)]
    arrays = (np.random.default_rng(9).standard_normal(2500),)  # more rows than one evaluation batch
    reports = run(batches, every=3, last_step=7, arrays=arrays)
    assert [(step, final) for step, _, final in reports] == [(3, False), (6, False), (7, False), (7, True)]
    for (step, metrics, _), chunk in zip(reports, [batches[0:3], batches[3:6], batches[6:7]]):
        assert metrics["mean"] == pytest.approx(np.mean(chunk), rel=1e-12)
        assert metrics["max"] == pytest.approx(np.mean([b.max() for b in chunk]), rel=1e-12)  # mean of per-step
        assert metrics["double"] == 2 * metrics["mean"]
    assert reports[-1][1] == {"mean": pytest.approx(arrays[0].mean(), rel=1e-12)}


def test_ten_reports_by_default():
    reports = run([np.ones(2)] * 20, every=None, last_step=20)
    assert [step for step, _, final in reports if not final] == list(range(2, 21, 2))


def test_meter_weights_by_count_and_restarts_after_each_average():
    meter = MetricMeter(["loss"], allreduce.create_communicator("ring"))
    meter.add({"loss": 1.0}, 3)
    meter.add({"loss": 5.0}, 1)
    meter.add({"loss": 100.0}, 0)  # an empty shard counts for nothing
    assert meter.average() == {"loss": 2.0}
    assert meter.average() == {}
