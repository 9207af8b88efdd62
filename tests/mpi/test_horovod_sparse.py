"""hvd.allreduce and hvd.grouped_allreduce of an IndexedSlices under mpiexec -n N (any N, 1 included).

Horovod does not reduce an IndexedSlices: it allgathers its values and its indices, so the result holds every
rank's rows in rank order, repeated indices kept, the values divided by size() for hvd.Average, with this rank's
dense_shape. Each rank's rows are built from its rank, so the expected slices are written out here in closed form.
"""
import numpy as np
import pytest
from mpi4py import MPI

import trainer as tg
import trainer.horovod as hvd
from tests.mpi.horovod_fixtures import backend, fresh_graph  # noqa: F401  (pytest fixtures, autouse)

WORLD = MPI.COMM_WORLD
RANK, SIZE = WORLD.Get_rank(), WORLD.Get_size()
ROWS, WIDTH = 4, 2


def rows_of(q, count):
    """Rank q's (values, indices): `count` rows at indices q, q + 1, ... (mod ROWS), the first index named twice
    (so each rank has a duplicate) when count > 0."""
    indices = [(q + k) % ROWS for k in range(count)] + [q % ROWS] * (count > 0)
    values = np.arange(len(indices) * WIDTH, dtype=np.float64).reshape(-1, WIDTH) + 10.0 * q
    return values, np.array(indices, np.int64)


def slices_of(count):
    values, indices = rows_of(RANK, count(RANK))
    return tg.IndexedSlices(tg.constant(values), tg.constant(indices), tg.constant([ROWS, WIDTH], tg.int64))


def expected(count, divide):
    values, indices = zip(*(rows_of(q, count(q)) for q in range(SIZE)))
    return np.concatenate(values) / divide, np.concatenate(indices)


def dense(values, indices):
    out = np.zeros((ROWS, WIDTH))
    np.add.at(out, indices, values)
    return out


def same_on_every_rank(*arrays):
    data = b"".join(np.ascontiguousarray(a).tobytes() for a in arrays)
    return all(d == data for d in WORLD.allgather(data))


def run(fetches):
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        return sess.run(fetches)


@pytest.mark.parametrize("count", [lambda q: q + 1, lambda q: q], ids=["rows-on-every-rank", "rank-0-has-none"])
@pytest.mark.parametrize("op, divide", [(hvd.Average, SIZE), (hvd.Sum, 1)], ids=["average", "sum"])
def test_allreduce_of_indexed_slices_gathers_every_ranks_rows_in_rank_order(count, op, divide):
    out = hvd.allreduce(slices_of(count), op=op)
    assert isinstance(out, tg.IndexedSlices)
    got, as_dense = run([out, tg.convert_to_tensor(out)])
    values, indices = expected(count, divide)
    np.testing.assert_array_equal(got.values, values)
    np.testing.assert_array_equal(got.indices, indices)
    np.testing.assert_array_equal(got.dense_shape, [ROWS, WIDTH])
    # made dense, the duplicates add up: the sum (the mean) of the ranks' dense tensors
    np.testing.assert_allclose(as_dense, dense(values, indices), rtol=1e-15)
    assert same_on_every_rank(got.values, got.indices, as_dense)


def test_min_max_product_gather_like_sum_and_scale_factors_and_compression_are_ignored_as_in_horovod():
    count = lambda q: q + 1  # noqa: E731
    outs = [hvd.allreduce(slices_of(count), op=op) for op in (hvd.Min, hvd.Max, hvd.Product)]
    outs.append(hvd.allreduce(slices_of(count), op=hvd.Sum, prescale_factor=2.0, postscale_factor=3.0,
                              compression=hvd.Compression.fp16))
    values, indices = expected(count, 1)
    for got in run(outs):
        np.testing.assert_array_equal(got.values, values)
        np.testing.assert_array_equal(got.indices, indices)


def test_the_gradient_of_the_gathered_values_reaches_every_ranks_own_rows():
    values, indices = rows_of(RANK, RANK + 1)
    var = tg.Variable(values)
    slices = tg.IndexedSlices(var, tg.constant(indices), tg.constant([ROWS, WIDTH], tg.int64))
    average, total = hvd.allreduce(slices), hvd.allreduce(slices, op=hvd.Sum)
    # every rank's loss is the sum of all gathered values: the total loss counts each row SIZE times
    got = run(tg.gradients(tg.reduce_sum(average.values), var) + tg.gradients(tg.reduce_sum(total.values), var))
    np.testing.assert_allclose(got[0], np.ones_like(values))
    np.testing.assert_allclose(got[1], np.full_like(values, SIZE))


def test_grouped_allreduce_gathers_slices_and_reduces_dense_tensors():
    count = lambda q: q + 1  # noqa: E731
    dense_in = tg.constant(np.full(3, float(RANK)))
    sparse_out, dense_out = hvd.grouped_allreduce([slices_of(count), dense_in])
    assert isinstance(sparse_out, tg.IndexedSlices)
    got_sparse, got_dense = run([sparse_out, dense_out])
    values, indices = expected(count, SIZE)
    np.testing.assert_array_equal(got_sparse.values, values)
    np.testing.assert_array_equal(got_sparse.indices, indices)
    np.testing.assert_allclose(got_dense, np.full(3, (SIZE - 1) / 2))


def test_adasum_refuses_indexed_slices_on_every_rank_as_horovod_does():
    for reduce in (lambda s: hvd.allreduce(s, op=hvd.Adasum), lambda s: hvd.grouped_allreduce([s], op=hvd.Adasum)):
        with pytest.raises(NotImplementedError, match="Adasum.*sparse_as_dense=True"):
            reduce(slices_of(lambda q: q + 1))
