"""keras.utils' get_source_inputs, convert_all_kernels_in_model, and the clear errors of plot_model, model_to_dot and
multi_gpu_model."""
import numpy as np
import pytest

from trainer import keras


def test_get_source_inputs_walks_back_to_the_inputs_once_each():
    a, b = keras.Input((3,)), keras.Input((2,))
    shared = keras.layers.Dense(2)
    out = keras.layers.add([shared(keras.layers.concatenate([a, b])), shared(keras.layers.concatenate([b, a]))])
    sources = keras.utils.get_source_inputs(out)
    assert len(sources) == 2 and sources[0] is a and sources[1] is b
    assert keras.utils.get_source_inputs(a)[0] is a


def test_convert_all_kernels_flips_the_spatial_axes_of_convolutions_only():
    model = keras.Sequential([keras.layers.Conv2D(2, (2, 3), input_shape=(5, 5, 1)), keras.layers.Flatten(),
                              keras.layers.Dense(2)])
    before = model.get_weights()
    keras.utils.convert_all_kernels_in_model(model)
    after = model.get_weights()
    np.testing.assert_array_equal(after[0], before[0][::-1, ::-1])
    for got, want in zip(after[1:], before[1:]):
        np.testing.assert_array_equal(got, want)


def test_drawing_and_multi_gpu_models_say_what_to_do():
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(2,))])
    for draw in (keras.utils.plot_model, keras.utils.model_to_dot):
        with pytest.raises(ImportError, match="pydot.*summary"):
            draw(model)
    with pytest.raises(ValueError, match="gpus >= 2"):
        keras.utils.multi_gpu_model(model, gpus=1)
    with pytest.raises(RuntimeError, match="one process per GPU"):
        keras.utils.multi_gpu_model(model, gpus=2)
