"""Horovod's timeline on one rank: hvd.start_timeline / HOROVOD_TIMELINE write a Chrome trace of the collectives."""
import json
import os
import subprocess
import sys

import allreduce
import trainer as tg
import trainer.horovod as hvd

from tests.trainer.program.test_cli import ROOT

PROGRAM = """
import numpy as np, trainer as tg, trainer.horovod as hvd
hvd.init()
x = tg.constant(np.arange(3.0))
ops = [hvd.allreduce(x, name="summed", op=hvd.Sum), hvd.broadcast(x, 0, name="sent")]
with tg.Session() as sess:
    for _ in range(2):
        sess.run(ops)
"""


def test_start_timeline_records_each_collective_and_stop_closes_the_array(tmp_path):
    hvd.shutdown()
    hvd.init(allreduce.create_communicator("ring"))
    path = tmp_path / "timeline.json"
    try:
        hvd.start_timeline(str(path))
        with tg.Graph().as_default(), tg.Session() as sess:
            sess.run(hvd.allgather(tg.constant([[1.0, 2.0]]), name="gathered"))
            hvd.stop_timeline()
            sess.run(hvd.allgather(tg.constant([[1.0, 2.0]]), name="after"))  # not recorded
    finally:
        hvd.shutdown()
    events = json.loads(path.read_text())
    assert [e["args"]["name"] for e in events if e["name"] == "process_name"] == ["gathered"]
    assert [(e["name"], e["ph"]) for e in events if e["ph"] in "BE"] == [
        ("ALLGATHER", "B"), ("RING_ALLGATHER", "B"), ("RING_ALLGATHER", "E"), ("ALLGATHER", "E")]


def test_horovod_timeline_variable_is_honoured_by_init(tmp_path):
    path = tmp_path / "t.json"
    env = dict(os.environ, PYTHONPATH=ROOT, OMP_NUM_THREADS="1", HOROVOD_TIMELINE=str(path), RINGFLOW_ALLREDUCE="mpi")
    out = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    events = json.loads(path.read_text())  # closed at exit: valid JSON without hvd.shutdown()
    rows = {e["args"]["name"]: e["pid"] for e in events if e["name"] == "process_name"}
    assert set(rows) == {"summed", "sent"}
    for name, operation in (("summed", "ALLREDUCE"), ("sent", "BROADCAST")):
        spans = [(e["name"], e["ph"]) for e in events if e["pid"] == rows[name] and e["ph"] in "BE"]
        assert spans == [(operation, "B"), (f"MPI_{operation}", "B"), (f"MPI_{operation}", "E"), (operation, "E")] * 2
