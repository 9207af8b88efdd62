"""data_format='channels_first' against graph-mode tf.keras' outputs with the same weights, recorded by
tests/trainer/keras/fixtures/record_keras_channels_first.py: convolutions, pooling, padding, cropping, upsampling,
BatchNormalization(axis=1) and Flatten's order (channels last, as Keras flattens channels_first data)."""
from pathlib import Path

import numpy as np
import pytest

import trainer as tg
from trainer import keras
from trainer.keras import backend as K

FIXTURE = np.load(Path(__file__).parent.parent / "fixtures" / "keras_channels_first.npz")
L = keras.layers
CF = {"data_format": "channels_first"}
CASES = {
    "Conv2D": lambda: L.Conv2D(2, (2, 3), strides=(1, 2), padding="same", **CF),
    "Conv1D": lambda: L.Conv1D(2, 2, **CF),
    "Conv3D": lambda: L.Conv3D(2, 2, **CF),
    "SeparableConv2D": lambda: L.SeparableConv2D(2, 2, depth_multiplier=2, **CF),
    "DepthwiseConv2D": lambda: L.DepthwiseConv2D(2, **CF),
    "Conv2DTranspose": lambda: L.Conv2DTranspose(2, 2, strides=2, **CF),
    "MaxPooling2D": lambda: L.MaxPooling2D(padding="same", **CF),
    "AveragePooling2D": lambda: L.AveragePooling2D(**CF),
    "MaxPooling1D": lambda: L.MaxPooling1D(**CF),
    "AveragePooling3D": lambda: L.AveragePooling3D(**CF),
    "GlobalAveragePooling2D": lambda: L.GlobalAveragePooling2D(**CF),
    "GlobalMaxPooling1D": lambda: L.GlobalMaxPooling1D(**CF),
    "Flatten": lambda: L.Flatten(**CF),
    "BatchNormalization": lambda: L.BatchNormalization(axis=1),
    "ZeroPadding2D": lambda: L.ZeroPadding2D(((1, 0), (0, 2)), **CF),
    "Cropping2D": lambda: L.Cropping2D(((1, 0), (0, 1)), **CF),
    "UpSampling2D": lambda: L.UpSampling2D((2, 3), **CF),
    "ZeroPadding3D": lambda: L.ZeroPadding3D(1, **CF),
    "UpSampling3D": lambda: L.UpSampling3D(2, **CF),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_channels_first_matches_tf_keras(name):
    x, want = FIXTURE[f"{name}/x"], FIXTURE[f"{name}/y"]
    inputs = keras.Input(x.shape[1:])
    model = keras.Model(inputs, CASES[name]()(inputs))
    model.set_weights([FIXTURE[f"{name}/weight_{i}"] for i in range(len(model.get_weights()))])
    assert K.int_shape(model.outputs[0])[1:] == want.shape[1:]
    np.testing.assert_allclose(model.predict(x), want, rtol=1e-5, atol=1e-6)


def test_batch_normalization_over_axis_1_keeps_tf_keras_moving_statistics():
    inputs = keras.Input((3, 4, 5))
    model = keras.Model(inputs, L.BatchNormalization(axis=1, momentum=0.5)(inputs))
    model.compile(keras.optimizers.SGD(0.0), "mse")
    x = FIXTURE["BatchNormalization/x_train"]
    model.train_on_batch(x, np.zeros_like(x))
    mean, variance = model.get_weights()[2:]
    np.testing.assert_allclose(mean, FIXTURE["BatchNormalization/moving_mean"], rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(variance, FIXTURE["BatchNormalization/moving_variance"], rtol=1e-5)


def test_a_channels_first_layer_trains_and_says_what_formats_there_are():
    tg.set_random_seed(0)  # the initial weights
    model = keras.Sequential([L.Conv2D(2, 3, padding="same", input_shape=(1, 4, 4), **CF), L.Flatten(**CF),
                              L.Dense(1)])
    model.compile("sgd", "mse")
    x = np.random.RandomState(0).uniform(-1, 1, (4, 1, 4, 4)).astype(np.float32)
    loss = model.fit(x, np.ones((4, 1)), epochs=3, verbose=0).history["loss"]
    assert loss[-1] < loss[0]
    with pytest.raises(ValueError, match="must be one of 'channels_first', 'channels_last'. Received: 'nchw'"):
        L.MaxPooling2D(data_format="NCHW")
