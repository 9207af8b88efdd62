"""Profiling a Horovod-style program under mpiexec -n N (1 included): the collectives in HOROVOD_TIMELINE's
Chrome trace, and the gradients' allreduce as spans of its own in tf.train.ProfilerHook's traced steps.

At N = 1 a DistributedOptimizer communicates nothing, so the closed form is: fused-allreduce spans iff N > 1.
"""
import json

import numpy as np
import pytest
from mpi4py import MPI

import allreduce
import trainer as tg
import trainer.horovod as hvd
from trainer.program import TimelineHook  # the hook a script borrows from `ringflow train --timeline`
from tests.mpi.horovod_fixtures import backend, fresh_graph  # noqa: F401  (pytest fixtures, autouse)

WORLD = MPI.COMM_WORLD
RANK, SIZE = WORLD.Get_rank(), WORLD.Get_size()
STEPS = 3
FUSED = ["ALLREDUCE", "MEMCPY_IN_FUSION_BUFFER", "MEMCPY_IN_FUSION_BUFFER", "{0}_ALLREDUCE", "{0}_ALLREDUCE",
         "MEMCPY_OUT_FUSION_BUFFER", "MEMCPY_OUT_FUSION_BUFFER", "ALLREDUCE"]


def model(optimizer):
    x = tg.constant(np.arange(12.0).reshape(4, 3) * (RANK + 1))
    w, b = tg.Variable(np.ones((3, 2)), name="w"), tg.Variable(np.zeros(2), name="b")
    loss = tg.reduce_mean(tg.square(tg.matmul(x, w) + b))
    return optimizer.minimize(loss, global_step=tg.train.get_or_create_global_step())


def test_horovod_timeline_records_every_collective_on_rank_0(tmp_path, backend, monkeypatch):
    path = WORLD.bcast(str(tmp_path / "timeline.json"))  # rank 0's: it alone writes
    hvd.shutdown()
    monkeypatch.setenv("HOROVOD_TIMELINE", path)
    try:
        hvd.init(allreduce.create_communicator(backend))
        train = model(hvd.DistributedOptimizer(tg.train.GradientDescentOptimizer(0.01)))
        explicit = hvd.allreduce(tg.constant([1.0, 2.0]), name="explicit")
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            for _ in range(STEPS):
                sess.run([train, explicit])
    finally:
        hvd.shutdown()  # closes the timeline
        monkeypatch.delenv("HOROVOD_TIMELINE")
        hvd.init(allreduce.create_communicator(backend))
    WORLD.Barrier()
    if RANK != 0:
        return
    events = json.loads(open(path).read())
    rows = {e["args"]["name"]: e["pid"] for e in events if e["name"] == "process_name"}
    spans = {name: [e["name"] for e in events if e["pid"] == pid and e["ph"] in "BE"] for name, pid in rows.items()}
    activity = backend.upper()
    assert spans["explicit"] == ["ALLREDUCE", f"{activity}_ALLREDUCE", f"{activity}_ALLREDUCE", "ALLREDUCE"] * STEPS
    ends = [e for e in events if e["pid"] == rows["explicit"] and e["name"] == "ALLREDUCE" and e["ph"] == "E"]
    assert ends[0]["args"] == {"dtype": "float32", "shape": "(2,)"}  # TF1's default float
    fused = [name for name, names in spans.items() if "MEMCPY_IN_FUSION_BUFFER" in names]
    assert len(fused) == (2 if SIZE > 1 else 0)  # one row per gradient (w's and b's) of the fused allreduce
    for name in fused:
        assert spans[name] == [n.format(activity) for n in FUSED] * STEPS
        times = [e["ts"] for e in events if e["pid"] == rows[name] and e["ph"] in "BE"]
        assert times == sorted(times)


@pytest.mark.parametrize("which", ["hvd", "tg"])
def test_profiler_hook_shows_the_allreduce_beside_its_op(tmp_path, which):
    sgd = tg.train.GradientDescentOptimizer(0.01)
    optimizer = hvd.DistributedOptimizer(sgd) if which == "hvd" else tg.DistributedOptimizer(sgd, hvd.communicator())
    train = model(optimizer)
    hook = tg.train.ProfilerHook(save_steps=2, output_dir=str(tmp_path))
    try:
        with tg.train.MonitoredTrainingSession(hooks=[hook, hvd.BroadcastGlobalVariablesHook(0)]) as sess:
            for _ in range(STEPS):
                sess.run(train)
    finally:
        tg.summary.FileWriterCache.clear()
    events = [e for e in json.loads((tmp_path / "timeline-2.json").read_text())["traceEvents"] if e["ph"] == "X"]
    ops = {e["args"]["name"]: e for e in events}
    reduces = [e for e in events if e["name"] == "AllreduceGradients"]
    if SIZE == 1:
        assert not reduces and not [name for name in ops if "ALLREDUCE" in name or "FUSION" in name]
        return
    (reduce,) = reduces
    activity = f"{hvd.communicator().name.upper()}_ALLREDUCE"
    inside = [ops[f"{reduce['args']['name']}/{what}"]
              for what in ("MEMCPY_IN_FUSION_BUFFER", activity, "MEMCPY_OUT_FUSION_BUFFER")]
    assert [e["name"] for e in inside] == ["MEMCPY_IN_FUSION_BUFFER", activity, "MEMCPY_OUT_FUSION_BUFFER"]
    for span in inside:  # within its op (microseconds, rounded), on a lane beside it
        assert reduce["ts"] - 1 <= span["ts"] and span["ts"] + span["dur"] <= reduce["ts"] + reduce["dur"] + 1
        assert span["tid"] != reduce["tid"]


def test_a_script_traces_its_ranks_with_the_programs_timeline_hook(tmp_path):
    optimizer = hvd.DistributedOptimizer(tg.train.GradientDescentOptimizer(0.01))
    train = model(optimizer)
    path = WORLD.bcast(str(tmp_path / "ranks.json"))
    hooks = [hvd.BroadcastGlobalVariablesHook(0), TimelineHook(path, hvd.communicator(), optimizer)]
    with tg.train.MonitoredTrainingSession(hooks=hooks) as sess:
        for _ in range(STEPS):
            sess.run(train)
    WORLD.Barrier()
    if RANK != 0:
        return
    events = json.loads(open(path).read())["traceEvents"]
    assert sorted(e["args"]["name"] for e in events if e["ph"] == "M") == [f"rank {r}" for r in range(SIZE)]
    for rank in range(SIZE):
        names = [e["name"] for e in events if e["ph"] == "X" and e["pid"] == rank]
        assert names.count("allreduce") == (STEPS if SIZE > 1 else 0)
        assert {e["args"]["step"] for e in events if e["ph"] == "X" and e["pid"] == rank} == {1, 2, 3}
