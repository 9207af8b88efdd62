"""tf.keras.experimental.WideDeepModel against graph-mode tf.keras (fixtures/keras_feature_layers.json, recorded by
fixtures/record_keras_feature_layers.py): a LinearModel trained by SGD and a DNN by Adagrad on their averaged
output, on one input for both or one each."""
import json
import os

import numpy as np
import pytest

from trainer import keras

with open(os.path.join(os.path.dirname(__file__), "..", "fixtures", "keras_feature_layers.json")) as f:
    ORACLE = json.load(f)


def model_and_data(same_inputs):
    x = np.linspace(-1.0, 1.0, 16, dtype="float32").reshape(8, 2)
    y = (x[:, :1] * 2.0 - x[:, 1:] + 0.5).astype("float32")
    const = keras.initializers.Constant
    dnn = keras.Sequential([keras.layers.Dense(3, "relu", kernel_initializer=const(0.3)),
                            keras.layers.Dense(1, kernel_initializer=const(0.2))])
    model = keras.experimental.WideDeepModel(keras.experimental.LinearModel(), dnn)
    return model, (x if same_inputs else [x, x[:, ::-1]]), y


@pytest.mark.parametrize("case", ["wide_deep", "wide_deep_two_inputs"])
def test_each_part_trains_with_its_own_optimizer_as_tf_keras(case):
    model, data, y = model_and_data(case == "wide_deep")
    model.compile([keras.optimizers.SGD(0.1), keras.optimizers.Adagrad(0.05)], "mse")
    history = model.fit(data, y, batch_size=4, epochs=3, shuffle=False, verbose=0)
    expected = ORACLE[case]
    np.testing.assert_allclose(history.history["loss"], expected["loss"], rtol=1e-5)
    np.testing.assert_allclose(model.predict(data), expected["predict"], rtol=1e-5, atol=1e-6)
    for got, want in zip(model.linear_model.get_weights() + model.dnn_model.get_weights(),
                         expected["linear"] + expected["dnn"]):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_two_optimizers_are_refused_by_a_model_that_does_not_say_what_each_trains():
    inputs = keras.Input((2,))
    model = keras.Model(inputs, keras.layers.Dense(1)(inputs))
    model.compile([keras.optimizers.SGD(0.1), keras.optimizers.SGD(0.1)], "mse")
    with pytest.raises(ValueError, match="compiled with 2 optimizers"):
        model.fit(np.zeros((2, 2)), np.zeros((2, 1)), verbose=0)


def test_its_config_holds_both_models_and_makes_the_same_model():
    model, data, y = model_and_data(True)
    model.compile("sgd", "mse")
    model.fit(data, y, epochs=1, verbose=0)
    config = model.get_config()
    assert (config["linear_model"]["class_name"], config["dnn_model"]["class_name"]) == ("LinearModel", "Sequential")
    again = keras.experimental.WideDeepModel.from_config(config)
    again.predict(data)
    again.set_weights(model.get_weights())
    np.testing.assert_allclose(again.predict(data), model.predict(data), rtol=1e-6)
    assert again.get_config()["linear_model"] == config["linear_model"]
