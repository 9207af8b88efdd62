"""Recurrent features against graph-mode tf.keras' outputs with the same weights, recorded by
tests/trainer/keras/fixtures/record_keras_rnn_features.py: stateful layers (states carried across batches, predict's
batches included, reset by the layer or the model, or set to given values), time_major, unroll with go_backwards
and initial_state, and ConvLSTM2D."""
from pathlib import Path

import numpy as np
import pytest

from trainer import keras
from trainer.keras import backend as K
from trainer.keras.utils.generic_utils import to_list

FIXTURE = np.load(Path(__file__).parent.parent / "fixtures" / "keras_rnn_features.npz")


def given(name, model):
    count = len(model.get_weights())
    model.set_weights([FIXTURE[f"{name}/weight_{i}"] for i in range(count)])


def close(got, name, rtol=1e-5):
    np.testing.assert_allclose(got, FIXTURE[name], rtol=rtol, atol=1e-6, err_msg=name)


def stateful_model():
    inputs = keras.Input(batch_shape=(2, 3, 4))
    lstm = keras.layers.LSTM(5, stateful=True, recurrent_activation="sigmoid", name="lstm")
    model = keras.Model(inputs, keras.layers.Dense(1, name="head")(lstm(inputs)))
    given("stateful", model)
    return model, lstm


def test_a_stateful_lstm_carries_its_states_across_batches():
    model, lstm = stateful_model()
    x = FIXTURE["stateful/x"]
    close(model.predict(x[:2], batch_size=2), "stateful/first")
    close(model.predict(x[2:], batch_size=2), "stateful/second")
    lstm.reset_states()
    close(model.predict(x[2:], batch_size=2), "stateful/after_reset")
    model.reset_states()
    close(model.predict(x, batch_size=2), "stateful/predict_4")
    lstm.reset_states([FIXTURE["stateful/h"], FIXTURE["stateful/c"]])
    close(model.predict(x[:2], batch_size=2), "stateful/from_states")
    assert len(model.get_weights()) == 5  # the states are not weights


def test_a_stateful_lstm_trains_from_the_states_of_the_batch_before():
    model, lstm = stateful_model()
    x, y = FIXTURE["stateful/x"], FIXTURE["stateful/y"]
    model.reset_states()
    model.compile(keras.optimizers.SGD(0.1), "mse")
    losses = [model.train_on_batch(x[:2], y[:2]), model.train_on_batch(x[2:], y[2:]),
              model.train_on_batch(x[:2], y[:2])]
    close(losses, "stateful/train_losses")
    for i, w in enumerate(model.get_weights()):
        close(w, f"stateful/trained_{i}")
    for value, name in zip(K.batch_get_value(lstm.states), ["stateful/state_h", "stateful/state_c"]):
        close(value, name)


def test_stateful_layers_need_a_batch_size_and_states_of_its_shape():
    with pytest.raises(ValueError, match="needs to know its batch size"):
        keras.layers.SimpleRNN(3, stateful=True)(keras.Input((None, 2)))
    rnn = keras.layers.SimpleRNN(3, stateful=True)
    rnn(keras.Input(batch_shape=(4, None, 2)))
    with pytest.raises(ValueError, match=r"expected shape \(4, 3\) but got array with shape \(2, 3\)"):
        rnn.reset_states([np.zeros((2, 3))])
    with pytest.raises(AttributeError, match="must be stateful"):
        keras.layers.GRU(2).reset_states()
    model = keras.Sequential([keras.layers.GRU(2, stateful=True, batch_input_shape=(3, 5, 1))])
    assert model.stateful and model.predict(np.ones((3, 5, 1))).shape == (3, 2)


def test_time_major_takes_and_gives_time_first():
    inputs = keras.Input((2, 4))
    model = keras.Model(inputs, keras.layers.LSTM(5, time_major=True, return_sequences=True, return_state=True,
                                                  recurrent_activation="sigmoid")(inputs))
    given("time_major", model)
    outputs = K.function([inputs], model.outputs)([FIXTURE["time_major/x"]])
    assert [K.int_shape(t) for t in model.outputs] == [(None, 2, 5), (2, 5), (2, 5)]
    for i, out in enumerate(outputs):
        close(out, f"time_major/output_{i}")


def test_unrolled_backwards_gru_from_an_initial_state():
    inputs, h0 = keras.Input((4, 3)), keras.Input((5,))
    gru = keras.layers.GRU(5, unroll=True, go_backwards=True, reset_after=True, recurrent_activation="sigmoid",
                           return_sequences=True)
    model = keras.Model([inputs, h0], gru(inputs, initial_state=[h0]))
    given("unrolled", model)
    close(model.predict([FIXTURE["unrolled/x"], FIXTURE["unrolled/h0"]]), "unrolled/output")


CONV_LSTMS = {
    "conv_lstm_same": lambda: keras.layers.ConvLSTM2D(3, (3, 3), padding="same", return_sequences=True,
                                                      recurrent_activation="sigmoid"),
    "conv_lstm_valid": lambda: keras.layers.ConvLSTM2D(2, (2, 3), strides=(2, 1), return_state=True,
                                                       recurrent_activation="sigmoid", activation="relu"),
    "conv_lstm_backwards": lambda: keras.layers.ConvLSTM2D(2, 3, padding="same", go_backwards=True,
                                                           recurrent_activation="sigmoid", use_bias=False),
}


@pytest.mark.parametrize("name", sorted(CONV_LSTMS))
def test_conv_lstm_2d_matches_tf_keras(name):
    inputs = keras.Input((4, 6, 5, 2))
    layer = CONV_LSTMS[name]()
    model = keras.Model(inputs, layer(inputs))
    # TF 1.15 names the layer conv_lst_m2d (its to_snake_case splits "M2"); TF 2.15 names it conv_lstm2d
    want = [n.replace("conv_lstm2d", "conv_lst_m2d") for n in FIXTURE[f"{name}/weight_names"]]
    assert [w.name for w in model.weights] == want
    assert model.count_params() == FIXTURE[f"{name}/params"]
    given(name, model)
    got = model.predict(FIXTURE[f"{name}/x"])
    for i, out in enumerate(got if isinstance(got, list) else [got]):
        assert K.int_shape(to_list(model.outputs)[i])[1:] == out.shape[1:]
        close(out, f"{name}/output_{i}")
    clone = keras.layers.ConvLSTM2D.from_config(layer.get_config())
    assert clone.get_config() == layer.get_config()


def test_a_stateful_conv_lstm_2d_carries_its_states():
    inputs = keras.Input(batch_shape=(2, None, 4, 4, 1))
    layer = keras.layers.ConvLSTM2D(2, 3, stateful=True, return_sequences=True)
    model = keras.Model(inputs, layer(inputs))
    x = np.random.RandomState(0).uniform(-1, 1, (2, 3, 4, 4, 1)).astype(np.float32)
    first, second = model.predict(x[:, :2]), model.predict(x[:, 2:])
    model.reset_states()
    np.testing.assert_allclose(np.concatenate([first, second], 1), model.predict(x), rtol=1e-5, atol=1e-6)
    assert [K.int_shape(s) for s in layer.states] == [(2, 2, 2, 2)] * 2


def test_conv_lstm_2d_trains_with_dropout_and_predicts_without():
    model = keras.Sequential([keras.layers.ConvLSTM2D(2, 3, padding="same", dropout=0.5, recurrent_dropout=0.5,
                                                      input_shape=(None, 4, 4, 1)),
                              keras.layers.GlobalAveragePooling2D(), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    x = np.random.RandomState(1).uniform(-1, 1, (4, 3, 4, 4, 1)).astype(np.float32)
    before = model.get_weights()
    history = model.fit(x, np.ones((4, 1)), epochs=2, verbose=0)
    assert np.all(np.isfinite(history.history["loss"]))
    assert all(np.any(a != b) for a, b in zip(before, model.get_weights()))
    np.testing.assert_array_equal(model.predict(x), model.predict(x))
