"""hvd.grouped_allreduce, hvd.reducescatter and hvd.alltoall under mpiexec -n N (any N, 1 included).

Each rank's tensor is built from its rank, so results and gradients have closed forms in rank and size; the
rows each rank keeps after a reducescatter follow Horovod's documented rule (the first N % size ranks get one
more row), written out here from the rule, not taken from the code under test.
"""
import numpy as np
import pytest
from mpi4py import MPI

import trainer as tg
import trainer.horovod as hvd
from tests.mpi.horovod_fixtures import backend, fresh_graph  # noqa: F401  (pytest fixtures, autouse)

WORLD = MPI.COMM_WORLD
RANK, SIZE = WORLD.Get_rank(), WORLD.Get_size()



def run(fetches):
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        return sess.run(fetches)


def same_on_every_rank(array):
    data = np.ascontiguousarray(array)
    return all(d == data.tobytes() for d in WORLD.allgather(data.tobytes()))


def share(rows, q):
    """How many of `rows` rows rank q keeps after a reducescatter: Horovod's split, from its docs."""
    return rows // SIZE + (1 if q < rows % SIZE else 0)


def my_rows(rows):
    """(start, count) of this rank's rows."""
    return sum(share(rows, q) for q in range(RANK)), share(rows, RANK)


# -- grouped_allreduce ----------------------------------------------------------------------------
def test_grouped_allreduce_is_a_list_of_allreduces_with_their_gradients():
    xs = [tg.Variable(np.full(3, float(RANK))), tg.Variable(np.full((2, 2), RANK + 1, np.float32))]
    average = hvd.grouped_allreduce(xs)
    total = hvd.grouped_allreduce(xs, op=hvd.Sum, prescale_factor=2.0, postscale_factor=0.5)
    fp16 = hvd.grouped_allreduce(xs, compression=hvd.Compression.fp16)
    # rank r weighs every result by r + 1: the gradient of the sum of the losses is the mean (sum) of r + 1
    grads = tg.gradients(tg.add_n([tg.reduce_sum(tg.cast(y, tg.float64)) * float(RANK + 1) for y in average]), xs)
    got_average, got_total, got_fp16, got_grads = run([average, total, fp16, grads])
    for got in (got_average, got_fp16):
        np.testing.assert_array_equal(got[0], np.full(3, (SIZE - 1) / 2))
        np.testing.assert_array_equal(got[1], np.full((2, 2), (SIZE + 1) / 2, np.float32))
    np.testing.assert_array_equal(got_total[0], np.full(3, SIZE * (SIZE - 1) / 2))
    assert [g.dtype for g in got_fp16] == [np.float64, np.float32]
    np.testing.assert_array_equal(got_grads[0], np.full(3, (SIZE + 1) / 2))
    np.testing.assert_array_equal(got_grads[1], np.full((2, 2), (SIZE + 1) / 2, np.float32))
    assert all(same_on_every_rank(a) for a in got_average + got_total)
    assert hvd.grouped_allreduce([]) == []


# -- reducescatter --------------------------------------------------------------------------------
@pytest.mark.parametrize("rows", [0, 1, SIZE, 2 * SIZE + 1, 7])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16, np.int32])
def test_reducescatter_keeps_this_ranks_rows_of_the_reduction(rows, dtype):
    base = np.arange(rows * 3).reshape(rows, 3) + 1  # rank r contributes (r + 1) * base
    x = tg.constant(((RANK + 1) * base).astype(dtype))
    got = run({"average": hvd.reducescatter(x), "sum": hvd.reducescatter(x, op=hvd.Sum),
               "max": hvd.reducescatter(x, op=hvd.Max), "min": hvd.reducescatter(x, op=hvd.Min)})
    start, count = my_rows(rows)
    mine = base[start:start + count]
    total = mine * (SIZE * (SIZE + 1) // 2)
    average = total / SIZE if np.dtype(dtype).kind == "f" else total // SIZE  # integers truncate, as allreduce
    expected = {"average": average, "sum": total, "max": mine * SIZE, "min": mine}
    for key, value in got.items():
        assert value.dtype == dtype and value.shape == (count, 3), key
        np.testing.assert_array_equal(value, expected[key].astype(dtype), err_msg=key)


def test_reducescatter_gives_the_extra_rows_to_the_first_ranks():
    x = tg.constant(np.arange(SIZE + 1, dtype=np.float64).reshape(-1, 1))
    got = run(hvd.reducescatter(x, op=hvd.Sum))
    expected = [[0.0], [1.0]] if RANK == 0 else [[RANK + 1.0]]  # rows 0-1, then one each
    np.testing.assert_array_equal(got, np.array(expected) * SIZE)


@pytest.mark.parametrize("op, scale", [(hvd.Sum, 1.0), (hvd.Average, 1.0), (hvd.Sum, 0.5), (hvd.Average, 3.0)])
def test_reducescatter_gradient_is_the_allgather_of_the_slices(op, scale):
    rows = 2 * SIZE + 1
    x = tg.Variable(np.ones((rows, 2)))
    y = hvd.reducescatter(x, op=op, prescale_factor=scale, postscale_factor=2.0)
    count = my_rows(rows)[1]
    # rank r weighs its k-th row by (r + 1) * (k + 1): d(sum of losses)/dx at a row rank q keeps as its k-th row
    weights = (RANK + 1) * (np.arange(count, dtype=np.float64) + 1)
    grad = tg.gradients(tg.reduce_sum(y * weights.reshape(-1, 1)), [x])[0]
    g = run(grad)
    owner = [(q, k) for q in range(SIZE) for k in range(share(rows, q))]
    factor = scale * 2.0 / (SIZE if op == hvd.Average else 1)
    expected = np.array([[(q + 1) * (k + 1) * factor] * 2 for q, k in owner])
    np.testing.assert_allclose(g, expected, rtol=1e-15)
    assert same_on_every_rank(g)


def test_reducescatter_errors_name_the_culprit():
    if SIZE > 1:
        x = tg.constant(np.ones([17 + RANK] * 2))
        with pytest.raises(tg.errors.FailedPreconditionError,
                           match=r"Mismatched reducescatter tensor shapes: rank 0 sent a tensor of shape \[17, 17\], "
                                 r"but rank 1 sent a tensor of shape \[18, 18\] \(raised at rank \d+, in "
                                 r"HorovodReducescatter op 'HorovodReducescatter'\)"):
            run(hvd.reducescatter(x))
    with pytest.raises(ValueError, match="hvd.reducescatter needs a tensor with a first dimension"):
        hvd.reducescatter(tg.constant(1.0))
    with pytest.raises(TypeError, match="cannot reduce 'Const.*' of dtype bool"):
        hvd.reducescatter(tg.constant([True]))
    with pytest.raises(NotImplementedError, match="No gradient for the max reducescatter"):
        x = tg.Variable(np.ones(SIZE))
        tg.gradients(tg.reduce_sum(hvd.reducescatter(x, op=hvd.Max)), [x])
    with pytest.raises(NotImplementedError, match="no process sets"):
        hvd.reducescatter(tg.constant([1.0]), process_set="evens")


# -- alltoall -------------------------------------------------------------------------------------
def sends(src, dst):
    """Rows rank src sends to rank dst: 0, 1 or 2, so some pairs exchange nothing."""
    return (src + 2 * dst) % 3


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.bool_])
def test_alltoall_delivers_each_ranks_rows_with_uneven_splits(dtype):
    splits = [sends(RANK, q) for q in range(SIZE)]
    # the row to rank q: [RANK, q, index among the rows to q]
    rows = [[RANK, q, i] for q in range(SIZE) for i in range(splits[q])]
    x = tg.constant(np.array(rows, np.int64).reshape(-1, 3).astype(dtype))
    received, received_splits = hvd.alltoall(x, splits=splits)
    got, got_splits = run([received, received_splits])
    expected = [[q, RANK, i] for q in range(SIZE) for i in range(sends(q, RANK))]
    np.testing.assert_array_equal(got, np.array(expected, np.int64).reshape(-1, 3).astype(dtype))
    assert got.dtype == dtype and got_splits.dtype == np.int32
    np.testing.assert_array_equal(got_splits, [sends(q, RANK) for q in range(SIZE)])


def test_alltoall_splits_evenly_without_splits_and_takes_a_splits_tensor():
    x = tg.constant(np.arange(2 * SIZE, dtype=np.float32) + 100 * RANK)
    even = hvd.alltoall(x)  # no splits: the rows alone, as in Horovod
    by_tensor, counts = hvd.alltoall(x, splits=tg.constant(np.full(SIZE, 2, np.int64)))
    got, got_by_tensor, got_counts = run([even, by_tensor, counts])
    expected = np.concatenate([100 * q + np.arange(2 * RANK, 2 * RANK + 2) for q in range(SIZE)])
    np.testing.assert_array_equal(got, expected.astype(np.float32))
    np.testing.assert_array_equal(got_by_tensor, got)
    np.testing.assert_array_equal(got_counts, np.full(SIZE, 2))
    empty, empty_counts = run(list(hvd.alltoall(tg.constant(np.zeros((0, 4))), splits=[0] * SIZE)))
    assert empty.shape == (0, 4) and list(empty_counts) == [0] * SIZE


def test_alltoall_with_splits_is_also_the_rows_tensor_as_before_horovod_0_22():
    splits = [sends(RANK, q) for q in range(SIZE)]
    x = tg.Variable(np.ones((sum(splits), 2)))
    received = hvd.alltoall(x, splits=splits)  # used as the rows themselves, as Horovod 0.19-0.21 return them
    grad = tg.gradients(tg.reduce_sum(received * float(RANK + 1)), [x])[0]
    got, got_grad = run([tg.shape(received), grad])
    assert list(got) == [sum(sends(q, RANK) for q in range(SIZE)), 2]
    expected = np.repeat(np.arange(SIZE, dtype=np.float64) + 1, splits).reshape(-1, 1) * np.ones(2)
    np.testing.assert_array_equal(got_grad, expected.reshape(-1, 2))


def test_alltoall_gradient_sends_the_gradients_back():
    splits = [sends(RANK, q) for q in range(SIZE)]
    x = tg.Variable(np.ones((sum(splits), 2)))
    received, _ = hvd.alltoall(x, splits=splits)
    # rank r weighs the rows it receives by r + 1: the rows rank r sends to q have gradient q + 1
    grad = tg.gradients(tg.reduce_sum(received * float(RANK + 1)), [x])[0]
    expected = np.repeat(np.arange(SIZE, dtype=np.float64) + 1, splits).reshape(-1, 1) * np.ones(2)
    np.testing.assert_array_equal(run(grad), expected.reshape(-1, 2))


def test_alltoall_bad_splits_raise_on_every_rank_naming_the_culprit():
    last = SIZE - 1
    x = tg.constant(np.ones((SIZE + 1, 2)))
    splits = [1] * SIZE
    splits[-1] += 1 if RANK != last else 2  # the last rank's splits sum to size + 2 rows, not size + 1
    with pytest.raises(ValueError, match=rf"Bad splits in hvd.alltoall 'HorovodAlltoall': rank {last} gave splits "
                                         rf"\[.*\] that sum to {SIZE + 2}, not to its {SIZE + 1} rows"):
        run(hvd.alltoall(x, splits=splits))
    with pytest.raises(ValueError, match=rf"rank 0 gave {SIZE + 1} splits for {SIZE} ranks; rank 1"
                       if SIZE > 1 else r"rank 0 gave 2 splits for 1 ranks"):
        run(hvd.alltoall(x, splits=[0] * (SIZE - 1) + [SIZE + 1, 0]))
    with pytest.raises(ValueError, match=r"rank 0 gave splits \[-1.*\] with a negative entry"):
        run(hvd.alltoall(x, splits=[-1] + [0] * (SIZE - 2) + [SIZE + 2] if SIZE > 1 else [-1]))
    if SIZE > 1:
        with pytest.raises(ValueError, match=rf"rank 0 gave no splits but its {SIZE + 1} rows do not divide evenly "
                                             rf"among {SIZE} ranks"):
            run(hvd.alltoall(x))
    got, _ = run(list(hvd.alltoall(x, splits=[SIZE + 1] + [0] * (SIZE - 1))))  # the communicator still works
    assert got.shape == ((SIZE + 1) * SIZE if RANK == 0 else 0, 2)


def test_alltoall_build_errors_and_trailing_dims_that_differ():
    with pytest.raises(ValueError, match="hvd.alltoall needs a tensor with a first dimension"):
        hvd.alltoall(tg.constant(1.0))
    with pytest.raises(TypeError, match="hvd.alltoall needs splits as a 1-D integer tensor"):
        hvd.alltoall(tg.constant([1.0]), splits=[1.0] * SIZE)
    if SIZE > 1:
        x = tg.constant(np.ones((SIZE, 2 + RANK)))
        with pytest.raises(tg.errors.FailedPreconditionError,
                           match="Mismatched alltoall tensor shapes: rank 0 sent a tensor with dimension 1 equal to 2, "
                                 "but rank 1 sent a tensor with dimension 1 equal to 3"):
            run(hvd.alltoall(x))


def test_ranks_in_different_collectives_are_told_which():
    if SIZE == 1:
        pytest.skip("one rank is always in its own collective")
    x = tg.constant(np.ones((SIZE, 2)))
    op = hvd.alltoall(x, name="exchange") if RANK == 0 else hvd.reducescatter(x, name="scatter")
    with pytest.raises(tg.errors.FailedPreconditionError,
                       match=r"Mismatched collectives: Ranks are in different collectives: rank 0 is in hvd.alltoall "
                             r"'exchange' while ranks? .* in hvd.reducescatter 'scatter'"):
        run(op)
    tg.reset_default_graph()
    got = run(hvd.grouped_allreduce([tg.constant([float(RANK)])], op=hvd.Sum))  # the communicator still works
    np.testing.assert_array_equal(got[0], [SIZE * (SIZE - 1) / 2])


# -- objects --------------------------------------------------------------------------------------
def test_allgather_object_gives_every_ranks_object_in_rank_order():
    mine = {"rank": RANK, "extra": list(range(RANK))}  # a different pickled length on each rank
    assert hvd.allgather_object(mine) == [{"rank": q, "extra": list(range(q))} for q in range(SIZE)]


@pytest.mark.parametrize("root", sorted({0, SIZE - 1}))
def test_broadcast_object_gives_roots_object_to_every_rank(root):
    mine = {"from": RANK, "payload": "x" * (10 * RANK)} if RANK == root else None
    expected = {"from": root, "payload": "x" * (10 * root)}
    assert hvd.broadcast_object(mine, root_rank=root) == expected
    assert hvd.broadcast_object_fn(root_rank=root)(mine) == expected


# -- SyncBatchNormalization -----------------------------------------------------------------------
def test_sync_batch_normalization_normalizes_each_ranks_rows_by_the_global_batch():
    def rows(q):
        return np.array([[q, q + 1.0], [2.0 * q, 3.0 - q]], np.float32)  # each rank's own batch of 2
    everyone = np.concatenate([rows(q) for q in range(SIZE)])
    mean, var = everyone.mean(axis=0), everyone.var(axis=0)  # the global batch's (biased) statistics
    out = hvd.SyncBatchNormalization(axis=1, epsilon=1e-3).apply(tg.constant(rows(RANK)), training=True)
    got = run(out)
    np.testing.assert_allclose(got, (rows(RANK) - mean) / np.sqrt(var + 1e-3), rtol=1e-5, atol=1e-5)
