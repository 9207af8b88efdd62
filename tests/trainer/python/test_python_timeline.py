"""Traced Session.run fills RunMetadata.step_stats; tensorflow.python.client.timeline makes TF1's Chrome trace of it
(checked on traced runs and, for lanes, flows and memory counters, on step stats written out by hand)."""
import json

import numpy as np
import pytest

import trainer as tg
from trainer.client.config import StepStats
from trainer.python.client import timeline

FULL = tg.RunOptions(trace_level=tg.RunOptions.FULL_TRACE)


def _traced_run():
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [3], name="x")
        y = tg.reduce_sum(tg.square(x, name="sq"), name="total")
        top = tg.nn.top_k(x, 2, name="top")  # two outputs
        metadata = tg.RunMetadata()
        with tg.Session() as sess:
            untraced = tg.RunMetadata()
            sess.run(y, {x: [1.0, 2.0, 3.0]}, run_metadata=untraced)
            assert untraced.step_stats.dev_stats == []  # no trace asked for
            value, _ = sess.run([y, top], {x: [1.0, 2.0, 3.0]}, options=FULL, run_metadata=metadata)
    assert value == pytest.approx(14.0)
    return metadata


def test_traced_run_fills_step_stats_as_tf1():
    metadata = _traced_run()
    (device,) = metadata.step_stats.dev_stats
    assert device.device == "/job:localhost/replica:0/task:0/device:CPU:0"
    nodes = {n.node_name: n for n in device.node_stats}
    assert set(nodes) == {"sq", "total", "top"}
    assert nodes["sq"].timeline_label == "sq = Square(x)"
    assert nodes["total"].timeline_label == "total = Sum(sq)"
    (out,) = nodes["sq"].output
    assert out.slot == 0 and [d.size for d in out.tensor_description.shape.dim] == [3]
    assert out.tensor_description.dtype == tg.float32.as_datatype_enum
    assert out.tensor_description.allocation_description.requested_bytes == 12
    assert [o.slot for o in nodes["top"].output] == [0, 1]  # values and indices
    starts = [n.all_start_micros for n in device.node_stats]
    assert starts == sorted(starts) and all(n.all_end_rel_micros >= 0 for n in device.node_stats)
    assert abs(starts[0] / 1e6 - __import__("time").time()) < 60  # microseconds since the epoch


def test_chrome_trace_of_a_traced_run_is_tf1s_json():
    metadata = _traced_run()
    trace = json.loads(timeline.Timeline(metadata.step_stats).generate_chrome_trace_format())
    events = trace["traceEvents"]
    processes = {e["pid"]: e["args"]["name"] for e in events if e["ph"] == "M"}
    device = "/job:localhost/replica:0/task:0/device:CPU:0"
    assert processes == {0: "Allocators", 1: f"{device} Compute", 2: f"{device} Tensors"}
    ops = {e["args"]["name"]: e for e in events if e["ph"] == "X"}
    assert set(ops) == {"sq", "total", "top"}
    assert ops["sq"]["name"] == "Square" and ops["sq"]["cat"] == "Op" and ops["sq"]["args"]["input0"] == "x"
    assert all(e["pid"] == 1 and e["dur"] >= 0 for e in ops.values())
    assert not any(e["ph"] in "CNOD" for e in events)  # show_memory=False


def _stats(nodes):
    """StepStats of one device from (name, start, duration, label, [output bytes])."""
    stats = StepStats()
    device = stats.dev_stats.add(device="/cpu:0")
    for name, start, duration, label, outputs in nodes:
        node = device.node_stats.add(node_name=name, all_start_micros=start, all_end_rel_micros=duration,
                                     timeline_label=label)
        for nbytes in outputs:
            out = node.output.add(slot=len(node.output))
            out.tensor_description.allocation_description.requested_bytes = nbytes
            out.tensor_description.allocation_description.allocator_name = "cpu"
    return stats


def test_overlapping_ops_get_lanes_and_flows_link_them():
    stats = _stats([("a", 10, 5, "a = Const()", [100]),
                    ("b", 12, 10, "b = Neg(a)", [40]),        # starts while a runs: a second lane
                    ("c", 30, 2, "c = Add(a, b, ^a)", [8])])  # lane 0 again; reads b from lane 1
    trace = json.loads(timeline.Timeline(stats).generate_chrome_trace_format(show_dataflow=True))
    ops = {e["args"]["name"]: e for e in trace["traceEvents"] if e["ph"] == "X"}
    assert [ops[n]["tid"] for n in "abc"] == [0, 1, 0]
    assert ops["c"]["args"] == {"name": "c", "op": "Add", "input0": "a", "input1": "b", "input2": "^a"}
    flows = [(e["ph"], e["name"], e["tid"], e["ts"], e["id"]) for e in trace["traceEvents"]
             if e.get("cat") == "DataFlow"]
    # a -> b crosses lanes (from a's end), b -> c too; a -> c stays on lane 0: no arrow
    assert flows == [("s", "a", 0, 15, 0), ("t", "a", 1, 12, 0), ("s", "b", 1, 22, 1), ("t", "b", 0, 30, 1)]
    quiet = json.loads(timeline.Timeline(stats).generate_chrome_trace_format(show_dataflow=False))
    assert not any(e.get("cat") == "DataFlow" for e in quiet["traceEvents"])


def test_memory_counters_add_up_live_tensors():
    stats = _stats([("a", 0, 10, "a = Const()", [100]),
                    ("b", 20, 10, "b = Neg(a)", [40]),
                    ("c", 40, 10, "c = Neg(b)", [8])])
    analysis = timeline.Timeline(stats).analyze_step_stats(show_memory=True)
    events = analysis.chrome_trace.events
    counters = [(e["ts"], e["args"]["cpu"]) for e in events if e["ph"] == "C"]
    # a lives [0, 29] (last read by b, which ends at 30), b [20, 49], c [40, 50]
    assert counters == [(0, 100), (20, 140), (29, 40), (40, 48), (49, 8), (50, 0)]
    assert analysis.allocator_maximums["cpu"].num_bytes == 140
    assert analysis.allocator_maximums["cpu"].tensors == {"a", "b"}
    assert sorted(e["name"] for e in events if e["ph"] == "D") == ["a", "b", "c"]
    assert all(e["pid"] == 2 for e in events if e["ph"] in "NOD")  # the device's Tensors process


def test_unparseable_labels_and_bad_op_time():
    assert timeline.parse_op_label("whatever") == ("unknown", "unknown", [])
    assert timeline.parse_op_label("n = NoOp()") == ("n", "NoOp", [])
    with pytest.raises(ValueError, match="op_time"):
        timeline.Timeline(StepStats()).analyze_step_stats(op_time="wall")
    assert np.isclose(len(json.loads(timeline.Timeline(StepStats()).generate_chrome_trace_format())
                          ["traceEvents"]), 1)  # only the Allocators process


def test_the_chrome_trace_writer_as_one_object_or_streamed():
    trace = timeline.ChromeTrace()
    trace.process(1, "grad", sort_index=1)
    trace.event("B", None, "ALLREDUCE", 1, 0, 0.5)
    trace.event("X", "Op", "MatMul", 1, 0, 1.0, dur=2)
    whole = json.loads(trace.format_to_string(displayTimeUnit="ms"))
    assert whole["displayTimeUnit"] == "ms" and [e["ph"] for e in whole["traceEvents"]] == ["M", "M", "B", "X"]
    assert "cat" not in whole["traceEvents"][2] and whole["traceEvents"][3]["cat"] == "Op"
    streamed = [json.loads(text) for text in trace.drain()]
    assert streamed == whole["traceEvents"] and trace.drain() == []
    trace.event("E", None, "ALLREDUCE", 1, 0, 3.0)
    assert [json.loads(text)["ph"] for text in trace.drain()] == ["E"]
