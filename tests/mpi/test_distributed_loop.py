"""The training loop under mpiexec -n N: resume exactness, agreement with one process, timeline, metrics."""
import json
import os
import shutil
import tempfile

import numpy as np
import pytest
from mpi4py import MPI

import allreduce
from trainer.program.loop import Config, train

WORLD = MPI.COMM_WORLD
RANK, SIZE = WORLD.Get_rank(), WORLD.Get_size()


@pytest.fixture(scope="module")
def comm():
    return allreduce.create_communicator("ring")


@pytest.fixture
def shared_dir():
    path = WORLD.bcast(tempfile.mkdtemp(prefix="ringflow-") if RANK == 0 else None, root=0)
    yield path
    WORLD.Barrier()
    if RANK == 0:
        shutil.rmtree(path, ignore_errors=True)


def config(directory, name, **overrides):
    base = dict(model="mlp", hidden=(16,), dataset="synthetic-classes", batch_size=30, optimizer="adam",
                lr=0.01, seed=4, dtype="float64", progress=False,
                save_final=os.path.join(directory, name + ".npz"))
    base.update(overrides)
    return Config(**base)


def load(path):
    with np.load(path, allow_pickle=False) as f:
        return {k: f[k] for k in f.files}


def test_stop_at_25_and_resume_to_40_equals_40_steps(comm, shared_dir):
    whole = train(config(shared_dir, "whole", steps=40), comm)
    ckpt = os.path.join(shared_dir, "ckpt")
    train(config(shared_dir, "first", steps=25, checkpoint_dir=ckpt, checkpoint_every_steps=10), comm)
    resumed = train(config(shared_dir, "resumed", steps=40, checkpoint_dir=ckpt), comm)
    assert resumed["resumed_from_step"] == 25 and resumed["step"] == 40 and whole["resumed_from_step"] is None
    if RANK == 0:
        a, b = load(os.path.join(shared_dir, "whole.npz")), load(os.path.join(shared_dir, "resumed.npz"))
        assert sorted(a) == sorted(b)
        for k in a:
            assert a[k].tobytes() == b[k].tobytes(), k
    assert resumed["loss"] == whole["loss"]  # final metrics over the whole training set


def test_only_the_chief_reads_and_writes_checkpoints(comm, shared_dir):
    """The other ranks get a directory of their own, which must stay untouched: no shared file system needed."""
    ckpt = os.path.join(shared_dir, "ckpt" if RANK == 0 else f"elsewhere-{RANK}")
    whole = train(config(shared_dir, "whole", steps=12), comm)
    train(config(shared_dir, "first", steps=7, checkpoint_dir=ckpt, checkpoint_every_steps=5), comm)
    resumed = train(config(shared_dir, "resumed", steps=12, checkpoint_dir=ckpt), comm)
    assert resumed["resumed_from_step"] == 7 and resumed["loss"] == whole["loss"]
    WORLD.Barrier()
    if RANK == 0:
        assert sorted(os.listdir(ckpt)) == sorted(["checkpoint"] + [f"model.ckpt-{step}{ext}" for step in (5, 7, 12)
                                                                   for ext in (".index", ".data-00000-of-00001",
                                                                               ".meta")])
        assert [p for p in os.listdir(shared_dir) if p.startswith("elsewhere")] == []


def test_n_ranks_train_like_one_process(comm, shared_dir):
    distributed = train(config(shared_dir, "n", steps=15), comm)
    solo = allreduce.create_communicator("ring", comm=MPI.COMM_SELF)
    if RANK == 0:
        alone = train(config(shared_dir, "one", steps=15), solo)
        a, b = load(os.path.join(shared_dir, "n.npz")), load(os.path.join(shared_dir, "one.npz"))
        for k in a:
            np.testing.assert_allclose(a[k], b[k], rtol=1e-9, atol=1e-12, err_msg=k)
        assert distributed["loss"] == pytest.approx(alone["loss"], rel=1e-9)
        assert distributed["accuracy"] == pytest.approx(alone["accuracy"])
    gathered = WORLD.allgather(json.dumps(distributed, sort_keys=True, default=str))
    losses = {json.loads(g)["loss"] for g in gathered}
    assert len(losses) == 1  # every rank reports the same averaged metrics


def test_timeline_has_every_ranks_compute_and_allreduce(comm, shared_dir):
    path = os.path.join(shared_dir, "trace.json")
    train(config(shared_dir, "t", steps=5, timeline=path), comm)
    WORLD.Barrier()
    events = json.load(open(path))["traceEvents"]
    for rank in range(SIZE):
        names = {e["name"] for e in events if e.get("pid") == rank and e["ph"] == "X"}
        assert "compute" in names
        assert ("allreduce" in names) == (SIZE > 1)
