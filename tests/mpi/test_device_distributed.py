"""DistributedOptimizer with every rank's session on the strict device stand-in (tests/trainer/strict_device.py),
under mpiexec -n N (1 included): the gradient allreduce ops (one AllreduceGradients op, or the per-bucket ops
with overlap) run on device arrays; ranks agree bitwise and match one process on the global batch."""
import numpy as np
import pytest
from mpi4py import MPI

import allreduce
import models
import trainer as tg
from tests.trainer import strict_device
from trainer.data import shard_bounds

WORLD = MPI.COMM_WORLD
RANK, SIZE = WORLD.Get_rank(), WORLD.Get_size()
BATCH, STEPS = 7, 3  # a global batch not divisible by 2 or 3: ranks hold unequal shards


def train(device, communicator=None, overlap=False):
    """Losses and variables after STEPS Adam steps of a small mlp; with a communicator, on this rank's shard."""
    rng = np.random.default_rng(5)
    xs, ys = rng.standard_normal((STEPS, BATCH, 6)), rng.integers(0, 3, (STEPS, BATCH))
    with tg.Graph().as_default():
        features, labels = tg.placeholder(tg.float64, [None, 6]), tg.placeholder(tg.int64, [None])
        spec = models.get("mlp")(features, labels, models.Task("classes", 3), seed=2, hidden=(5,))
        opt = tg.train.AdamOptimizer(0.05)
        weight = None
        if communicator is not None:
            weight = tg.placeholder(tg.float64, [])
            opt = tg.DistributedOptimizer(opt, communicator=communicator, weight=weight, overlap=overlap)
        step = opt.minimize(spec.loss)
        with tg.Session(device=device) as sess:
            sess.run(tg.global_variables_initializer())
            lo, hi = shard_bounds(BATCH, SIZE, RANK) if communicator is not None else (0, BATCH)
            for x, y in zip(xs, ys):
                feed = {features: x[lo:hi], labels: y[lo:hi]}
                if weight is not None:
                    feed[weight] = float(hi - lo)
                sess.run(step, feed)
            return sess.run({v.name: v for v in tg.global_variables()})


@pytest.mark.parametrize("backend", ["mpi", "ring", "shm"])  # shm: the host twins are its shared window
@pytest.mark.parametrize("overlap", [False, True])
def test_ranks_on_the_standin_agree_bitwise_and_match_one_process(backend, overlap):
    communicator = allreduce.create_communicator(backend)
    values = train(strict_device.use(), communicator, overlap)
    oracle = train("cpu")
    on_cpu = train("cpu", communicator, overlap)
    for name, value in values.items():
        gathered = communicator.allgather(np.ascontiguousarray(value))
        assert all(g.tobytes() == gathered[0].tobytes() for g in gathered), f"{name!r} differs between ranks"
        assert value.tobytes() == on_cpu[name].tobytes(), f"{name!r}: the stand-in differs from the CPU path"
        np.testing.assert_allclose(value, oracle[name], rtol=1e-9, atol=1e-12, err_msg=name)
