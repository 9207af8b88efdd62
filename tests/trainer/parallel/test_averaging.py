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
