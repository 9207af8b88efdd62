"""A canned estimator under Horovod's Estimator pattern (mpiexec -n N, any N): hvd.DistributedOptimizer as
LinearRegressor's optimizer, BroadcastGlobalVariablesHook(0), model_dir on rank 0 only. One SGD step from zero on
each rank's own rows moves the weights by the rank-average of the summed-loss gradients, in closed form."""
import numpy as np
from mpi4py import MPI

import trainer as tg
import trainer.horovod as hvd
from tests.mpi.horovod_fixtures import backend, fresh_graph  # noqa: F401  (pytest fixtures, autouse)

WORLD = MPI.COMM_WORLD
RANK, SIZE = WORLD.Get_rank(), WORLD.Get_size()
RATE = 0.01


def shard(rank, rows=8):
    x = np.stack([np.arange(rows) + rank, np.ones(rows) * (rank + 1)], axis=1).astype(np.float32) / 10
    return x, (x @ [1.0, -2.0] + 0.5).astype(np.float32)


def test_linear_regressor_averages_the_ranks_gradients(tmp_path):
    x, y = shard(RANK)
    est = tg.estimator.LinearRegressor(
        [tg.feature_column.numeric_column("x", shape=2)], model_dir=str(tmp_path) if RANK == 0 else None,
        optimizer=hvd.DistributedOptimizer(tg.train.GradientDescentOptimizer(RATE)),
        config=tg.estimator.RunConfig(log_step_count_steps=1000))
    est.train(tg.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=len(x), num_epochs=None, shuffle=False),
              steps=1, hooks=[hvd.BroadcastGlobalVariablesHook(0)])
    weights = est.get_variable_value("linear/linear_model/x/weights").ravel()
    # from zero, each rank's gradient of sum((xw + b - y)^2) is -2 x^T y: the step is RATE * 2 * its rank-mean
    expected = np.mean([2 * RATE * shard(r)[0].T @ shard(r)[1] for r in range(SIZE)], axis=0)
    np.testing.assert_allclose(weights, expected, rtol=1e-5)
    assert all(w == weights.tobytes() for w in WORLD.allgather(weights.tobytes()))
