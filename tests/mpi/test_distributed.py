"""DistributedOptimizer and broadcast_variables under mpiexec -n N (any N, 1 included).

The oracle for training is one process on the whole global batch, computed inside every rank with the plain
optimizer: N ranks on their shards must match it to 1e-9 in float64 and match each other bitwise.
"""
import numpy as np
import pytest
from mpi4py import MPI

import allreduce
import models
import trainer as tg
from trainer.data import shard_bounds
from trainer.parallel.distributed import DistributedOptimizer, broadcast_variables

WORLD = MPI.COMM_WORLD
RANK, SIZE = WORLD.Get_rank(), WORLD.Get_size()


@pytest.fixture(scope="module", params=["ring", "shm"])
def comm(request):
    return allreduce.create_communicator(request.param)


def same_on_every_rank(comm, array):
    """Every rank's array is bitwise equal to rank 0's."""
    gathered = comm.allgather(np.ascontiguousarray(array))
    return all(g.tobytes() == gathered[0].tobytes() for g in gathered)


def averaged(comm, grads, weight=None, average=True, overlap=False):
    """Run AllreduceGradients on `grads` (arrays or None) of variables shaped like them."""
    g = tg.Graph()
    with g.as_default():
        feeds, pairs = {}, []
        for i, value in enumerate(grads):
            var = tg.Variable(np.zeros(np.shape(value) if value is not None else (2,)), name=f"v{i}")
            if value is None:
                pairs.append((None, var))
            else:
                ph = tg.placeholder(tg.float64, np.shape(value))
                feeds[ph] = value
                pairs.append((ph, var))

        class Fixed:  # an optimizer whose gradients are the placeholders above
            def compute_gradients(self, loss, var_list=None):
                return pairs
        w = tg.placeholder(tg.float64, ()) if weight is not None else None
        if w is not None:
            feeds[w] = weight
        out = DistributedOptimizer(Fixed(), comm, average=average, weight=w, overlap=overlap).compute_gradients(None)
        with tg.Session() as sess:
            return sess.run([o for o, _ in out], feeds)


def test_gradients_are_averaged_over_ranks(comm):
    # rank r contributes r+1 everywhere: the mean is (N+1)/2, the sum N(N+1)/2.
    grads = [np.full((3, 4), RANK + 1.0), np.full((5,), RANK + 1.0)]
    for got in averaged(comm, grads):
        np.testing.assert_array_equal(got, (SIZE + 1) / 2)
        assert same_on_every_rank(comm, got)
    for got in averaged(comm, grads, average=False):
        np.testing.assert_array_equal(got, SIZE * (SIZE + 1) / 2)
    for got in averaged(comm, grads, overlap=True):
        np.testing.assert_array_equal(got, (SIZE + 1) / 2)


@pytest.mark.parametrize("overlap", [False, True])
def test_weighted_average_counts_samples(comm, overlap):
    # rank r holds r+1 samples whose mean gradient is r: the global mean is sum(r(r+1)) / sum(r+1).
    got = averaged(comm, [np.full(7, float(RANK))], weight=RANK + 1.0, overlap=overlap)[0]
    n = np.arange(1, SIZE + 1)
    np.testing.assert_allclose(got, ((n - 1) * n).sum() / n.sum(), rtol=1e-15)
    assert same_on_every_rank(comm, got)


def test_an_empty_shard_contributes_nothing(comm):
    # The last rank has no samples: its mean is NaN, yet the average must be the other ranks' mean.
    empty = RANK == SIZE - 1 and SIZE > 1
    got = averaged(comm, [np.full(3, np.nan if empty else 2.0)], weight=0.0 if empty else 1.0)[0]
    np.testing.assert_array_equal(got, 2.0)


@pytest.mark.parametrize("overlap", [False, True])
def test_variables_without_gradient_get_zeros(comm, overlap):
    got = averaged(comm, [np.ones(4), None], overlap=overlap)
    np.testing.assert_array_equal(got[0], 1.0)
    np.testing.assert_array_equal(got[1], np.zeros(2))


def test_one_rank_communicates_nothing():
    if SIZE > 1:
        pytest.skip("one rank only")
    g = tg.Graph()
    with g.as_default():
        v = tg.Variable(np.ones(3))
        opt = DistributedOptimizer(tg.train.GradientDescentOptimizer(0.1), allreduce.create_communicator("ring"))
        opt.compute_gradients(tg.reduce_sum(v * v))
    assert opt.averager is None
    assert not [op for op in g.get_operations() if op.type == "AllreduceGradients"]


OPTIMIZERS = {
    "sgd": lambda: tg.train.GradientDescentOptimizer(0.1),
    "momentum": lambda: tg.train.MomentumOptimizer(0.1, momentum=0.9),
    "adam": lambda: tg.train.AdamOptimizer(0.05),
}


def build(optimizer, comm=None, weight=False, overlap=False):
    """A small two-layer model in its own graph; distributed when comm is given."""
    g = tg.Graph()
    with g.as_default():
        tg.set_random_seed(1)
        x = tg.placeholder(tg.float64, (None, 5))
        y = tg.placeholder(tg.int64, (None,))
        spec = models.get("mlp")(x, y, models.Task("classes", 3), seed=1, hidden=(8,))
        n = tg.placeholder(tg.float64, ()) if weight else None
        opt = OPTIMIZERS[optimizer]()
        if comm is not None:
            opt = DistributedOptimizer(opt, comm, weight=n, overlap=overlap)
        step = tg.train.get_or_create_global_step()
        train = opt.minimize(spec.loss, global_step=step)
        init = tg.global_variables_initializer()
    sess = tg.Session(g)
    sess.run(init)
    return sess, x, y, n, train, g.get_collection("variables")  # weights, slots and global step


@pytest.mark.parametrize("overlap", [False, True])
@pytest.mark.parametrize("optimizer", sorted(OPTIMIZERS))
def test_ranks_on_shards_equal_one_process_on_the_whole_batch(comm, optimizer, overlap):
    rng = np.random.default_rng(0)
    batch = 10  # not divisible by 3 or 4: unequal shards
    xs, ys = rng.standard_normal((6, batch, 5)), rng.integers(0, 3, (6, batch))
    sess, x, y, n, train, variables = build(optimizer, comm, weight=True, overlap=overlap)
    ref, rx, ry, _, rtrain, rvariables = build(optimizer)
    broadcast_variables(sess, 0, comm)
    for rv, value in zip(rvariables, sess.run(variables)):
        rv.load(value, ref)
    lo, hi = shard_bounds(batch, SIZE, RANK)
    for step in range(6):
        sess.run(train, {x: xs[step, lo:hi], y: ys[step, lo:hi], n: hi - lo})
        ref.run(rtrain, {rx: xs[step], ry: ys[step]})
        for v, rv in zip(sess.run(variables), ref.run(rvariables)):
            assert same_on_every_rank(comm, v), f"ranks differ after step {step}"
            np.testing.assert_allclose(v, rv, rtol=1e-9, atol=1e-12, err_msg=f"{optimizer} step {step}")


def test_broadcast_takes_roots_variables_slots_and_step(comm):
    root = SIZE - 1
    g = tg.Graph()
    with g.as_default():
        v = tg.Variable(np.full((2, 3), float(RANK)), name="w")
        step = tg.train.get_or_create_global_step()
        train = tg.train.AdamOptimizer(0.1).minimize(tg.reduce_sum(v * v), global_step=step)
        init = tg.global_variables_initializer()
    sess = tg.Session(g)
    sess.run(init)
    for _ in range(RANK + 1):  # different slots and steps on every rank
        sess.run(train)
    broadcast_variables(sess, root, comm)
    for var in g.get_collection("variables"):
        value = sess.run(var)
        assert same_on_every_rank(comm, value), var.name
    assert int(sess.run(step)) == root + 1


def test_different_models_raise_on_every_rank(comm):
    if SIZE == 1:
        pytest.skip("one rank always agrees with itself")
    g = tg.Graph()
    with g.as_default():
        odd = RANK == SIZE - 1
        a = tg.Variable(np.zeros(3), name="a")
        b = tg.Variable(np.zeros(4 + odd), name="b")
        loss = tg.reduce_sum(a * a) + tg.reduce_sum(b * b)
        with pytest.raises(ValueError) as err:
            DistributedOptimizer(tg.train.GradientDescentOptimizer(0.1), comm).compute_gradients(loss)
    message = str(err.value)
    assert "'b:0'" in message and "[4]" in message and "[5]" in message
    assert f"rank(s) [{SIZE - 1}]" in message and f"rank(s) {list(range(SIZE - 1))}" in message
