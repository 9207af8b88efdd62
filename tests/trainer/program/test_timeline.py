import json

import numpy as np
import pytest

from trainer.program.timeline import KINDS, Timeline, trace_events

STEP, ALLREDUCE = KINDS.index("step"), KINDS.index("allreduce")


def test_steps_split_into_compute_and_allreduce():
    spans = np.array([[STEP, 0.0, 1.0, 1], [ALLREDUCE, 0.6, 0.8, 1], [STEP, 1.0, 1.5, 2]])
    events = [e for e in trace_events([spans, spans[spans[:, 0] == STEP]]) if e["ph"] == "X"]
    rank0 = [(e["name"], e["ts"], e["dur"]) for e in events if e["pid"] == 0]
    assert [n for n, _, _ in rank0] == ["compute", "allreduce", "compute", "compute"]
    assert [t for _, t, _ in rank0] == pytest.approx([0.0, 0.6e6, 0.8e6, 1.0e6])
    assert [d for _, _, d in rank0] == pytest.approx([0.6e6, 0.2e6, 0.2e6, 0.5e6])
    for rank in (0, 1):  # every step's pieces add up to the step
        assert sum(e["dur"] for e in events if e["pid"] == rank) == pytest.approx(1.5e6)
    assert {e["args"]["step"] for e in events} == {1, 2}


def test_write_is_chrome_trace_json(tmp_path):
    t = Timeline()
    t.start()
    t.record("step", t.t0, t.t0 + 0.01, 1)
    t.write(str(tmp_path / "t.json"), [np.array(t.spans, dtype=float)])
    trace = json.loads((tmp_path / "t.json").read_text())
    names = [e["name"] for e in trace["traceEvents"]]
    assert names == ["process_name", "compute"] and trace["traceEvents"][0]["args"]["name"] == "rank 0"
