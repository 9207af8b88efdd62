"""hvd.grouped_allreduce, reducescatter and alltoall in one process (size 1), and the Horovod names ringflow
refuses (join, process sets) with why. Multi-rank behaviour: tests/mpi/test_horovod_collectives.py."""
import numpy as np
import pytest

import trainer as tg
import trainer.horovod as hvd


@pytest.fixture(autouse=True)
def initialized():
    tg.reset_default_graph()
    hvd.init()
    yield
    if not hvd.is_initialized():
        hvd.init()


def run(fetches):
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        return sess.run(fetches)


def test_one_rank_keeps_every_row_and_receives_its_own():
    value = np.arange(12, dtype=np.float32).reshape(4, 3)
    x = tg.Variable(value)
    scattered = hvd.reducescatter(x, op=hvd.Sum, prescale_factor=2.0, postscale_factor=0.25)
    exchanged, counts = hvd.alltoall(x, splits=[4])
    grouped = hvd.grouped_allreduce([x, x * 2.0])
    loss = tg.reduce_sum(scattered) + tg.reduce_sum(exchanged * 3.0) + tg.reduce_sum(grouped[1])
    got = run([scattered, exchanged, counts, grouped, tg.gradients(loss, [x])[0]])
    np.testing.assert_array_equal(got[0], value * 0.5)
    np.testing.assert_array_equal(got[1], value)
    np.testing.assert_array_equal(got[2], [4])
    np.testing.assert_array_equal(got[3][1], value * 2)
    np.testing.assert_array_equal(got[4], np.full((4, 3), 0.5 + 3.0 + 2.0, np.float32))


def test_new_names_are_exported_with_horovods_defaults():
    assert {"alltoall", "grouped_allreduce", "join", "reducescatter"} <= set(hvd.__all__)
    x = tg.constant(np.array([[1, 2], [3, 4]], np.int32))
    # reducescatter averages by default; an integer average of one rank is the value itself
    np.testing.assert_array_equal(run(hvd.reducescatter(x)), [[1, 2], [3, 4]])
    assert not isinstance(hvd.alltoall(x), tuple)  # without splits, the rows alone (every Horovod)


def test_alltoall_with_splits_is_the_rows_and_unpacks_as_rows_and_received_splits():
    x = tg.constant(np.arange(6, dtype=np.float32).reshape(3, 2))
    result = hvd.alltoall(x, splits=[3])  # Horovod before 0.22: the rows; 0.22 and later: (rows, received_splits)
    rows, received = result
    assert isinstance(result, tg.Tensor) and rows is result and result.name == "HorovodAlltoall:0"
    got = run([result * 2.0, received, tg.gradients(tg.reduce_sum(result), [x])[0]])
    np.testing.assert_array_equal(got[0], np.arange(6).reshape(3, 2) * 2.0)
    np.testing.assert_array_equal(got[1], [3])
    np.testing.assert_array_equal(got[2], np.ones((3, 2)))


def test_objects_travel_pickled_without_a_session():
    obj = {"metric": 0.5, 3: [1, "two"]}
    assert hvd.allgather_object(obj) == [obj]
    assert hvd.broadcast_object(obj, root_rank=0) == obj
    assert hvd.broadcast_object_fn(root_rank=0)(obj) == obj and hvd._executing_eagerly() is False


def test_join_says_collectives_are_synchronous():
    with pytest.raises(NotImplementedError, match=r"hvd.join\(\) is not implemented: ringflow's collectives are "
                                                  r"synchronous.*trainer.data.Pipeline"):
        hvd.join()


def test_process_sets_say_why_they_are_missing():
    with pytest.raises(NotImplementedError, match=r"hvd.add_process_set.*hvd.init\(comm=\[ranks\]\)"):
        hvd.add_process_set([0])
    with pytest.raises(AttributeError, match="module 'trainer.horovod' has no attribute 'no_such_name'") as info:
        hvd.no_such_name  # noqa: B018
    assert isinstance(info.value, NotImplementedError)  # one exception for every name ringflow lacks
    for call in (lambda: hvd.grouped_allreduce([tg.constant(1.0)], process_set=object()),
                 lambda: hvd.alltoall(tg.constant([1.0]), process_set=object())):
        with pytest.raises(NotImplementedError, match="ringflow has no process sets"):
            call()


def test_sync_batch_normalization_on_one_rank_is_batch_normalization():
    x = np.array([[1.0, 2.0], [3.0, 5.0], [4.0, 11.0]], np.float32)
    plain = tg.keras.layers.BatchNormalization(axis=1, fused=False).apply(tg.constant(x), training=True)
    synced = hvd.SyncBatchNormalization(axis=1)
    out = synced.apply(tg.constant(x), training=True)
    assert synced.name.startswith("sync_batch_normalization")
    assert set(synced.updates) <= set(tg.get_collection(tg.GraphKeys.UPDATE_OPS)) and synced.updates
    got = run([plain, out])
    np.testing.assert_allclose(got[1], got[0], rtol=1e-6)
    np.testing.assert_allclose(got[1].mean(axis=0), [0.0, 0.0], atol=1e-6)
    with pytest.raises(ValueError, match="does not support fused=True"):
        hvd.SyncBatchNormalization(fused=True)

