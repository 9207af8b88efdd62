"""trainer.horovod under mpiexec -n N (any N, 1 included): Horovod's ops and a Horovod-style training program.

Expected values come from rank and size in closed form; results are compared bitwise across ranks through
mpi4py itself, not through the communicator under test.
"""
import numpy as np
import pytest
from mpi4py import MPI

import allreduce
import trainer as tg
import trainer.horovod as hvd
from tests.mpi.horovod_fixtures import backend, fresh_graph  # noqa: F401  (pytest fixtures, autouse)

WORLD = MPI.COMM_WORLD
RANK, SIZE = WORLD.Get_rank(), WORLD.Get_size()
ROOT = 1 if SIZE > 1 else 0



def run(fetches, feeds=None):
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        return sess.run(fetches, feeds)


def same_on_every_rank(array):
    data = np.ascontiguousarray(array)
    return all(d == data.tobytes() for d in WORLD.allgather(data.tobytes()))


def test_layout_matches_mpi():
    node = WORLD.Split_type(MPI.COMM_TYPE_SHARED, key=RANK)
    local_rank, local_size = node.Get_rank(), node.Get_size()
    node.Free()
    assert (hvd.rank(), hvd.size(), hvd.local_rank(), hvd.local_size()) == (RANK, SIZE, local_rank, local_size)
    local_ranks = WORLD.allgather(local_rank)  # cross: the ranks with my local rank, one per node
    assert hvd.cross_size() == local_ranks.count(local_rank)
    assert hvd.cross_rank() == local_ranks[:RANK].count(local_rank)
    assert run([hvd.size_op(), hvd.rank_op(), hvd.local_size_op(), hvd.local_rank_op()]) == \
        [SIZE, RANK, local_size, local_rank]


def test_init_orders_the_ranks_of_a_rank_list(backend):
    hvd.shutdown()
    try:
        hvd.init(comm=list(reversed(range(SIZE))))
        assert (hvd.rank(), hvd.size()) == (SIZE - 1 - RANK, SIZE)
        got = run(hvd.allgather(tg.constant([float(RANK)])))
        np.testing.assert_array_equal(got, np.arange(SIZE - 1, -1, -1.0))
    finally:
        hvd.shutdown()
        hvd.init(allreduce.create_communicator(backend))


def test_default_init_picks_the_fastest_cpu_backend(backend, monkeypatch):
    monkeypatch.delenv("RINGFLOW_ALLREDUCE", raising=False)
    hvd.shutdown()
    try:
        hvd.init()
        assert hvd.communicator().name == allreduce.auto.fastest_cpu_backend()
        hvd.shutdown()
        monkeypatch.setenv("RINGFLOW_ALLREDUCE", "mpi")
        hvd.init()
        assert hvd.communicator().name == "mpi"
    finally:
        hvd.shutdown()
        hvd.init(allreduce.create_communicator(backend))


SHAPES = [(3, 4), (0,), (1,), (7,)]  # length 0, shorter than size, not divisible by 2, 3 or 4


@pytest.mark.parametrize("shape", SHAPES)
def test_allreduce_of_the_rank(shape):
    x = tg.constant(np.full(shape, float(RANK)))
    ops = {"average": hvd.allreduce(x), "sum": hvd.allreduce(x, op=hvd.Sum),
           "min": hvd.allreduce(x, op=hvd.Min), "max": hvd.allreduce(x, op=hvd.Max),
           "scaled": hvd.allreduce(x, op=hvd.Sum, prescale_factor=2.0, postscale_factor=0.25)}
    got = run(ops)
    expected = {"average": (SIZE - 1) / 2, "sum": SIZE * (SIZE - 1) / 2, "min": 0, "max": SIZE - 1,
                "scaled": SIZE * (SIZE - 1) / 4}
    for key, value in got.items():
        np.testing.assert_array_equal(value, np.full(shape, expected[key]), err_msg=key)
        assert same_on_every_rank(value), key


def test_scale_factors_apply_as_horovod_applies_them():
    """Horovod's factors are 32-bit op attrs; Average is a sum whose postscale is divided by size; integers are
    scaled in float64 and truncated. Products of small integers and float32 factors are exact in float64, so
    the expected values are exact whatever the order of the sum."""
    f = float(np.float32(0.1))
    x = tg.constant(np.full(3, RANK + 1.0))
    counts = tg.constant(np.full(2, RANK + 1, np.int64))
    got = run({"pre": hvd.allreduce(x, op=hvd.Sum, prescale_factor=0.1),
               "average": hvd.allreduce(x, op=hvd.Average, postscale_factor=3.0),
               "ints": hvd.allreduce(counts, op=hvd.Sum, prescale_factor=0.5, postscale_factor=0.1)})
    total = SIZE * (SIZE + 1) / 2
    assert got["pre"].tolist() == [sum((r + 1) * f for r in range(SIZE))] * 3
    assert got["average"].tolist() == [total * (3.0 / SIZE)] * 3
    assert got["ints"].tolist() == [int(sum((r + 1) // 2 for r in range(SIZE)) * f)] * 2
    assert all(same_on_every_rank(value) for value in got.values())


def test_fp16_compression_reduces_float16_values():
    # 1 + rank + 2**-12 is no float16: compressed, every rank sends 1 + rank, and the mean is exact.
    x = tg.constant(np.full(5, 1 + RANK + 2.0 ** -12, np.float32))
    got, plain = run([hvd.allreduce(x, compression=hvd.Compression.fp16), hvd.allreduce(x)])
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, 1 + (SIZE - 1) / 2)
    np.testing.assert_allclose(plain, 1 + (SIZE - 1) / 2 + 2.0 ** -12, rtol=1e-7)


def test_allreduce_gradient_reduces_the_gradients():
    # Rank r's loss weighs the result by r + 1: d(sum of losses)/dx is the mean (sum) of r + 1.
    x = tg.Variable(np.ones(4))
    w = float(RANK + 1)
    grads = [tg.gradients(tg.reduce_sum(hvd.allreduce(x, op=op) * w), [x])[0] for op in (hvd.Average, hvd.Sum)]
    average, total = run(grads)
    np.testing.assert_array_equal(average, np.full(4, (SIZE + 1) / 2))
    np.testing.assert_array_equal(total, np.full(4, SIZE * (SIZE + 1) / 2))


@pytest.mark.parametrize("rows", [lambda r: r + 1, lambda r: r, lambda r: 2 if r == SIZE - 1 else 0],
                         ids=["r+1", "r", "last-only"])
def test_allgather_concatenates_rank_dependent_lengths(rows):
    x = tg.Variable(np.full((rows(RANK), 2), float(RANK)))
    gathered = hvd.allgather(x)
    expected = np.concatenate([np.full((rows(q), 2), float(q)) for q in range(SIZE)])
    # every rank weighs the gathered rows by the same c: rank r's gradient is size * c over its rows
    c = np.arange(expected.size, dtype=np.float64).reshape(expected.shape) + 1
    grad = tg.gradients(tg.reduce_sum(gathered * c), [x])[0]
    got, g = run([gathered, grad])
    np.testing.assert_array_equal(got, expected)
    start = sum(rows(q) for q in range(RANK))
    np.testing.assert_array_equal(g, SIZE * c[start:start + rows(RANK)])


def test_broadcast_from_root_and_its_gradient():
    x = tg.Variable(np.full((2, 3), float(RANK)))
    cast = hvd.broadcast(x, ROOT)
    grad = tg.gradients(tg.reduce_sum(cast * float(RANK + 1)), [x])[0]
    got, g = run([cast, grad])
    np.testing.assert_array_equal(got, np.full((2, 3), float(ROOT)))
    expected = SIZE * (SIZE + 1) / 2 if RANK == ROOT else 0.0
    np.testing.assert_array_equal(g, np.full((2, 3), expected))


def test_broadcast_global_variables_takes_roots_values():
    v = tg.Variable(np.full((2, 2), float(RANK)), name="v")
    step = tg.train.get_or_create_global_step()
    bcast = hvd.broadcast_global_variables(ROOT)
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        sess.run(step.assign(RANK * 10))
        sess.run(bcast)
        np.testing.assert_array_equal(sess.run(v), np.full((2, 2), float(ROOT)))
        assert sess.run(step) == ROOT * 10


def test_hook_in_a_monitored_training_session():
    if not hasattr(tg.train, "MonitoredTrainingSession"):
        pytest.skip("tg.train.MonitoredTrainingSession does not exist yet")
    v = tg.Variable(np.full(3, float(RANK)), name="v")
    with tg.train.MonitoredTrainingSession(hooks=[hvd.BroadcastGlobalVariablesHook(ROOT)]) as sess:
        np.testing.assert_array_equal(sess.run(v), np.full(3, float(ROOT)))


@pytest.mark.parametrize("compression", [hvd.Compression.none, hvd.Compression.fp16], ids=["none", "fp16"])
def test_distributed_optimizer_averages_and_leaves_none_alone(compression):
    w = tg.Variable(np.zeros(5, np.float32), name="w")
    unused = tg.Variable(np.zeros(2, np.float32), name="unused")
    opt = hvd.DistributedOptimizer(tg.train.GradientDescentOptimizer(1.0), compression=compression)
    pairs = opt.compute_gradients(tg.reduce_sum(w * np.float32(1 + RANK + 2.0 ** -12)), var_list=[w, unused])
    assert pairs[1][0] is None
    got = run(pairs[0][0])
    assert same_on_every_rank(got)
    if compression is hvd.Compression.fp16 or SIZE == 1:
        exact = 1 + (SIZE - 1) / 2 + (2.0 ** -12 if SIZE == 1 else 0)
        np.testing.assert_array_equal(got, np.float32(exact))
    else:
        np.testing.assert_allclose(got, 1 + (SIZE - 1) / 2 + 2.0 ** -12, rtol=1e-7)


GLOBAL_BATCH = 12  # divisible by 1, 2, 3 and 4: Horovod's unweighted average is the global batch's mean


def horovod_program(seed, distributed, **optimizer_kwargs):
    """A Horovod MNIST-style program on 6 features and 3 classes; returns its pieces."""
    g = tg.Graph()
    with g.as_default():
        tg.set_random_seed(seed)
        x = tg.placeholder(tg.float64, (None, 6))
        y = tg.placeholder(tg.int64, (None,))
        w1 = tg.get_variable("w1", (6, 8), tg.float64, initializer=tg.glorot_uniform_initializer())
        b1 = tg.get_variable("b1", (8,), tg.float64, initializer=tg.zeros_initializer())
        w2 = tg.get_variable("w2", (8, 3), tg.float64, initializer=tg.glorot_uniform_initializer())
        logits = tg.matmul(tg.nn.relu(tg.matmul(x, w1) + b1), w2)
        loss = tg.reduce_mean(tg.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
        opt = tg.train.AdamOptimizer(0.05)
        if distributed:
            opt = hvd.DistributedOptimizer(opt, **optimizer_kwargs)
        train = opt.minimize(loss, global_step=tg.train.get_or_create_global_step())
        init = tg.global_variables_initializer()
        bcast = hvd.broadcast_global_variables(0) if distributed else None
    return tg.Session(g), x, y, train, init, bcast, g.get_collection("variables")


@pytest.mark.parametrize("kwargs", [{}, {"gradient_predivide_factor": 2.0}], ids=["average", "predivide"])
def test_horovod_program_equals_one_process_on_the_global_batch(kwargs):
    sess, x, y, train, init, bcast, variables = horovod_program(RANK, True, **kwargs)
    sess.run(init)
    before = sess.run(variables)
    sess.run(bcast)
    after = sess.run(variables)
    for b, a, v in zip(before, after, variables):
        assert same_on_every_rank(a), v.name
        if RANK == 0:
            np.testing.assert_array_equal(a, b, err_msg=f"{v.name}: root's values changed")
    if SIZE > 1:  # the ranks started from different weights: the broadcast did something
        assert not same_on_every_rank(before[0])
    ref, rx, ry, rtrain, rinit, _, rvariables = horovod_program(0, False)
    ref.run(rinit)
    by_name = dict(zip([v.name for v in variables], after))
    for rv in rvariables:
        rv.load(by_name[rv.name], ref)
    rng = np.random.default_rng(0)
    xs, ys = rng.standard_normal((5, GLOBAL_BATCH, 6)), rng.integers(0, 3, (5, GLOBAL_BATCH))
    shard = slice(RANK * GLOBAL_BATCH // SIZE, (RANK + 1) * GLOBAL_BATCH // SIZE)
    for step in range(5):
        sess.run(train, {x: xs[step, shard], y: ys[step, shard]})
        ref.run(rtrain, {rx: xs[step], ry: ys[step]})
        for v, value, expected in zip(variables, sess.run(variables), ref.run(rvariables)):
            assert same_on_every_rank(value), f"{v.name}: ranks differ after step {step}"
            np.testing.assert_allclose(value, expected, rtol=1e-9, atol=1e-12, err_msg=f"{v.name} step {step}")
