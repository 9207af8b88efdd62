"""Gradient accumulation under mpiexec -n N (any N, 1 included): K passes, one allreduce, one update.

Rank r's pass k has the gradient (r + 1)(k + 1)·v (the loss is sum(w * c) with c fed), so every update has a
closed form: Horovod's averages over ranks and sums over passes, (N + 1)/2 · K(K + 1)/2 · v (divided by K with
average_aggregated_gradients); tg.DistributedOptimizer's weighted one is sum(weight·c) / sum(weight).
"""
import numpy as np
import pytest
from mpi4py import MPI

import trainer as tg
import trainer.horovod as hvd
from tests.mpi.horovod_fixtures import backend, fresh_graph  # noqa: F401  (pytest fixtures, autouse)

WORLD = MPI.COMM_WORLD
RANK, SIZE = WORLD.Get_rank(), WORLD.Get_size()
K, LR = 3, 0.5
V = np.array([1.0, 2.0, 3.0])
W0 = np.array([0.25, -0.5, 1.0])


def gradient(rank, k):
    return (rank + 1) * (k + 1) * V


def train(optimizer, passes, weight=None):
    """Run `passes` passes of minimize(sum(w * c)); (w, global step) after each."""
    c = tg.placeholder(tg.float64, (3,))
    w = tg.Variable(W0, name="w")
    step = tg.train.get_or_create_global_step()
    op = optimizer(weight).minimize(tg.reduce_sum(w * c), global_step=step)
    seen = []
    with tg.train.MonitoredTrainingSession() as sess:
        for k in range(passes):
            feed = {c: gradient(RANK, k % K)}
            if weight is not None:
                feed[weight] = float(RANK + k % K + 1)
            sess.run(op, feed)
            seen.append(sess.run([w, step]))
    return seen


def same_on_every_rank(array):
    return all(d == array.tobytes() for d in WORLD.allgather(array.tobytes()))


@pytest.mark.parametrize("average", [False, True])
def test_horovod_reduces_every_kth_pass(average):
    seen = train(lambda _: hvd.DistributedOptimizer(tg.train.GradientDescentOptimizer(LR),
                                                    backward_passes_per_step=K, average_aggregated_gradients=average),
                 2 * K)
    update = LR * (SIZE + 1) / 2 * K * (K + 1) / 2 * V / (K if average else 1)
    assert [int(s) for _, s in seen] == list(range(1, 2 * K + 1))  # Horovod: the global step counts passes
    for k, (w, _) in enumerate(seen):
        expected = W0 - update * ((k + 1) // K)
        np.testing.assert_allclose(w, expected, rtol=1e-15)
        assert same_on_every_rank(w)
    assert seen[K - 2][0].tobytes() == W0.tobytes()


def test_tg_averages_the_passes_by_weight_and_counts_updates():
    weight = tg.placeholder(tg.float64, ())
    seen = train(lambda wt: tg.DistributedOptimizer(tg.train.GradientDescentOptimizer(LR), hvd.communicator(),
                                                    weight=wt, backward_passes_per_step=K), 2 * K, weight)
    weights = {(r, k): r + k + 1.0 for r in range(SIZE) for k in range(K)}
    mean = sum(weights[r, k] * gradient(r, k) for r, k in weights) / sum(weights.values())
    assert [int(s) for _, s in seen] == [0] * (K - 1) + [1] * K + [2]
    np.testing.assert_allclose(seen[K - 1][0], W0 - LR * mean, rtol=1e-14)
    np.testing.assert_allclose(seen[-1][0], W0 - 2 * LR * mean, rtol=1e-14)
    assert all(same_on_every_rank(w) for w, _ in seen)
