"""tf.keras.mixed_precision.experimental as TF 1.15 has it in graph mode, on float32: policies of float32 and
'infer', the float16 ones refused, set_policy refused as TF 1.15 refuses it in TF1 behaviour, and a fixed loss
scale that trains exactly as the wrapped optimizer (a power of two scales float32 exactly)."""
import numpy as np
import pytest

from trainer import keras

mp = keras.mixed_precision.experimental


def test_policies_name_their_dtypes_and_the_float16_ones_are_refused():
    assert (mp.Policy("float32").compute_dtype, mp.Policy("float32").variable_dtype) == ("float32", "float32")
    infer = mp.global_policy()
    assert (infer.name, infer.compute_dtype, infer.loss_scale, infer.should_cast_variables) == \
        ("infer", None, None, False)
    assert repr(mp.Policy("float64", loss_scale=8)) == '<Policy "float64", loss_scale=8.0>'
    for name in ("mixed_float16", "float16", "mixed_bfloat16"):
        with pytest.raises(ValueError, match="compute and keep their variables in float32"):
            mp.Policy(name)
    with pytest.raises(ValueError, match="Cannot convert value 'fast'"):
        mp.Policy("fast")
    with pytest.raises(ValueError, match="only be set in TensorFlow 2"):
        mp.set_policy("float32")


def fitted(optimizer):
    np.random.seed(0)
    x = np.random.RandomState(1).uniform(-1, 1, (16, 3)).astype("float32")
    y = (x @ np.array([[1.0], [-2.0], [0.5]], "float32")).astype("float32")
    inputs = keras.Input((3,))
    model = keras.Model(inputs, keras.layers.Dense(1, kernel_initializer="ones")(inputs))
    model.compile(optimizer, "mse")
    history = model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    return history.history["loss"], model.get_weights()


def test_a_fixed_loss_scale_trains_exactly_as_its_optimizer():
    want_loss, want_weights = fitted(keras.optimizers.SGD(0.1, momentum=0.5))
    keras.backend.clear_session()
    opt = mp.LossScaleOptimizer(keras.optimizers.SGD(0.1, momentum=0.5), loss_scale=1024)
    loss, weights = fitted(opt)
    assert loss == want_loss
    for got, want in zip(weights, want_weights):
        np.testing.assert_array_equal(got, want)
    assert keras.backend.get_value(opt.lr) == pytest.approx(0.1)
    assert [w.name for w in opt.weights][0].endswith("iter:0")
    again = mp.LossScaleOptimizer.from_config(opt.get_config())
    assert again.get_config() == opt.get_config() and again.loss_scale == 1024.0


def test_dynamic_loss_scaling_and_wrapping_what_is_not_a_keras_optimizer_are_refused():
    with pytest.raises(ValueError, match="loss_scale='dynamic' is not available"):
        mp.LossScaleOptimizer(keras.optimizers.SGD(), "dynamic")
    with pytest.raises(ValueError, match="must be an instance of OptimizerV2"):
        mp.LossScaleOptimizer("sgd", 8)
    with pytest.raises(ValueError, match="clipnorm or clipvalue"):
        mp.LossScaleOptimizer(keras.optimizers.SGD(clipnorm=1.0), 8)
