"""DistributedOptimizer's nonfinite policy under mpiexec -n N (any N, 1 included): one rank's NaN makes the averaged
gradient NaN on every rank, so every rank raises the same error, or skips the same step, and stays bitwise equal.

The oracle is one process on the whole global batch with the plain optimizer, fed only the good batches.
"""
import hashlib

import numpy as np
import pytest
from mpi4py import MPI

import allreduce
import trainer as tg
from trainer.parallel.nonfinite import NonFiniteGradientError

WORLD = MPI.COMM_WORLD
RANK, SIZE = WORLD.Get_rank(), WORLD.Get_size()
ROWS = 3  # per rank


@pytest.fixture(scope="module")
def comm():
    return allreduce.create_communicator("ring")


def batch(step, bad):
    """The global batch of `step`; when bad, the last rank's last row holds NaN."""
    rng = np.random.default_rng(step)
    x, y = rng.standard_normal((ROWS * SIZE, 4)), rng.standard_normal(ROWS * SIZE)
    if bad:
        x[-1, 2] = np.nan
    return x, y


def model(optimizer, communicator=None, policy="raise"):
    graph = tg.Graph()
    with graph.as_default():
        x, y = tg.placeholder(tg.float64, (None, 4)), tg.placeholder(tg.float64, (None,))
        w = tg.Variable(np.linspace(-1, 1, 4), name="w")
        loss = tg.reduce_mean(tg.square(tg.reduce_sum(x * w, axis=1) - y))
        step = tg.train.get_or_create_global_step()
        opt = optimizer()
        if communicator is not None:
            opt = tg.DistributedOptimizer(opt, communicator, nonfinite=policy)
        train_op = opt.minimize(loss, global_step=step)
        sess = tg.Session(graph=graph)
        sess.run(tg.global_variables_initializer())
    variables = graph.get_collection("variables")
    return (lambda xy: sess.run(train_op, {x: xy[0], y: xy[1]})), (lambda: sess.run(variables)), opt


def shard(xy):
    return xy[0][RANK * ROWS:(RANK + 1) * ROWS], xy[1][RANK * ROWS:(RANK + 1) * ROWS]


def same_on_every_rank(comm, arrays):
    digest = np.frombuffer(hashlib.sha256(b"".join(np.ascontiguousarray(a).tobytes() for a in arrays)).digest(),
                           dtype=np.uint8).copy()
    gathered = comm.allgather(digest)
    return bool((gathered == gathered[0]).all())


OPTIMIZERS = [lambda: tg.train.MomentumOptimizer(0.05, 0.9), lambda: tg.train.AdamOptimizer(0.05)]


@pytest.mark.parametrize("optimizer", OPTIMIZERS)
def test_every_rank_raises_the_same_error_before_any_update(comm, optimizer):
    step, values, _ = model(optimizer, comm, "raise")
    step(shard(batch(0, bad=False)))
    before = values()
    with pytest.raises(NonFiniteGradientError) as info:
        step(shard(batch(1, bad=True)))
    message = str(info.value)
    assert "global step 1: the gradient of 'w:0' holds 4 NaN and 0 inf of 4 values" in message
    assert same_on_every_rank(comm, [np.frombuffer(message.encode(), np.uint8)])
    assert all(a.tobytes() == b.tobytes() for a, b in zip(values(), before))
    assert same_on_every_rank(comm, values())


@pytest.mark.parametrize("optimizer", OPTIMIZERS)
def test_every_rank_skips_the_same_steps_and_matches_the_good_steps_alone(comm, optimizer):
    step, values, opt = model(optimizer, comm, "skip")
    plain_step, plain_values, _ = model(optimizer)
    bad_steps = {1, 3, 4}
    for i in range(6):
        step(shard(batch(i, bad=i in bad_steps)))
        if i not in bad_steps:
            plain_step(batch(i, bad=False))
    assert opt.nonfinite_skips == len(bad_steps)
    got, want = values(), plain_values()
    assert same_on_every_rank(comm, got)
    for g, w in zip(got, want):
        if g.dtype.kind == "f":
            np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-14)
    steps = [int(g) for g in got if g.dtype.kind == "i"]
    assert steps == [6]  # the global step counts the skipped steps too
