"""BatchNormalization: batch statistics in training (moving averages updated by fit), moving ones at inference."""
import numpy as np
import pytest

from trainer import keras
from trainer.keras import backend as K

RNG = np.random.RandomState(3)


def test_training_and_inference_phases():
    x = RNG.normal(2.0, 3.0, (16, 4)).astype(np.float32)
    layer = keras.layers.BatchNormalization(momentum=0.9, epsilon=1e-3)
    inp = K.placeholder(shape=(None, 4))
    out = layer(inp)
    session = K.get_session()
    trained = session.run(out, {inp: x, K.learning_phase(): True})
    np.testing.assert_allclose(trained, (x - x.mean(0)) / np.sqrt(x.var(0) + 1e-3), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(session.run(out, {inp: x}), x / np.sqrt(1 + 1e-3), rtol=1e-5)  # moving: 0 and 1
    session.run(layer.updates, {inp: x, K.learning_phase(): True})
    mean, variance = K.batch_get_value([layer.moving_mean, layer.moving_variance])
    np.testing.assert_allclose(mean, 0.1 * x.mean(0), rtol=1e-5)
    np.testing.assert_allclose(variance, 0.9 + 0.1 * x.var(0), rtol=1e-5)  # 2-D inputs: the biased variance
    session.run(layer.updates, {inp: x})  # an update in the test phase leaves the averages alone
    np.testing.assert_allclose(K.get_value(layer.moving_mean), mean)
    assert [w.name for w in layer.weights] == ["batch_normalization/gamma:0", "batch_normalization/beta:0",
                                               "batch_normalization/moving_mean:0",
                                               "batch_normalization/moving_variance:0"]
    assert len(layer.trainable_weights) == 2


def test_images_take_the_unbiased_variance_into_the_moving_average_and_fit_runs_the_updates():
    x = RNG.normal(1.0, 2.0, (8, 3, 3, 2)).astype(np.float32)
    model = keras.Sequential([keras.layers.BatchNormalization(momentum=0.0, input_shape=(3, 3, 2))])
    model.compile("sgd", "mse")
    model.fit(x, np.zeros_like(x), batch_size=8, verbose=0, shuffle=False)
    layer = model.layers[0]
    np.testing.assert_allclose(K.get_value(layer.moving_mean), x.mean((0, 1, 2)), rtol=1e-5)
    np.testing.assert_allclose(K.get_value(layer.moving_variance), x.var((0, 1, 2), ddof=1), rtol=1e-4)


def test_unknown_channels_are_refused():
    with pytest.raises(ValueError, match="should have a defined dimension"):
        keras.layers.BatchNormalization()(K.placeholder(shape=(None, None)))


def test_batch_normalization_over_a_middle_axis_normalizes_each_channel():
    x = (np.arange(16, dtype=np.float32).reshape(2, 4, 2) ** 1.5).astype(np.float32)
    out = keras.layers.BatchNormalization(axis=1, epsilon=1e-3).apply(K.constant(x), training=True)
    session = K.get_session()
    mean, var = x.mean(axis=(0, 2), keepdims=True), x.var(axis=(0, 2), keepdims=True)
    np.testing.assert_allclose(session.run(out), (x - mean) / np.sqrt(var + 1e-3), rtol=1e-5, atol=1e-5)
