"""tf.train.ProfilerHook: every N steps one traced step, written as TF1's timeline-<step>.json Chrome trace."""
import json

import numpy as np

import allreduce
import trainer as tg
import trainer.horovod as hvd
from trainer.python.client import timeline
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


def test_a_collective_shows_its_communication_on_a_lane_beside_its_op(tmp_path):
    hvd.shutdown()
    hvd.init(allreduce.create_communicator("ring"))
    try:
        with tg.Graph().as_default():
            x = tg.Variable(np.ones(5), name="x")
            reduced = hvd.allreduce(x * 2.0, name="explicit")
            options, metadata = tg.RunOptions(trace_level=tg.RunOptions.FULL_TRACE), tg.RunMetadata()
            with tg.Session() as sess:
                sess.run(x.initializer)
                sess.run(reduced, options=options, run_metadata=metadata)
                untraced = tg.RunMetadata()
                sess.run(reduced, run_metadata=untraced)  # no trace asked: nothing recorded
    finally:
        hvd.shutdown()
    names = [n.node_name for n in metadata.step_stats.dev_stats[0].node_stats]
    assert names[-2:] == ["explicit", "explicit/RING_ALLREDUCE"]  # the span right after the op that ran it
    assert not untraced.step_stats.dev_stats
    trace = json.loads(timeline.Timeline(metadata.step_stats).generate_chrome_trace_format())
    ops = {e["args"]["name"]: e for e in trace["traceEvents"] if e["ph"] == "X"}
    op, span = ops["explicit"], ops["explicit/RING_ALLREDUCE"]
    assert (op["name"], span["name"]) == ("HorovodAllreduce", "RING_ALLREDUCE") and span["tid"] != op["tid"]
    assert op["ts"] <= span["ts"] and span["ts"] + span["dur"] <= op["ts"] + op["dur"] + 1
