"""compile/fit/evaluate/predict: History equals a numpy replay of SGD, fit finds the optimum of a separable set,
and the data comes as arrays, dicts, datasets, generators or Sequences, weighted by sample or class."""
import numpy as np
import pytest

import trainer as tg
from trainer import keras
from trainer.keras import backend as K

RNG = np.random.RandomState(0)


def tiny_model(units=1, activation=None, input_dim=2):
    model = keras.Sequential([keras.layers.Dense(units, activation=activation, input_shape=(input_dim,))])
    model.set_weights([np.array([[0.5] * units, [-0.25] * units], np.float32), np.full(units, 0.1, np.float32)])
    return model


def test_history_is_a_numpy_replay_of_sgd_on_mse():
    x = RNG.uniform(-1, 1, (10, 2)).astype(np.float32)
    y = (x @ np.array([[2.0], [-1.0]]) + 0.5).astype(np.float32)
    model = tiny_model()
    model.compile(keras.optimizers.SGD(lr=0.1), "mse")
    history = model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    w, b = np.array([[0.5], [-0.25]]), np.array([0.1])
    epochs = []
    for _ in range(2):
        losses = []
        for start in range(0, 10, 4):
            xb, yb = x[start:start + 4], y[start:start + 4]
            err = xb @ w + b - yb
            losses.append(((err ** 2).mean(), len(xb)))
            grad = 2 * err / len(xb)
            w, b = w - 0.1 * xb.T @ grad, b - 0.1 * grad.sum(0)
        epochs.append(sum(loss * n for loss, n in losses) / 10)  # averaged over samples
    assert list(history.history) == ["loss"] and history.epoch == [0, 1]
    np.testing.assert_allclose(history.history["loss"], epochs, rtol=1e-5)
    np.testing.assert_allclose(model.get_weights()[0], w, rtol=1e-5)
    np.testing.assert_allclose(model.evaluate(x, y, verbose=0), ((x @ w + b - y) ** 2).mean(), rtol=1e-5)
    np.testing.assert_allclose(model.predict(x, batch_size=3), x @ w + b, rtol=1e-5)


def test_fit_reaches_the_optimum_of_a_separable_set_and_names_accuracy_acc():
    x = RNG.normal(size=(400, 2)).astype(np.float32)
    x = x[np.abs(x[:, 0] + 2 * x[:, 1]) > 0.3][:200]  # a margin around the separating line
    y = (x[:, 0] + 2 * x[:, 1] > 0).astype(np.float32)
    model = keras.Sequential([keras.layers.Dense(1, activation="sigmoid", input_dim=2)])
    model.compile(keras.optimizers.Adam(lr=0.1), "binary_crossentropy", metrics=["accuracy"])
    history = model.fit(x, y, batch_size=20, epochs=30, verbose=0)
    assert sorted(history.history) == ["acc", "loss"] and history.history["acc"][-1] == 1.0
    kernel = model.get_weights()[0][:, 0]
    assert kernel[1] / kernel[0] == pytest.approx(2.0, rel=0.2)
    loss, acc = model.evaluate(x, y, verbose=0)
    assert acc == 1.0 and loss < 0.1 and model.metrics_names == ["loss", "acc"]


@pytest.mark.parametrize("loss, labels, expected", [
    ("categorical_crossentropy", np.eye(3)[[0, 1, 2, 1]], "categorical"),
    ("sparse_categorical_crossentropy", np.array([0, 1, 2, 1]), "sparse"),
    ("binary_crossentropy", np.array([[1, 0, 0]] * 4), "binary"),
])
def test_acc_is_resolved_by_the_loss_as_keras_does(loss, labels, expected):
    model = keras.Sequential([keras.layers.Dense(3, activation="softmax", input_shape=(2,),
                                                 kernel_initializer="zeros")])
    model.compile("sgd", loss, metrics=["acc"])
    _, acc = model.evaluate(np.ones((4, 2)), labels, verbose=0)
    # equal outputs: argmax picks class 0 (right once for the 4 labels); binary accuracy counts 1/3 > 0.5 as 0
    assert acc == pytest.approx({"categorical": 0.25, "sparse": 0.25, "binary": 2 / 3}[expected])


def test_sample_and_class_weights_scale_each_samples_loss():
    x, y = np.ones((4, 2), np.float32), np.array([[0.0], [1.0], [2.0], [3.0]], np.float32)
    model = tiny_model()
    model.compile("sgd", "mae")
    pred = 0.5 - 0.25 + 0.1
    errors = np.abs(pred - y[:, 0])
    weights = np.array([1.0, 0.0, 2.0, 1.0])
    assert model.test_on_batch(x, y, sample_weight=weights) == pytest.approx((errors * weights).mean())
    classes = np.array([0, 1, 1, 0])
    model = tiny_model(units=2, activation="softmax")
    model.compile("sgd", "sparse_categorical_crossentropy")
    per_sample = -np.log(model.predict(x)[np.arange(4), classes])
    assert model.test_on_batch(x, classes) == pytest.approx(per_sample.mean(), rel=1e-5)
    history = model.fit(x, classes, class_weight={0: 1.0, 1: 3.0}, epochs=1, verbose=0, shuffle=False)
    assert history.history["loss"][0] == pytest.approx((per_sample * [1, 3, 3, 1]).mean(), rel=1e-5)


def test_a_multi_output_model_takes_dicts_and_weights_its_losses():
    a, b = keras.Input((2,), name="a"), keras.Input((1,), name="b")
    shared = keras.layers.Dense(1, kernel_initializer="ones", bias_initializer="zeros", name="shared")
    merged = keras.layers.concatenate([shared(a), b])
    out1 = keras.layers.Dense(1, kernel_initializer="ones", name="first")(merged)
    out2 = keras.layers.Dense(2, activation="softmax", name="second")(merged)
    model = keras.Model(inputs=[a, b], outputs=[out1, out2])
    model.compile("sgd", loss={"first": "mse", "second": "sparse_categorical_crossentropy"},
                  loss_weights={"first": 0.5, "second": 2.0}, metrics={"second": ["accuracy"]})
    x = {"a": np.ones((4, 2)), "b": np.zeros((4, 1))}
    y = {"first": np.zeros((4, 1)), "second": np.array([0, 1, 0, 1])}
    total, first, second, acc = model.evaluate(x, y, verbose=0)
    assert model.metrics_names == ["loss", "first_loss", "second_loss", "second_acc"]
    assert first == pytest.approx(4.0) and total == pytest.approx(0.5 * first + 2.0 * second, rel=1e-6)
    history = model.fit(x, y, epochs=2, verbose=0)
    assert sorted(history.history) == ["first_loss", "loss", "second_acc", "second_loss"]
    assert [layer.name for layer in model.layers] == ["a", "shared", "b", "concatenate", "first", "second"]
    with pytest.raises(ValueError, match=r"No data provided for \['b'\]"):
        model.predict({"a": np.ones((1, 2))})


def test_validation_split_takes_the_last_samples_and_adds_val_keys():
    x, y = np.arange(10, dtype=np.float32).reshape(10, 1), np.zeros((10, 1), np.float32)
    model = keras.Sequential([keras.layers.Dense(1, kernel_initializer="ones", use_bias=False, input_shape=(1,))])
    model.compile(keras.optimizers.SGD(lr=0.0), "mse")
    history = model.fit(x, y, validation_split=0.2, epochs=1, verbose=0)
    assert history.history["val_loss"] == [pytest.approx((64 + 81) / 2)]
    history = model.fit(x, y, validation_data=(x[:2], y[:2]), verbose=0)
    assert history.history["val_loss"] == [pytest.approx(0.5)]


def test_datasets_generators_and_sequences_feed_fit_evaluate_predict():
    x = RNG.uniform(-1, 1, (12, 2)).astype(np.float32)
    y = (x @ np.array([[1.0], [1.0]])).astype(np.float32)
    model = tiny_model()
    model.compile(keras.optimizers.SGD(lr=0.0), "mse")
    expected = model.evaluate(x, y, verbose=0)
    dataset = tg.data.Dataset.from_tensor_slices((x, y)).batch(4)
    assert model.evaluate(dataset, verbose=0) == pytest.approx(expected, rel=1e-6)  # to the end of the data
    history = model.fit(dataset.repeat(), steps_per_epoch=3, epochs=2, verbose=0)
    assert history.history["loss"] == [pytest.approx(expected, rel=1e-6)] * 2

    def batches():
        while True:
            for i in range(0, 12, 6):
                yield x[i:i + 6], y[i:i + 6]
    assert model.fit_generator(batches(), steps_per_epoch=2, verbose=0).history["loss"][0] == \
        pytest.approx(expected, rel=1e-6)

    class Halves(keras.utils.Sequence):
        def __len__(self):
            return 2

        def __getitem__(self, i):
            return x[i * 6:(i + 1) * 6], y[i * 6:(i + 1) * 6]
    assert model.evaluate_generator(Halves()) == pytest.approx(expected, rel=1e-6)
    np.testing.assert_allclose(model.predict_generator(Halves()), model.predict(x), rtol=1e-6)
    with pytest.raises(ValueError, match="steps_per_epoch"):
        model.fit(batches(), verbose=0)


def test_train_on_batch_returns_the_loss_before_the_update():
    model = tiny_model()
    model.compile(keras.optimizers.SGD(lr=0.1), "mse", metrics=["mae"])
    x, y = np.ones((2, 2), np.float32), np.zeros((2, 1), np.float32)
    loss, mae = model.train_on_batch(x, y)
    assert loss == pytest.approx(0.35 ** 2) and mae == pytest.approx(0.35)
    assert model.train_on_batch(x, y)[0] < loss
    np.testing.assert_allclose(model.predict_on_batch(x), model.predict(x))


def test_a_subclassed_model_builds_on_its_first_data():
    class TwoLayers(keras.Model):
        def __init__(self):
            super().__init__()
            self.hidden = [keras.layers.Dense(4, activation="relu")]
            self.out = keras.layers.Dense(1)

        def call(self, inputs):
            return self.out(self.hidden[0](inputs))

    model = TwoLayers()
    model.compile("adam", "mse")
    x = RNG.uniform(-1, 1, (16, 3)).astype(np.float32)
    history = model.fit(x, x.sum(1, keepdims=True), epochs=3, verbose=0)
    assert len(history.history["loss"]) == 3
    assert [w.name for w in model.weights] == ["dense/kernel:0", "dense/bias:0", "dense_1/kernel:0",
                                               "dense_1/bias:0"]
    assert model.predict(x).shape == (16, 1)


def test_nested_models_and_shared_layers_share_weights():
    inner = keras.Sequential([keras.layers.Dense(2, input_shape=(3,), name="inner_dense")], name="inner")
    a, b = keras.Input((3,)), keras.Input((3,))
    outer = keras.Model([a, b], keras.layers.add([inner(a), inner(b)]))
    assert outer.weights == inner.weights
    x = RNG.uniform(size=(2, 3)).astype(np.float32)
    np.testing.assert_allclose(outer.predict([x, x]), 2 * inner.predict(x), rtol=1e-6)


def test_layers_are_listed_deepest_first_as_keras_lists_them():
    out_layer = keras.layers.Dense(1)
    i1, i2 = keras.Input((2,)), keras.Input((3,))
    out = out_layer(keras.layers.concatenate([keras.layers.Dense(2)(i1), keras.layers.Dense(2)(i2)]))
    model = keras.Model([i1, i2], out)
    assert [layer.name for layer in model.layers] == ["input_1", "input_2", "dense_1", "dense_2", "concatenate",
                                                      "dense"]
    assert [w.name for w in model.weights][::2] == ["dense_1/kernel:0", "dense_2/kernel:0", "dense/kernel:0"]


def test_compile_and_data_errors_say_what_to_do():
    model = tiny_model()
    with pytest.raises(RuntimeError, match="You must compile your model"):
        model.fit(np.ones((2, 2)), np.ones((2, 1)), verbose=0)
    model.compile("sgd", "mse")
    with pytest.raises(ValueError, match="expects 1 array"):
        model.fit([np.ones((2, 2)), np.ones((2, 2))], np.ones((2, 1)), verbose=0)
    with pytest.raises(ValueError, match="You passed: y=None"):
        model.evaluate(np.ones((2, 2)), verbose=0)
    with pytest.raises(ValueError, match="Unknown optimizer: 'sgdd'"):
        model.compile("sgdd", "mse")
    with pytest.raises(ValueError, match="Unknown loss function: 'msee'"):
        model.compile("sgd", "msee")
    assert isinstance(K.learning_phase(), tg.Tensor)


def test_summary_prints_keras_table(capsys):
    model = keras.Sequential([keras.layers.Flatten(input_shape=(28, 28)), keras.layers.Dense(128, activation="relu"),
                              keras.layers.Dense(10, activation="softmax")])
    model.summary()
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        'Model: "sequential"',
        "_" * 65,
        "Layer (type)                 Output Shape              Param #   ",
        "=" * 65,
        "flatten (Flatten)            (None, 784)               0         ",
        "_" * 65,
        "dense (Dense)                (None, 128)               100480    ",
        "_" * 65,
        "dense_1 (Dense)              (None, 10)                1290      ",
        "=" * 65,
        "Total params: 101,770",
        "Trainable params: 101,770",
        "Non-trainable params: 0",
        "_" * 65]


def test_progress_lines_of_verbose_1_and_2(capsys):
    model = tiny_model()
    model.compile("sgd", "mse", metrics=["mae"])
    x, y = np.ones((8, 2)), np.zeros((8, 1))
    model.fit(x, y, batch_size=4, epochs=2, verbose=2)
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "Epoch 1/2" and lines[2] == "Epoch 2/2"
    assert __import__("re").fullmatch(r"8/8 - \ds - loss: \d\.\d{4} - mean_absolute_error: \d\.\d{4}", lines[1])
    model.fit(x, y, batch_size=4, epochs=1, verbose=1)
    final = capsys.readouterr().out.split("\r")[-1]
    assert __import__("re").fullmatch(r"8/8 \[={30}\] - \ds \d+[mu]?s/sample - loss: \d\.\d{4} - "
                                      r"mean_absolute_error: \d\.\d{4}\n", final)
