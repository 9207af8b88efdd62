"""LocallyConnected1D/2D in Keras' three weight layouts against graph-mode tf.keras (keras_attention_local.npz,
recorded by fixtures/record_keras_attention_local.py): outputs, gradients, get_weights shapes and configs."""
import json
import pathlib

import numpy as np
import pytest

from trainer import keras

from .oracle import recorded_case, run_layer

FIXTURE = np.load(pathlib.Path(__file__).parent.parent / "fixtures" / "keras_attention_local.npz")
CONFIGS = json.loads(str(FIXTURE["configs"]))
LAYERS = {
    "local1d": lambda: keras.layers.LocallyConnected1D(3, 3, strides=2, activation="tanh"),
    "local1d_impl2_same": lambda: keras.layers.LocallyConnected1D(2, 3, padding="same", implementation=2),
    "local1d_impl3": lambda: keras.layers.LocallyConnected1D(2, 2, strides=2, implementation=3, use_bias=False),
    "local2d": lambda: keras.layers.LocallyConnected2D(3, (2, 3), strides=(1, 2), activation="relu"),
    "local2d_impl2_same": lambda: keras.layers.LocallyConnected2D(2, 3, strides=2, padding="same", implementation=2),
    "local2d_impl3": lambda: keras.layers.LocallyConnected2D(2, (2, 2), implementation=3),
}


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_locally_connected_matches_tf_keras(name):
    case = recorded_case(FIXTURE, name)
    layer = LAYERS[name]()
    out, dxs, dws, _ = run_layer(layer, *case["x"], r=case["r"], weights=case["w"])
    assert [w.shape for w in layer.get_weights()] == [w.shape for w in case["w"]]
    np.testing.assert_allclose(out, case["out"], rtol=1e-5, atol=1e-5)
    assert len(dxs + dws) == len(case["grad"])
    for got, want in zip(dxs + dws, case["grad"]):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_locally_connected_config_is_keras(name):
    layer = LAYERS[name]()
    run_layer(layer, *recorded_case(FIXTURE, name)["x"])
    config, want = layer.get_config(), CONFIGS[name]
    for key in ("filters", "kernel_size", "strides", "padding", "data_format", "activation", "use_bias",
                "implementation"):
        assert json.loads(json.dumps(config[key])) == want[key], key
    again = type(layer).from_config(config)
    assert again.get_config() == dict(config, name=again.name)


def test_locally_connected_refuses_what_keras_refuses():
    with pytest.raises(ValueError, match="implementation is 1"):
        keras.layers.LocallyConnected1D(2, 3, padding="same")
    with pytest.raises(ValueError, match="channels_last"):
        keras.layers.LocallyConnected2D(2, 3, data_format="channels_first")
