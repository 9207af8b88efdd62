"""--logdir: event files TensorBoard can open while the run goes on, read back with tensorboardX's protobufs
(and TensorBoard's own reader where it is installed)."""
import os
import struct

import pytest

import trainer as tg
from trainer.program import ScalarSummaryHook, StopAtStepHook, TimingHook

from tests.trainer.program.test_cli import SMALL, ringflow

event_pb2 = pytest.importorskip("tensorboardX.proto.event_pb2")
graph_pb2 = pytest.importorskip("tensorboardX.proto.graph_pb2")


def events(path):
    """Every Event of one event file, decoded by tensorboardX (not by ringflow's own reader)."""
    raw, pos, found = open(path, "rb").read(), 0, []
    while pos < len(raw):
        (length,) = struct.unpack("<Q", raw[pos:pos + 8])
        found.append(event_pb2.Event.FromString(raw[pos + 12:pos + 12 + length]))
        pos += 12 + length + 4
    return found


def event_files(logdir):
    return sorted(os.path.join(logdir, n) for n in os.listdir(logdir) if n.startswith("events.out.tfevents"))


def scalars(found):
    return {(v.tag, e.step): v.simple_value for e in found for v in e.summary.value if v.WhichOneof("value") ==
            "simple_value"}


def test_each_report_is_on_disk_before_the_run_ends(tmp_path):
    seen = []

    class Peek(tg.train.SessionRunHook):  # a reporter listed after the summary hook: reads the file as it stands
        def report(self, step, metrics, final=False):
            (path,) = event_files(tmp_path)
            seen.append((step, scalars(events(path))))
    graph = tg.Graph()
    with graph.as_default():
        step = tg.train.get_or_create_global_step().assign_add(1)
        timing = TimingHook(None, batch_size=8)
        summaries = ScalarSummaryHook(str(tmp_path), timing)
        reporters = [summaries, Peek()]
        with tg.train.MonitoredSession(hooks=[timing, StopAtStepHook(4), summaries]) as sess:
            while not sess.should_stop():
                value = int(sess.run(step))
                if value % 2 == 0:
                    for reporter in reporters:
                        reporter.report(value, {"loss": 1.0 / value})
            assert [s for s, _ in seen] == [2, 4]
            assert seen[0][1][("train/loss", 2)] == 0.5 and ("train/loss", 4) not in seen[0][1]
            assert seen[1][1][("train/loss", 4)] == 0.25
            assert seen[0][1][("global_step/sec", 2)] > 0 and seen[0][1][("examples/sec", 2)] > 0
            assert seen[0][1][("allreduce_fraction", 2)] == 0.0  # nothing was communicated
    (path,) = event_files(tmp_path)
    found = events(path)
    graphs = [e for e in found if e.graph_def]
    assert len(graphs) == 1 and "global_step" in {n.name for n in graph_pb2.GraphDef.FromString(
        graphs[0].graph_def).node}
    starts = [e.step for e in found if e.session_log.status == event_pb2.SessionLog.START]
    assert starts == [1]


def test_the_cli_writes_rates_a_final_table_and_nothing_twice(tmp_path):
    tb, ckpt = tmp_path / "tb", tmp_path / "c"
    first = ringflow("train", *SMALL, "--steps", 10, "--log-every", 5, "--logdir", tb, "--checkpoint-dir", ckpt)
    assert first.returncode == 0, first.stderr
    (path,) = event_files(tb)
    found = events(path)
    values = scalars(found)
    for tag in ("train/loss", "train/accuracy", "global_step/sec", "examples/sec", "allreduce_fraction"):
        assert (tag, 5) in values and (tag, 10) in values, tag
    assert values[("examples/sec", 5)] == pytest.approx(32 * values[("global_step/sec", 5)])
    assert not [tag for tag, _ in values if tag.startswith("final")]  # no two-point lines
    (text,) = [v for e in found for v in e.summary.value if v.tag == "final_metrics"]
    assert text.metadata.plugin_data.plugin_name == "text"
    table = text.tensor.string_val[0].decode()
    assert "| metric | value |" in table and "| loss |" in table and "step 10" in table
    assert sum(1 for e in found if e.graph_def) == 1

    resumed = ringflow("train", *SMALL, "--steps", 15, "--log-every", 5, "--logdir", tb, "--checkpoint-dir", ckpt)
    assert resumed.returncode == 0, resumed.stderr
    assert len(event_files(tb)) == 2
    second = events(event_files(tb)[1])
    assert [e.step for e in second if e.session_log.status == event_pb2.SessionLog.START] == [11]
    assert set(scalars(second)) & set(values) == set() and ("train/loss", 15) in scalars(second)

    again = ringflow("train", *SMALL, "--steps", 15, "--logdir", tb, "--checkpoint-dir", ckpt)
    assert again.returncode == 0, again.stderr
    assert len(event_files(tb)) == 2  # a run with nothing to do writes no event file at all


def test_tensorboard_drops_the_points_a_crashed_run_left_past_its_checkpoint(tmp_path):
    accumulator = pytest.importorskip("tensorboard.backend.event_processing.event_accumulator")
    tb, ckpt = tmp_path / "tb", tmp_path / "c"
    args = ["train", *SMALL, "--log-every", 5, "--logdir", tb, "--checkpoint-dir", ckpt]
    assert ringflow(*args, "--steps", 10, "--checkpoint-every-steps", 5).returncode == 0
    newest = ckpt / "model.ckpt-10.npz"
    newest.write_bytes(newest.read_bytes()[:-100])  # as if the run had died before its last checkpoint
    assert ringflow(*args, "--steps", 10).returncode == 0  # trains steps 6..10 again
    tensorboard = accumulator.EventAccumulator(str(tb))
    tensorboard.Reload()
    assert [e.step for e in tensorboard.Scalars("train/loss")] == [5, 10]
    assert "global_step/sec" in tensorboard.Tags()["scalars"] and tensorboard.Graph().node
    assert tensorboard.Tags()["tensors"] == ["final_metrics"]
