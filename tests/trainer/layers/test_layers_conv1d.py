"""tf.layers.Conv1D / conv1d and the 1-D pooling layers: TF1's variable names and shapes, values against numpy."""
import numpy as np
import pytest

import trainer as tg

RNG = np.random.default_rng(11)


def _conv1d_valid(x, w, b):
    k = w.shape[0]
    return np.stack([np.einsum("nkc,kco->no", x[:, i:i + k], w) for i in range(x.shape[1] - k + 1)], 1) + b


def test_conv1d_variables_are_named_as_tf1_names_them():
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [None, 10, 3])
        tg.layers.conv1d(x, 4, 3)
        tg.layers.conv1d(x, 2, 5, use_bias=False)
        layer = tg.layers.Conv1D(6, 2, name="head")
        layer(x)
        with tg.variable_scope("block"):
            tg.layers.conv1d(x, 1, 1)
        shapes = {v.op.name: tuple(v.shape) for v in tg.global_variables()}
    assert shapes == {"conv1d/kernel": (3, 3, 4), "conv1d/bias": (4,), "conv1d_1/kernel": (5, 3, 2),
                      "head/kernel": (2, 3, 6), "head/bias": (6,), "block/conv1d/kernel": (1, 3, 1),
                      "block/conv1d/bias": (1,)}


@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
def test_conv1d_layer_values(data_format):
    x = RNG.standard_normal((2, 8, 3))
    with tg.Graph().as_default():
        inputs = x if data_format == "channels_last" else np.transpose(x, (0, 2, 1))
        y = tg.layers.conv1d(tg.constant(inputs), 4, 3, data_format=data_format, activation=tg.nn.relu,
                             bias_initializer=tg.constant_initializer(0.5))
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            kernel = sess.run(tg.global_variables()[0])
            value = sess.run(y)
    if data_format == "channels_first":
        value = np.transpose(value, (0, 2, 1))
    np.testing.assert_allclose(value, np.maximum(_conv1d_valid(x, kernel, 0.5), 0), rtol=1e-10)


def test_conv1d_layer_rejects_a_4d_input_naming_the_layer():
    with tg.Graph().as_default():
        with pytest.raises(ValueError, match=r"Conv1D layer 'conv1d' need rank 3"):
            tg.layers.conv1d(tg.placeholder(tg.float32, [1, 2, 3, 4]), 2, 1)


@pytest.mark.parametrize("padding", ["valid", "same"])
def test_pooling1d_layers(padding):
    x = RNG.standard_normal((2, 7, 3))
    with tg.Graph().as_default():
        mx = tg.layers.max_pooling1d(x, 3, 2, padding=padding)
        av = tg.layers.AveragePooling1D(3, 2, padding=padding)(x)
        first = tg.layers.MaxPooling1D(2, 2, data_format="channels_first")(np.transpose(x, (0, 2, 1)))
        m, a, f = tg.Session().run([mx, av, first])
    starts = range(0, 5, 2) if padding == "valid" else range(-1, 6, 2)  # SAME pads 1 before, 1 after (TF's split)
    windows = [x[:, max(s, 0):s + 3] for s in starts]
    np.testing.assert_allclose(m, np.stack([w.max(1) for w in windows], 1))
    np.testing.assert_allclose(a, np.stack([w.mean(1) for w in windows], 1))
    np.testing.assert_allclose(np.transpose(f, (0, 2, 1)), np.stack([x[:, i:i + 2].max(1) for i in (0, 2, 4)], 1))
