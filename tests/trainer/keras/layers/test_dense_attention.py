"""Attention and AdditiveAttention against graph-mode tf.keras (keras_attention_local.npz, recorded by
fixtures/record_keras_attention_local.py): outputs, gradients for the inputs and the scale, weights, masks, the
causal mask and the configs."""
import json
import pathlib

import numpy as np
import pytest

import trainer as tg
from trainer import keras

from .oracle import recorded_case, run_layer

FIXTURE = np.load(pathlib.Path(__file__).parent.parent / "fixtures" / "keras_attention_local.npz")
CONFIGS = json.loads(str(FIXTURE["configs"]))
LAYERS = {
    "attention": lambda: keras.layers.Attention(),
    "attention_scaled_causal_key": lambda: keras.layers.Attention(use_scale=True, causal=True),
    "attention_masked": lambda: keras.layers.Attention(),
    "additive": lambda: keras.layers.AdditiveAttention(),
    "additive_unscaled_causal": lambda: keras.layers.AdditiveAttention(use_scale=False, causal=True),
    "additive_masked_key": lambda: keras.layers.AdditiveAttention(),
}


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_attention_matches_tf_keras(name):
    case = recorded_case(FIXTURE, name)
    layer = LAYERS[name]()
    kwargs = {"mask": [tg.constant(m) for m in case["mask"]]} if case["mask"] else {}
    out, dxs, dws, _ = run_layer(layer, *case["x"], r=case["r"], weights=case["w"], **kwargs)
    assert [w.shape for w in layer.get_weights()] == [w.shape for w in case["w"]]
    np.testing.assert_allclose(out, case["out"], rtol=1e-5, atol=1e-6)
    for got, want in zip(dxs + dws, case["grad"]):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    assert len(dxs + dws) == len(case["grad"])


@pytest.mark.parametrize("name", ["attention_scaled_causal_key", "additive_unscaled_causal"])
def test_attention_config_round_trips(name):
    layer = LAYERS[name]()
    config = layer.get_config()
    for key in ("use_scale", "trainable"):  # TF 2.15 moved `causal` to a call argument; 1.15 kept no config
        assert config[key] == CONFIGS[name][key]
    again = type(layer).from_config(config)
    assert (again.causal, again.use_scale) == (layer.causal, layer.use_scale)


def test_attention_takes_the_embedding_mask_in_a_model():
    tokens = keras.Input((4,), dtype="int32")
    embedding = keras.layers.Embedding(10, 3, mask_zero=True)
    embedded = embedding(tokens)
    attended = keras.layers.Attention()([embedded, embedded])
    out = keras.Model(tokens, attended).predict(np.array([[1, 2, 0, 0], [3, 4, 5, 6]]))
    table = embedding.get_weights()[0]
    e = table[[1, 2]]  # the first row's unmasked steps: the padding is neither attended to nor answered
    weights = np.exp(e @ e.T - (e @ e.T).max(-1, keepdims=True))
    np.testing.assert_allclose(out[0, :2], (weights / weights.sum(-1, keepdims=True)) @ e, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(out[0, 2:], 0)
    assert attended._keras_mask is not None


def test_attention_wants_a_list_of_two_or_three():
    x = keras.Input((3, 2))
    with pytest.raises(ValueError, match=r"\[query, value\]"):
        keras.layers.Attention()(x)
