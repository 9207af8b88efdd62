"""tf.train.ProfilerHook: every N steps one traced step, written as TF1's timeline-<step>.json Chrome trace."""
import json

import numpy as np

import trainer as tg
from tests.test_tf1_programs import read_events


def test_profiler_hook_writes_a_timeline_every_n_steps(tmp_path):
    with tg.Graph().as_default():
        w = tg.Variable(np.ones(3, np.float32), name="w")
        loss = tg.reduce_sum(tg.square(w))
        step = tg.train.get_or_create_global_step()
        train = tg.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step)
        hook = tg.train.ProfilerHook(save_steps=2, output_dir=str(tmp_path))
        with tg.train.MonitoredTrainingSession(hooks=[hook], save_summaries_steps=None,
                                               save_checkpoint_secs=None) as sess:
            for _ in range(5):
                sess.run(train)
    # run 1 starts the timer; runs at global steps 2 and 4 are traced (TF1's schedule)
    assert sorted(p.name for p in tmp_path.glob("timeline-*.json")) == ["timeline-2.json", "timeline-4.json"]
    events = json.loads((tmp_path / "timeline-4.json").read_text())["traceEvents"]
    ops = {e["args"]["name"]: e["name"] for e in events if e["ph"] == "X"}
    assert ops["GradientDescent/update_w/ApplyGradientDescent"] == "ApplyGradientDescent"
    assert not any(e["ph"] == "C" for e in events)  # show_memory=False
    tg.summary.FileWriterCache.clear()  # flushes the writer the hook took from the cache
    tags = [e.tagged_run_metadata.tag for e in read_events(tmp_path) if e.tagged_run_metadata.tag]
    assert tags == ["step_2", "step_4"]
