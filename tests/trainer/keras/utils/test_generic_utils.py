"""Keras' Progbar lines, and the custom objects: the global registry and its scopes, seen by every
deserialization (layers in model configs, activations, metrics)."""
import re

import numpy as np
import pytest

from trainer import keras
from trainer.keras.utils import Progbar


def test_progbar_verbose_1_draws_the_bar_eta_and_the_averages(capsys):
    bar = Progbar(10, verbose=1, interval=0)
    bar.update(4, [("loss", 1.0)])
    bar.update(10, [("loss", 2.0)])
    drawn = capsys.readouterr().out.split("\r")[1:]
    assert re.fullmatch(r" 4/10 \[===========>\.{18}\] - ETA: \ds - loss: 1\.0000", drawn[0])
    # the average weights each value by the steps it covers: (4 * 1 + 6 * 2) / 10
    assert re.fullmatch(r"10/10 \[={30}\] - \ds \d+[mu]?s/step - loss: 1\.6000\n", drawn[1])


def test_progbar_verbose_2_prints_one_line_at_the_end(capsys):
    bar = Progbar(3, verbose=2, unit_name="sample")
    bar.update(1, [("acc", 0.5)])
    assert capsys.readouterr().out == ""
    bar.update(3, [("acc", 1e-5)])
    assert re.fullmatch(r"3/3 - \ds - acc: 0\.1667\n", capsys.readouterr().out)  # (0.5 + 2e-5) / 3
    bar = Progbar(3, verbose=2, stateful_metrics=["acc"])
    bar.update(3, [("acc", 1e-5)])
    assert re.fullmatch(r"3/3 - \ds - acc: 1\.0000e-05\n", capsys.readouterr().out)


class Twice(keras.layers.Layer):
    def call(self, inputs):
        return inputs * 2.0


def scaled_tanh(x):
    return 1.5 * keras.backend.tanh(x)


def test_custom_object_scope_lets_configs_name_the_users_classes():
    inputs = keras.Input((2,))
    model = keras.Model(inputs, Twice(name="twice")(keras.layers.Dense(2, activation=scaled_tanh)(inputs)))
    config = model.to_json().replace("Twice", "MyTwice")
    with pytest.raises(ValueError, match="Unknown"):
        keras.models.model_from_json(config)
    with keras.utils.custom_object_scope({"MyTwice": Twice, "scaled_tanh": scaled_tanh}):
        clone = keras.models.model_from_json(config)
        assert keras.utils.get_custom_objects()["MyTwice"] is Twice
    assert "MyTwice" not in keras.utils.get_custom_objects()  # the scope's names leave with it
    clone.set_weights(model.get_weights())
    x = np.ones((1, 2), np.float32)
    np.testing.assert_allclose(clone.predict(x), model.predict(x))


def test_registered_custom_objects_deserialize_anywhere():
    keras.utils.get_custom_objects()["scaled_tanh"] = scaled_tanh
    try:
        assert keras.activations.get("scaled_tanh") is scaled_tanh
        assert keras.utils.deserialize_keras_object("scaled_tanh", {}) is scaled_tanh
    finally:
        del keras.utils.get_custom_objects()["scaled_tanh"]
    with keras.utils.CustomObjectScope({"auc_like": keras.metrics.AUC}):
        assert isinstance(keras.metrics.get({"class_name": "auc_like", "config": {}}), keras.metrics.AUC)
