"""The gradient-averaging core at one rank: each session's plans use the buckets of that session's device."""
import numpy as np
from mpi4py import MPI

import allreduce
import trainer as tg
from tests.trainer import strict_device
from trainer.framework.registry import op_def
from trainer.parallel.averaging import average_gradients


def test_two_sessions_on_different_devices_each_keep_their_own_buckets():
    graph = tg.Graph()
    with graph.as_default():
        w = tg.Variable(np.arange(3.0), name="w")
        loss = tg.reduce_sum(w * w)
        pairs, _ = average_gradients([(tg.gradients(loss, [w])[0], w)],
                                     allreduce.create_communicator("mpi", comm=MPI.COMM_SELF))
        averaged = pairs[0][0]
        init = tg.global_variables_initializer()
    host, device = tg.Session(graph=graph), tg.Session(graph=graph, device=strict_device.use())
    for session in (host, device, host):  # the host session's second plan comes after the device's first
        session.run(init)
        np.testing.assert_array_equal(session.run(averaged), [0.0, 2.0, 4.0])
        np.testing.assert_array_equal(session.run([averaged, loss])[0], [0.0, 2.0, 4.0])
    destinations = op_def(averaged.op.type).destinations
    assert all(type(b) is np.ndarray for b in destinations(averaged.op, host))
    assert all(type(b) is strict_device.StrictArray for b in destinations(averaged.op, device))
    assert all(type(b) is np.ndarray for b in destinations(averaged.op, host))


def test_a_gathers_gradient_comes_back_as_the_rows_named():
    graph = tg.Graph()
    with graph.as_default():
        table = tg.Variable(np.arange(12.0).reshape(6, 2), name="table")
        w = tg.Variable(np.ones(2), name="w")
        loss = tg.reduce_sum(tg.gather(table, [4, 1, 4]) * w)
        grads = tg.gradients(loss, [table, w])
        comm = allreduce.create_communicator("mpi", comm=MPI.COMM_SELF)
        sparse, _ = average_gradients(list(zip(grads, [table, w])), comm)
        dense, _ = average_gradients(list(zip(grads, [table, w])), comm, sparse=False)
        init = tg.global_variables_initializer()
    with tg.Session(graph=graph) as sess:
        sess.run(init)
        rows, w_grad = sess.run([g for g, _ in sparse])
        np.testing.assert_array_equal(rows.indices, [1, 4])  # distinct and ascending: the repeat summed
        np.testing.assert_array_equal(rows.values, [[1.0, 1.0], [2.0, 2.0]])
        np.testing.assert_array_equal(rows.dense_shape, [6, 2])
        np.testing.assert_array_equal(w_grad, [8.0 + 2.0 + 8.0, 9.0 + 3.0 + 9.0])
        table_grad = sess.run(dense[0][0])
    assert isinstance(table_grad, np.ndarray)
    np.testing.assert_array_equal(table_grad[[1, 4]], [[1.0, 1.0], [2.0, 2.0]])
    np.testing.assert_array_equal(table_grad[[0, 2, 3, 5]], 0.0)
