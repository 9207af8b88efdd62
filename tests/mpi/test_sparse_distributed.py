"""An embedding's gradient (an IndexedSlices in TF1) under both DistributedOptimizers, mpiexec -n N (any N, 1 included).

The oracle is one process on the whole global batch with the plain optimizer, which applies TF1's sparse rule: only
the rows the batch names move, and only their slots change. N ranks on their shards must match it to 1e-9 in float64
and each other bitwise, although a row may be named by one rank only, by every rank, or by none.
"""
import numpy as np
import pytest
from mpi4py import MPI

import allreduce
import trainer as tg
import trainer.horovod as hvd
from trainer.data import shard_bounds

WORLD = MPI.COMM_WORLD
RANK, SIZE = WORLD.Get_rank(), WORLD.Get_size()

BATCH = 12  # divisible by 1 to 4 ranks: hvd averages the ranks' means unweighted
SHIFTING = 13  # rows 0..12: example i of step s names row (i + s) % 13 (twice), so one of them is unnamed each step
SHARED, NEVER = 13, [14, 15]  # every example names row 13; no example names rows 14 and 15
ROWS, STEPS = 16, 4

OPTIMIZERS = {
    "momentum": lambda: tg.train.MomentumOptimizer(0.1, momentum=0.9),
    "adagrad": lambda: tg.train.AdagradOptimizer(0.1),
    "rmsprop": lambda: tg.train.RMSPropOptimizer(0.05, momentum=0.5),
}
WRAPPERS = {
    "tg": lambda opt: tg.DistributedOptimizer(opt, allreduce.create_communicator("ring")),
    "tg-overlap": lambda opt: tg.DistributedOptimizer(opt, allreduce.create_communicator("ring"), overlap=True),
    "hvd": lambda opt: hvd.DistributedOptimizer(opt),
    "hvd-fp16": lambda opt: hvd.DistributedOptimizer(opt, compression=hvd.Compression.fp16),
}


@pytest.fixture(scope="module", autouse=True)
def horovod():
    hvd.shutdown()
    hvd.init(allreduce.create_communicator("ring"))
    yield
    hvd.shutdown()


def ids_at(step):
    rows = (np.arange(BATCH) + step) % SHIFTING
    return np.stack([rows, np.full(BATCH, SHARED), rows], axis=1)


LABELS = np.random.default_rng(0).integers(0, 3, (STEPS, BATCH))


def build(optimizer, wrap=None, dense=False):
    """An embedding table, averaged over its ids, feeding a softmax layer; wrap: a DistributedOptimizer maker;
    dense: apply the gradients as dense Tensors (g + 0 is no gather's gradient), the dense rule's oracle."""
    g = tg.Graph()
    with g.as_default():
        ids = tg.placeholder(tg.int64, (None, 3))
        y = tg.placeholder(tg.int64, (None,))
        table = tg.get_variable("table", (ROWS, 4), tg.float64, tg.random_normal_initializer(seed=1))
        w = tg.get_variable("w", (4, 3), tg.float64, tg.random_normal_initializer(seed=2))
        b = tg.get_variable("b", (3,), tg.float64, tg.zeros_initializer())
        logits = tg.matmul(tg.reduce_mean(tg.nn.embedding_lookup(table, ids), axis=1), w) + b
        loss = tg.reduce_mean(tg.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
        opt = OPTIMIZERS[optimizer]()
        step = tg.train.get_or_create_global_step()
        if wrap is not None:
            opt = wrap(opt)
            train = opt.minimize(loss, global_step=step)
        else:
            pairs = opt.compute_gradients(loss)
            train = opt.apply_gradients([(grad + 0.0 if dense else grad, v) for grad, v in pairs], global_step=step)
        init = tg.global_variables_initializer()
        slots = [opt.get_slot(table, name) for name in opt.get_slot_names()]
    sess = tg.Session(graph=g)
    sess.run(init)
    return sess, ids, y, train, [table] + slots, g.get_collection("variables")


def same_on_every_rank(array):
    data = np.ascontiguousarray(array).tobytes()
    return all(d == data for d in WORLD.allgather(data))


def train_both(optimizer, wrap, dense=False):
    """Yields (step, table and its slots before the step, after it, every variable, the oracle's) for each step."""
    sess, ids, y, train, table, variables = build(optimizer, wrap)
    ref, rids, ry, rtrain, _, rvariables = build(optimizer, dense=dense)
    lo, hi = shard_bounds(BATCH, SIZE, RANK)
    for step in range(STEPS):
        before = sess.run(table)
        sess.run(train, {ids: ids_at(step)[lo:hi], y: LABELS[step, lo:hi]})
        ref.run(rtrain, {rids: ids_at(step), ry: LABELS[step]})
        yield step, before, sess.run(table), sess.run(variables), ref.run(rvariables)


@pytest.mark.parametrize("wrapper", sorted(WRAPPERS))
@pytest.mark.parametrize("optimizer", sorted(OPTIMIZERS))
def test_ranks_on_shards_apply_the_sparse_rule_of_one_process(optimizer, wrapper):
    for step, before, after, got, want in train_both(optimizer, WRAPPERS[wrapper]):
        if "fp16" not in wrapper:  # fp16 rounds the softmax layer's gradient, and so every later step
            for v, rv in zip(got, want):
                assert same_on_every_rank(v), f"ranks differ after step {step}"
                np.testing.assert_allclose(v, rv, rtol=1e-9, atol=1e-12, err_msg=f"{wrapper} {optimizer} {step}")
        unnamed = NEVER + [(step - 1) % SHIFTING]  # the row the examples of this step skip
        for b, a in zip(before, after):  # the table, then each of its slots
            np.testing.assert_array_equal(a[unnamed], b[unnamed], err_msg=f"rows no rank named moved at step {step}")
        moved = [r for r in range(ROWS) if r not in unnamed]
        assert (after[0][moved] != before[0][moved]).all(1).all(), f"a named row stayed put at step {step}"


@pytest.mark.parametrize("optimizer", ["momentum", "rmsprop"])
def test_sparse_as_dense_keeps_the_dense_rule(optimizer):
    wrap = lambda opt: hvd.DistributedOptimizer(opt, sparse_as_dense=True)  # noqa: E731
    for step, before, after, got, want in train_both(optimizer, wrap, dense=True):
        for v, rv in zip(got, want):
            assert same_on_every_rank(v), f"ranks differ after step {step}"
            np.testing.assert_allclose(v, rv, rtol=1e-9, atol=1e-12, err_msg=f"{optimizer} step {step}")
        if step > 0:  # the dense rule moves the row this step skips by its momentum
            skipped = (step - 1) % SHIFTING
            assert (after[0][skipped] != before[0][skipped]).all()
        np.testing.assert_array_equal(after[0][NEVER], before[0][NEVER])
