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


@pytest.mark.parametrize("axis,center,scale", [(-1, True, True), (1, False, True), (3, True, False)], ids=str)
def test_images_take_the_fused_kernel_with_the_values_of_keras_formula(axis, center, scale):
    """4-D float32 images normalized over their channels run FusedBatchNormV3 (and its gradient op), as TF 1.15's
    Keras does; outputs, gradients and moving averages are those of the formula (the layer with fused=False, whose
    moving variance is the biased one), within float32 rounding, in both phases of a fed learning phase."""
    x = RNG.normal(1.0, 2.0, (6, 5, 4, 3)).astype(np.float32)
    channels = x.shape[axis]
    gamma, beta = RNG.uniform(0.5, 2.0, channels), RNG.normal(0.0, 1.0, channels)
    weights = RNG.normal(0.0, 1.0, x.shape).astype(np.float32)
    results = {}
    for fused in (None, False):
        K.clear_session()
        layer = keras.layers.BatchNormalization(axis=axis, momentum=0.5, center=center, scale=scale, fused=fused)
        inp = K.placeholder(shape=(None, 5, 4, 3))
        out = layer(inp)
        layer.set_weights([p for p, kept in ((gamma, scale), (beta, center)) if kept] +
                          [np.full(channels, 0.5), np.full(channels, 2.0)])
        grads = K.gradients(K.sum(out * weights), [inp] + layer.trainable_weights)
        session = K.get_session()
        types = {op.type for op in session.graph.get_operations()}
        assert ("FusedBatchNormV3" in types and "FusedBatchNormGradV3" in types) == (fused is None)
        phases = [session.run([out] + grads, {inp: x, K.learning_phase(): phase}) for phase in (1, 0)]
        session.run(layer.updates, {inp: x, K.learning_phase(): 1})
        results[fused] = phases, K.batch_get_value([layer.moving_mean, layer.moving_variance])
    (fused_phases, (mean, variance)), (formula_phases, (formula_mean, formula_variance)) = results[None], results[False]
    for fused_values, formula_values in zip(fused_phases, formula_phases):
        for a, b in zip(fused_values, formula_values):
            np.testing.assert_allclose(a, b, rtol=2e-5, atol=2e-5)
    reduced = tuple(i for i in range(4) if i != axis % 4)
    along = [-1 if i == axis % 4 else 1 for i in range(4)]
    np.testing.assert_allclose(mean, 0.25 + 0.5 * x.mean(reduced), rtol=1e-5)
    np.testing.assert_allclose(formula_mean, mean, rtol=1e-6)
    np.testing.assert_allclose(variance, 1.0 + 0.5 * x.var(reduced, ddof=1), rtol=1e-5)
    np.testing.assert_allclose(formula_variance, 1.0 + 0.5 * x.var(reduced), rtol=1e-5)
    moving = (x - 0.5) / np.sqrt(2.0 + 1e-3) * np.reshape(gamma if scale else 1.0, along)
    np.testing.assert_allclose(fused_phases[1][0], moving + np.reshape(beta if center else 0.0, along), rtol=1e-5,
                               atol=1e-5)
