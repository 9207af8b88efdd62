"""hvd.keras's collectives on numpy values and broadcast_global_variables, in one process (identities there)."""
import numpy as np

import trainer.horovod.keras as hvd
from trainer import keras


def test_collectives_take_and_give_numpy_values():
    value = np.arange(6, dtype="float32").reshape(3, 2)
    np.testing.assert_array_equal(hvd.allreduce(value), value)
    np.testing.assert_array_equal(hvd.allreduce(value, average=False), value)
    np.testing.assert_array_equal(hvd.allgather(value), value)
    np.testing.assert_array_equal(hvd.broadcast(value, 0), value)
    assert (hvd.rank(), hvd.size()) == (0, 1)


def test_broadcast_global_variables_keeps_root_values():
    model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,))])
    before = model.get_weights()
    hvd.broadcast_global_variables(0)
    for a, b in zip(before, model.get_weights()):
        np.testing.assert_array_equal(a, b)
