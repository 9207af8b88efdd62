"""Recurrent layers over a padded, masked batch against real Keras' outputs with the same weights, recorded by
tests/trainer/keras/fixtures/record_real_keras_rnn.py (the fixture names the TensorFlow and tf-keras versions).
Valid steps and final states are compared: at masked steps TF 2's layers output zeros where TF 1.15's, and so
ringflow's, repeat the previous output (test_masking.py holds that)."""
from pathlib import Path

import numpy as np
import pytest

from trainer import keras

FIXTURE = np.load(Path(__file__).parent.parent / "fixtures" / "real_keras_rnn.npz")
X = FIXTURE["x"]
LENGTHS = [6, 4, 2]
CASES = {
    "lstm": lambda: keras.layers.LSTM(5, recurrent_activation="sigmoid", return_sequences=True, return_state=True),
    "gru": lambda: keras.layers.GRU(5, recurrent_activation="sigmoid", return_sequences=True, return_state=True),
    "gru_reset_after": lambda: keras.layers.GRU(5, recurrent_activation="sigmoid", reset_after=True,
                                                return_sequences=True, return_state=True),
    "simple_rnn": lambda: keras.layers.SimpleRNN(5, return_sequences=True, return_state=True),
    "bidirectional": lambda: keras.layers.Bidirectional(
        keras.layers.LSTM(5, recurrent_activation="sigmoid", return_sequences=True)),
    "backwards": lambda: keras.layers.GRU(5, recurrent_activation="sigmoid", go_backwards=True),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_masked_batch_matches_real_keras(name):
    inputs = keras.Input((None, 4))
    model = keras.Model(inputs, CASES[name]()(keras.layers.Masking()(inputs)))
    weights = [FIXTURE[f"{name}/weight_{i}"] for i in range(len(model.get_weights()))]
    model.set_weights(weights)
    got = model.predict(X)
    got = got if isinstance(got, list) else [got]
    for i, out in enumerate(got):
        want = FIXTURE[f"{name}/output_{i}"]
        if out.ndim == 3:  # a sequence: the valid steps of each row
            for row, n in enumerate(LENGTHS):
                np.testing.assert_allclose(out[row, :n], want[row, :n], rtol=1e-5, atol=1e-6)
        else:
            np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-6)
