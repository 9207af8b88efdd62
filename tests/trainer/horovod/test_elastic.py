"""hvd.elastic's state objects in one process: commit saves, restore goes back to the last commit, sync keeps
rank 0's values (here its own), run syncs then calls. Rank 0's values reaching the other ranks:
tests/mpi/test_horovod_keras.py."""
import numpy as np
import pytest

import trainer as tg
import trainer.horovod as hvd
import trainer.horovod.keras as hvd_keras
from trainer import keras
from trainer.keras import backend as K


@pytest.fixture(autouse=True)
def fresh():
    K.clear_session()
    hvd.init()
    yield
    K.clear_session()


def test_tensorflow_state_restores_variables_and_attributes_to_the_last_commit():
    v = tg.Variable(np.ones((2, 2)))
    with tg.Session() as sess:
        sess.run(v.initializer)
        state = hvd.elastic.TensorFlowState([v], batch=3, epoch=1)
        v.load(np.zeros((2, 2)))
        state.batch = 4
        state.restore()
        np.testing.assert_array_equal(sess.run(v), np.ones((2, 2)))
        assert (state.batch, state.epoch) == (3, 1)
        v.load(np.full((2, 2), 7.0))
        state.batch = 5
        state.commit()
        v.load(np.zeros((2, 2)))
        state.restore()
        np.testing.assert_array_equal(sess.run(v), np.full((2, 2), 7.0))
        assert state.batch == 5


def test_a_state_without_a_session_says_how_to_give_one():
    v = tg.Variable(1.0)
    with pytest.raises(RuntimeError, match="TensorFlowState needs a session.*session="):
        hvd.elastic.TensorFlowState([v])


def test_keras_state_keeps_model_and_optimizer_weights_and_run_syncs_first():
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(2,), kernel_initializer="ones")])
    model.compile(keras.optimizers.Adam(0.1), "mse")
    model.train_on_batch(np.ones((1, 2)), np.zeros((1, 1)))
    state = hvd_keras.elastic.KerasState(model, batch=0, epoch=0)
    saved, slots = model.get_weights(), model.optimizer.get_weights()
    model.train_on_batch(np.ones((1, 2)), np.zeros((1, 1)))
    state.restore()
    assert all(np.array_equal(a, b) for a, b in zip(model.get_weights() + model.optimizer.get_weights(),
                                                    saved + slots))

    @hvd_keras.elastic.run
    def train(state, epochs):
        callbacks = [hvd_keras.elastic.UpdateEpochStateCallback(state),
                     hvd_keras.elastic.UpdateBatchStateCallback(state), hvd_keras.elastic.CommitStateCallback(state)]
        model.fit(np.ones((4, 2)), np.zeros((4, 1)), batch_size=2, epochs=epochs, callbacks=callbacks, verbose=0)
        return state.epoch, state.batch

    assert train(state, 2) == (2, 0)


def test_keras_state_needs_a_built_model():
    with pytest.raises(ValueError, match="must be built first.*model.build"):
        hvd_keras.elastic.KerasState(keras.Sequential([keras.layers.Dense(1)]), keras.optimizers.SGD())
