"""Overlapping the gradient allreduce with the backward pass (trainer/parallel/bucket_ops.py), under mpiexec -n N.

Bucket 0 (the last layer's gradients) must start reducing while the backward pass still computes the first
layer's gradient; the results must be bitwise those of the one allreduce after the backward pass.
"""
import threading

import numpy as np
import pytest
from mpi4py import MPI

import allreduce
import trainer as tg
from trainer.parallel.distributed import DistributedOptimizer
from trainer.framework.registry import apply_op, register

WORLD = MPI.COMM_WORLD
RANK, SIZE = WORLD.Get_rank(), WORLD.Get_size()
pytestmark = pytest.mark.skipif(SIZE == 1, reason="one rank communicates nothing")

HOOK = {}  # the test's hook for the GateGradient op below


def _gate(x, tag):
    """Identity that, for the first layer's gradient, waits until bucket 0's allreduce has begun."""
    if tag == "first layer":
        HOOK["overlapped"] = HOOK["bucket 0 started"].wait(timeout=20)
    return x.copy()


register("GateGradient", forward=_gate, fresh=True)


class Gated:
    """An optimizer whose gradients pass through GateGradient (last layer's built first, as backward does)."""

    def __init__(self, inner):
        self.inner = inner

    def compute_gradients(self, loss, var_list=None):
        pairs = self.inner.compute_gradients(loss, var_list)
        w1, w2 = [v for _, v in pairs]
        g2 = apply_op("GateGradient", [pairs[1][0]], tag="last layer")
        g1 = apply_op("GateGradient", [pairs[0][0]], tag="first layer")
        return [(g1, w1), (g2, w2)]

    def __getattr__(self, name):
        return getattr(self.inner, name)


def build(comm, overlap):
    """Two layers: the first float32, the last float64, so they fill two buckets (one per dtype)."""
    g = tg.Graph()
    with g.as_default():
        x = tg.placeholder(tg.float64, (None, 3))
        w1 = tg.Variable(np.linspace(-1, 1, 12).reshape(3, 4).astype(np.float32), name="w1")
        w2 = tg.Variable(np.linspace(1, -1, 8).reshape(4, 2), name="w2")
        hidden = tg.cast(tg.nn.tanh(tg.matmul(tg.cast(x, tg.float32), w1)), tg.float64)
        loss = tg.reduce_mean(tg.square(tg.matmul(hidden, w2)))
        opt = DistributedOptimizer(Gated(tg.train.MomentumOptimizer(0.1, 0.9)), comm, overlap=overlap)
        train = opt.minimize(loss)
        init = tg.global_variables_initializer()
    sess = tg.Session(g)
    sess.run(init)
    return sess, x, train, [w1, w2]


@pytest.fixture(params=["ring", "shm", "mpi"])
def comm(request):
    return allreduce.create_communicator(request.param)


def test_bucket_0_starts_before_the_last_gradient_is_computed(comm, monkeypatch):
    started = HOOK["bucket 0 started"] = threading.Event()
    reduce_bucket = allreduce.FusedAllreduce.allreduce_bucket

    def spy(self, b, *args, **kwargs):
        if b == 0:
            started.set()
        return reduce_bucket(self, b, *args, **kwargs)
    monkeypatch.setattr(allreduce.FusedAllreduce, "allreduce_bucket", spy)
    sess, x, train, _ = build(comm, overlap=True)
    sess.run(train, {x: np.full((2, 3), RANK + 1.0)})
    assert HOOK["overlapped"], "bucket 0's allreduce had not started when the first layer's gradient ran"


def test_overlap_changes_no_bit(comm):
    rng = np.random.default_rng(RANK)
    runs = [build(comm, overlap) for overlap in (False, True)]
    HOOK["bucket 0 started"] = threading.Event()
    HOOK["bucket 0 started"].set()  # the gate lets everything through here
    for step in range(4):
        feed = rng.standard_normal((3, 3))
        for sess, x, train, _ in runs:
            sess.run(train, {x: feed})
    plain, overlapped = [sess.run(ws) for sess, _, _, ws in runs]
    for a, b in zip(plain, overlapped):
        assert a.tobytes() == b.tobytes()
        gathered = WORLD.allgather(b.tobytes())
        assert all(g == gathered[0] for g in gathered)


def test_a_bad_overlap_setting_is_named(comm, monkeypatch):
    monkeypatch.setenv("RINGFLOW_OVERLAP", "yes")
    with pytest.raises(ValueError, match="RINGFLOW_OVERLAP='yes'"):
        DistributedOptimizer(tg.train.GradientDescentOptimizer(0.1), comm)
