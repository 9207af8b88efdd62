"""Keras' core layers against numpy closed forms: outputs and gradients, names, weights and configs."""
import numpy as np
import pytest

import trainer as tg
from trainer import keras
from trainer.keras import backend as K

from .oracle import run_layer

RNG = np.random.RandomState(0)
X = RNG.uniform(-1, 1, (4, 3)).astype(np.float32)


def test_dense_is_activation_of_x_kernel_plus_bias_with_its_gradients():
    layer = keras.layers.Dense(2, activation="tanh", kernel_initializer="ones", bias_initializer="ones")
    out, (dx,), (dk, db), r = run_layer(layer, X)
    kernel, bias = layer.get_weights()
    np.testing.assert_array_equal(kernel, np.ones((3, 2))) and np.testing.assert_array_equal(bias, np.ones(2))
    z = X @ kernel + bias
    np.testing.assert_allclose(out, np.tanh(z), rtol=1e-6)
    g = r * (1 - np.tanh(z) ** 2)
    np.testing.assert_allclose(dx, g @ kernel.T, rtol=1e-5)
    np.testing.assert_allclose(dk, X.T @ g, rtol=1e-5)
    np.testing.assert_allclose(db, g.sum(0), rtol=1e-5)


def test_names_and_variable_names_are_keras_graph_mode_ones():
    first, second = keras.layers.Dense(2), keras.layers.Dense(2)
    assert (first.name, second.name) == ("dense", "dense_1")
    x = keras.Input((3,))
    second(first(x))
    assert [w.name for w in first.weights + second.weights] == ["dense/kernel:0", "dense/bias:0",
                                                                "dense_1/kernel:0", "dense_1/bias:0"]
    assert x.name == "input_1:0" and keras.layers.Activation("relu").name == "activation"
    assert keras.layers.Dense(1, name="logits").name == "logits"


def test_weights_split_by_trainability_and_set_weights_checks_shapes():
    layer = keras.layers.Dense(2, input_shape=(3,))
    keras.Sequential([layer])
    assert [K.int_shape(w) for w in layer.weights] == [(3, 2), (2,)]
    layer.trainable = False
    assert layer.trainable_weights == [] and len(layer.non_trainable_weights) == 2
    layer.set_weights([np.full((3, 2), 2.0), np.zeros(2)])
    np.testing.assert_array_equal(layer.get_weights()[0], np.full((3, 2), 2.0))
    with pytest.raises(ValueError, match=r"not compatible with provided weight shape \(2, 3\)"):
        layer.set_weights([np.zeros((2, 3)), np.zeros(2)])


def test_regularizers_add_losses_and_constraints_project_after_updates():
    layer = keras.layers.Dense(2, kernel_initializer="ones", kernel_regularizer=keras.regularizers.l2(0.5),
                               activity_regularizer=keras.regularizers.l1(0.1),
                               bias_constraint=keras.constraints.NonNeg(), bias_initializer="zeros")
    x = K.placeholder(shape=(None, 3))
    out = layer(x)
    kernel_penalty, activity_penalty = K.get_session().run(layer.losses, {x: X})
    assert kernel_penalty == pytest.approx(0.5 * 6)
    assert activity_penalty == pytest.approx(0.1 * np.abs(X @ np.ones((3, 2))).sum() / len(X), rel=1e-5)
    assert layer.bias.constraint is not None and K.int_shape(out) == (None, 2)


def test_dropout_only_in_the_training_phase_and_scales_the_kept_values():
    x = K.placeholder(shape=(200, 50))
    out = keras.layers.Dropout(0.4, seed=1)(x)
    ones = np.ones((200, 50), np.float32)
    np.testing.assert_array_equal(K.get_session().run(out, {x: ones}), ones)
    trained = K.get_session().run(out, {x: ones, K.learning_phase(): True})
    assert set(np.unique(trained)) == {0.0, np.float32(1 / 0.6)}
    assert abs((trained == 0).mean() - 0.4) < 0.03


@pytest.mark.parametrize("layer, expected", [
    (lambda: keras.layers.Flatten(), lambda x: x.reshape(2, -1)),
    (lambda: keras.layers.Reshape((6, 2)), lambda x: x.reshape(2, 6, 2)),
    (lambda: keras.layers.Permute((2, 1, 3)), lambda x: x.transpose(0, 2, 1, 3)),
    (lambda: keras.layers.Activation("softmax"), lambda x: np.exp(x) / np.exp(x).sum(-1, keepdims=True)),
    (lambda: keras.layers.Lambda(lambda t: t * 2.0), lambda x: x * 2),
], ids=["Flatten", "Reshape", "Permute", "Activation", "Lambda"])
def test_shape_layers(layer, expected):
    x = RNG.uniform(-1, 1, (2, 3, 2, 2)).astype(np.float32)
    out, _, _, _ = run_layer(layer(), x)
    np.testing.assert_allclose(out, expected(x), rtol=1e-6)


def test_repeat_vector():
    out, (dx,), _, r = run_layer(keras.layers.RepeatVector(3), X)
    np.testing.assert_array_equal(out, np.repeat(X[:, None], 3, axis=1))
    np.testing.assert_allclose(dx, r.sum(1), rtol=1e-6)


def test_input_spec_refuses_wrong_ranks_with_the_layer_name():
    layer = keras.layers.Dense(2)
    layer(K.placeholder(shape=(None, 3)))
    with pytest.raises(ValueError, match=r"layer dense is incompatible.*axis -1 of input shape to have value 3"):
        layer(K.placeholder(shape=(None, 4)))
    with pytest.raises(ValueError, match=r"expected ndim=2, found ndim=3"):
        keras.layers.RepeatVector(2)(K.placeholder(shape=(None, 3, 1)))


def test_config_round_trip_makes_the_same_layer():
    layer = keras.layers.Dense(5, activation="relu", use_bias=False, kernel_regularizer=keras.regularizers.l1(0.01),
                               name="d")
    again = keras.layers.Dense.from_config(layer.get_config())
    assert again.get_config() == layer.get_config() and again.units == 5 and again.activation.__name__ == "relu"


def test_a_keras_layer_is_a_graph_op_builder_on_plain_tensors():
    x = tg.constant(X)
    out = keras.layers.Dense(1, kernel_initializer="zeros", bias_initializer=keras.initializers.Constant(3.0))(x)
    np.testing.assert_array_equal(K.eval(out), np.full((4, 1), 3.0))
