"""The session's one timing channel (client/step_stats.report_activities) and add_allreduce_callback on it."""
import gc
import types

import numpy as np

import trainer as tg
from trainer.client.step_stats import ACTIVITY_LISTENERS, report_activities
from trainer.framework.registry import apply_op, register
from trainer.parallel.activities import on_allreduce

NAMES = ["g"]  # the list a GradientAverager reports as its tensors
SPANS = [("MEMCPY_IN_FUSION_BUFFER", 1.0, 1.5), ("RING_ALLREDUCE", 1.5, 3.0), ("MEMCPY_OUT_FUSION_BUFFER", 3.0, 3.25)]


def _reporting_kernel(x):
    report_activities("ALLREDUCE", NAMES, SPANS, dtype="float64")
    return x


register("TestReportsActivities", _reporting_kernel)


class Optimizer:
    """Stands in for a DistributedOptimizer: `averager` is None until compute_gradients."""
    averager = None


def test_a_report_reaches_the_listeners_and_the_traced_run():
    heard = []
    listener = lambda *told: heard.append(told)  # noqa: E731
    with tg.Graph().as_default():
        out = apply_op("TestReportsActivities", [tg.constant(np.ones(2))], name="reporter")
        with tg.Session() as sess:
            ACTIVITY_LISTENERS.append(listener)
            try:
                sess.run(out)
                metadata = tg.RunMetadata()
                sess.run(out, options=tg.RunOptions(trace_level=tg.RunOptions.FULL_TRACE), run_metadata=metadata)
            finally:
                ACTIVITY_LISTENERS.remove(listener)
    assert heard == [("ALLREDUCE", NAMES, SPANS, {"dtype": "float64"})] * 2  # traced or not
    nodes = [n.node_name for n in metadata.step_stats.dev_stats[0].node_stats]
    assert [n for n in nodes if n.startswith("reporter/")] == [f"reporter/{name}" for name, _, _ in SPANS]


def test_allreduce_callbacks_hear_their_own_averager_for_as_long_as_the_optimizer_lives():
    optimizer, told = Optimizer(), []
    before = len(ACTIVITY_LISTENERS)
    on_allreduce(optimizer, lambda start, end: told.append((start, end)))
    report_activities("ALLREDUCE", NAMES, SPANS)  # before compute_gradients: no averager yet
    optimizer.averager = types.SimpleNamespace(names=NAMES)
    report_activities("ALLREDUCE", list(NAMES), SPANS)  # another averager's gradients of the same names
    report_activities("ALLREDUCE", NAMES, SPANS)
    assert told == [(1.0, 3.25)]
    del optimizer
    gc.collect()
    report_activities("ALLREDUCE", NAMES, SPANS)
    assert told == [(1.0, 3.25)] and len(ACTIVITY_LISTENERS) == before
