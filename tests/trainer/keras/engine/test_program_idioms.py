"""Idioms of public Keras programs (issue #25's held-out set), each as TF 1.15's Keras takes it: a flat Python list
of numbers is a one-input model's samples, and every layer and model names its weights `*_variables` too."""
import numpy as np
import pytest

from trainer import keras


def line_model():
    model = keras.Sequential([keras.layers.Dense(1, input_dim=1)])
    model.set_weights([np.array([[0.5]], np.float32), np.array([0.1], np.float32)])
    model.compile(keras.optimizers.SGD(lr=0.1), "mse")
    return model


def test_a_flat_list_of_numbers_trains_and_predicts_as_a_column_of_samples():
    from_lists, from_arrays = line_model(), line_model()
    lists = from_lists.fit([1, 2, 3, 4], [0, -1, -2, -3], epochs=3, verbose=0)
    arrays = from_arrays.fit(np.array([[1.], [2.], [3.], [4.]]), np.array([[0.], [-1.], [-2.], [-3.]]), epochs=3,
                             verbose=0)
    np.testing.assert_allclose(lists.history["loss"], arrays.history["loss"], rtol=1e-6)
    np.testing.assert_allclose(from_lists.predict([5.0, 4.0]), from_arrays.predict(np.array([[5.], [4.]])), rtol=1e-6)
    assert from_lists.predict(np.array([5, 4])).shape == (2, 1)


def test_a_list_of_rows_is_still_one_array_per_input_as_in_tf():
    model = keras.Sequential([keras.layers.Dense(1, input_dim=2)])
    model.compile("sgd", "mse")
    with pytest.raises(ValueError, match=r"expects 1 array\(s\) \['dense_input'\], but received 3"):
        model.fit([[1, 2], [3, 4], [5, 6]], [1, 2, 3], verbose=0)


class TwoDense(keras.Model):
    def __init__(self):
        super().__init__()
        self.first, self.second = keras.layers.Dense(4), keras.layers.Dense(2)

    def call(self, inputs):
        return self.second(self.first(inputs))


def test_layers_and_models_name_their_weights_variables_too():
    model = TwoDense()
    model(keras.backend.constant([[1.0, 2.0, 3.0]]))
    assert [v.name for v in model.trainable_variables] == [v.name for v in model.trainable_weights]
    assert [v.shape.as_list() for v in model.trainable_variables] == [[3, 4], [4], [4, 2], [2]]
    norm = keras.layers.BatchNormalization()
    norm.build((None, 3))
    assert norm.variables == norm.weights and len(norm.non_trainable_variables) == 2
    assert norm.non_trainable_variables == norm.non_trainable_weights
    assert norm.trainable_variables == norm.trainable_weights and len(norm.trainable_variables) == 2


@pytest.mark.parametrize("loss, target", [(keras.backend.categorical_crossentropy, [[0.0, 1.0]]),
                                          (keras.backend.sparse_categorical_crossentropy, [1])])
def test_a_saturated_softmax_is_scored_from_its_logits(loss, target):
    # Unscaled 0..255 pixels saturate the softmax at once; clipped probabilities would cap the loss at
    # -log(epsilon) ~ 16.1 with a zero gradient, and training would never start.
    logits = keras.backend.variable([[100.0, 0.0]])
    value = loss(keras.backend.constant(target), keras.backend.softmax(logits))
    grad = keras.backend.gradients(keras.backend.sum(value), [logits])[0]
    np.testing.assert_allclose(keras.backend.eval(value), [100.0], rtol=1e-6)
    np.testing.assert_allclose(keras.backend.eval(grad), [[1.0, -1.0]], atol=1e-6)
    probabilities = keras.backend.constant([[1.0, 0.0]])  # not a Softmax op: clipped probabilities, as before
    np.testing.assert_allclose(keras.backend.eval(loss(keras.backend.constant(target), probabilities)),
                               [-np.log(keras.backend.epsilon())], rtol=1e-4)


def test_data_tensors_need_steps_and_are_run_anew_each_step():
    import trainer as tg
    model = line_model()
    x, y = tg.constant([[1.0], [2.0]]), tg.one_hot([0, 1], 1)  # [[1], [0]]
    with pytest.raises(ValueError, match="data tensors as input to a model, you should specify the `steps_per_epoch`"):
        model.fit(x, y, epochs=1, verbose=0)
    with pytest.raises(ValueError, match="specify the `steps` argument"):
        model.predict(x)
    from_arrays = line_model()
    steps = model.fit(x, y, steps_per_epoch=3, epochs=2, verbose=0)
    arrays = from_arrays.fit(np.array([[1.], [2.]]), np.array([[1.], [0.]]), batch_size=2, epochs=6, shuffle=False,
                             verbose=0)
    np.testing.assert_allclose(steps.history["loss"], [np.mean(arrays.history["loss"][i:i + 3]) for i in (0, 3)],
                               rtol=1e-5)
    np.testing.assert_allclose(model.predict(x, steps=1), from_arrays.predict(np.array([[1.], [2.]])), rtol=1e-6)
    counter = tg.Variable(0.0)
    drawn = tg.reshape(tg.assign_add(counter, 1.0), (1, 1))  # a new value each time it runs
    model.fit(drawn, drawn, steps_per_epoch=4, verbose=0)
    assert keras.backend.get_value(counter) == 4.0
