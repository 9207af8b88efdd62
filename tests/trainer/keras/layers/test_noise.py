"""Noise layers, spatial dropouts and LayerNormalization: identity at inference, their statistics in training,
and LayerNormalization against numpy and its gradients."""
import numpy as np
import pytest

from trainer import keras

from .oracle import run_layer

RNG = np.random.RandomState(2)


@pytest.mark.parametrize("layer", [
    lambda: keras.layers.GaussianNoise(0.5), lambda: keras.layers.GaussianDropout(0.3),
    lambda: keras.layers.AlphaDropout(0.3), lambda: keras.layers.SpatialDropout1D(0.5)],
    ids=["GaussianNoise", "GaussianDropout", "AlphaDropout", "SpatialDropout1D"])
def test_noise_is_identity_at_inference(layer):
    x = RNG.uniform(-1, 1, (4, 6, 8)).astype(np.float32)
    out, (dx,), _, r = run_layer(layer(), x, training=False)
    np.testing.assert_array_equal(out, x)
    np.testing.assert_array_equal(dx, r)
    trained, _, _, _ = run_layer(layer(), x, training=True)
    assert not np.allclose(trained, x)


def test_noise_statistics_in_training():
    x = np.ones((200, 50), np.float32)
    noisy, _, _, _ = run_layer(keras.layers.GaussianNoise(0.5), x, training=True)
    assert abs((noisy - 1).std() - 0.5) < 0.02 and abs((noisy - 1).mean()) < 0.02
    scaled, _, _, _ = run_layer(keras.layers.GaussianDropout(0.2), x, training=True)
    assert abs(scaled.std() - 0.5) < 0.02  # sqrt(rate / (1 - rate))
    selu = RNG.normal(0, 1, (400, 50)).astype(np.float32)
    alpha, _, _, _ = run_layer(keras.layers.AlphaDropout(0.2), selu, training=True)
    assert abs(alpha.mean() - selu.mean()) < 0.05 and abs(alpha.std() - selu.std()) < 0.05


@pytest.mark.parametrize("layer, shape, same_over", [
    (keras.layers.SpatialDropout1D, (5, 7, 6), (1,)), (keras.layers.SpatialDropout2D, (5, 3, 4, 6), (1, 2)),
    (keras.layers.SpatialDropout3D, (5, 2, 3, 2, 6), (1, 2, 3))], ids=["1D", "2D", "3D"])
def test_spatial_dropout_drops_whole_channels(layer, shape, same_over):
    out, _, _, _ = run_layer(layer(0.5), np.ones(shape, np.float32), training=True)
    kept = out != 0
    np.testing.assert_array_equal(kept, np.broadcast_to(kept.all(axis=same_over, keepdims=True), shape))
    assert set(np.unique(out)) <= {0.0, 2.0} and kept.any() and not kept.all()


def test_layer_normalization_matches_numpy_and_names_its_weights():
    x = RNG.uniform(-2, 2, (3, 4, 5)).astype(np.float32)
    layer = keras.layers.LayerNormalization(gamma_initializer="uniform", beta_initializer="uniform")
    out, (dx,), (dgamma, dbeta), r = run_layer(layer, x)
    gamma, beta = layer.get_weights()
    assert [w.name.split("/")[-1] for w in layer.weights] == ["gamma:0", "beta:0"] and gamma.shape == (5,)
    norm = (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-3)
    np.testing.assert_allclose(out, norm * gamma + beta, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(dbeta, r.sum((0, 1)), rtol=1e-4)
    np.testing.assert_allclose(dgamma, (r * norm).sum((0, 1)), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(dx.sum(-1), 0, atol=1e-4)  # shifting a row changes nothing
