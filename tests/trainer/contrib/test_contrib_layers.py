"""tf.contrib.layers: contrib's defaults, variable names and collections, and values against closed forms and numpy
(layers, batch_norm's moving statistics, regularizers, initializers' variances, optimize_loss's step)."""
import numpy as np
import pytest

import trainer as tg

layers = tg.contrib.layers
RNG = np.random.default_rng(11)


def _names(variables):
    return [v.op.name for v in variables]


def _run(fetches, feeds=None, values=None):
    """Initialize, load `values` ({variable: array}), then run."""
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        for var, value in (values or {}).items():
            var.load(value)
        return sess.run(fetches, feeds)


def test_fully_connected_defaults_names_collections_and_values():
    x = RNG.standard_normal((5, 4))
    with tg.Graph().as_default():
        inputs = tg.placeholder(tg.float64, [None, 4])
        h = layers.fully_connected(inputs, 3, weights_initializer=tg.constant_initializer(0.5),
                                   biases_initializer=tg.constant_initializer(-1.0))
        y = layers.fully_connected(h, 2, variables_collections={"weights": ["my_weights"]}, outputs_collections="out")
        assert _names(tg.global_variables()) == ["fully_connected/weights", "fully_connected/biases",
                                                 "fully_connected_1/weights", "fully_connected_1/biases"]
        assert tg.model_variables() == tg.global_variables() == tg.trainable_variables()
        assert tg.get_collection("my_weights") == [tg.global_variables()[2]]
        assert tg.get_collection("out") == [y] and y.aliases == ["fully_connected_1"]
        assert h.op.type == "Relu" and h.op.name == "fully_connected/Relu" and y.dtype == tg.float64
        k1 = tg.global_variables()[2]
        got_h, kernel = _run([h, k1], {inputs: x})
    np.testing.assert_allclose(got_h, np.maximum(x @ np.full((4, 3), 0.5) - 1.0, 0.0), rtol=1e-12)
    limit = np.sqrt(6.0 / (3 + 2))  # Xavier uniform, contrib's default
    assert np.all(np.abs(kernel) <= limit)


def test_fully_connected_contracts_the_last_axis_whatever_leading_dimensions_are_unknown():
    x = RNG.standard_normal((2, 3, 4))
    with tg.Graph().as_default():
        inputs = tg.placeholder(tg.float64, [None, None, 4])
        y = layers.fully_connected(inputs, 2, weights_initializer=tg.constant_initializer(0.25), activation_fn=None)
        assert y.shape.as_list() == [None, None, 2]
        assert np.allclose(_run(y, {inputs: x}), x @ np.full((4, 2), 0.25))


def test_fully_connected_normalizer_replaces_the_biases_and_runs_before_the_activation():
    calls = []

    def normalizer(t, scale):
        calls.append(t)
        return t * scale
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [2, 3, 4])
        y = layers.fully_connected(x, 5, normalizer_fn=normalizer, normalizer_params={"scale": 2.0},
                                   activation_fn=tg.nn.tanh, scope="fc")
        assert _names(tg.global_variables()) == ["fc/weights"] and y.shape == (2, 3, 5)
        assert y.op.type == "Tanh" and len(calls) == 1
        linear = layers.linear(x, 2, scope="lin")
        assert linear.op.type == "BiasAdd"
    with pytest.raises(ValueError, match="num_outputs should be an int"):
        layers.fully_connected(x, 2.0)


def _conv_same(x, w, stride=1):
    """NHWC x HWIO convolution with TF's SAME padding (the extra row/column of padding goes after)."""
    n, h, wd, _ = x.shape
    kh, kw, _, out = w.shape
    oh, ow = -(-h // stride), -(-wd // stride)
    ph, pw = max((oh - 1) * stride + kh - h, 0), max((ow - 1) * stride + kw - wd, 0)
    xp = np.pad(x, ((0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)))
    y = np.zeros((n, oh, ow, out))
    for i in range(oh):
        for j in range(ow):
            patch = xp[:, i * stride:i * stride + kh, j * stride:j * stride + kw, :]
            y[:, i, j, :] = np.tensordot(patch, w, axes=([1, 2, 3], [0, 1, 2]))
    return y


def test_conv2d_defaults_same_padding_relu_and_conv_scope():
    x = RNG.standard_normal((2, 5, 5, 3))
    w = RNG.standard_normal((3, 3, 3, 4))
    b = RNG.standard_normal(4)
    with tg.Graph().as_default():
        inputs = tg.placeholder(tg.float64, [None, 5, 5, 3])
        y = layers.conv2d(inputs, 4, 3)
        strided = layers.conv2d(inputs, 4, [3, 3], stride=2, activation_fn=None)
        nchw = layers.conv2d(tg.transpose(inputs, [0, 3, 1, 2]), 4, 3, data_format="NCHW", activation_fn=None)
        assert _names(tg.global_variables()) == ["Conv/weights", "Conv/biases", "Conv_1/weights", "Conv_1/biases",
                                                 "Conv_2/weights", "Conv_2/biases"]
        assert y.op.type == "Relu" and y.shape == (None, 5, 5, 4) and strided.shape == (None, 3, 3, 4)
        variables = tg.global_variables()
        values = {v: (w if v.op.name.endswith("weights") else b) for v in variables}
        got, got_strided, got_nchw = _run([y, strided, nchw], {inputs: x}, values)
    np.testing.assert_allclose(got, np.maximum(_conv_same(x, w) + b, 0.0), rtol=1e-10)
    np.testing.assert_allclose(got_strided, _conv_same(x, w, stride=2) + b, rtol=1e-10)
    np.testing.assert_allclose(got_nchw, (_conv_same(x, w) + b).transpose(0, 3, 1, 2), rtol=1e-10)
    with pytest.raises(ValueError, match="Invalid data_format"):
        layers.conv2d(inputs, 4, 3, data_format="NDHWC")


def test_pooling_defaults_are_stride_2_and_valid_padding():
    x = RNG.standard_normal((1, 5, 5, 2))
    with tg.Graph().as_default():
        inputs = tg.constant(x)
        biggest, mean = layers.max_pool2d(inputs, 2), layers.avg_pool2d(inputs, [2, 2])
        flat = layers.flatten(biggest)
        assert biggest.shape == (1, 2, 2, 2) and flat.shape == (1, 8)
        assert biggest.op.name.startswith("MaxPool2D/") and mean.op.name.startswith("AvgPool2D/")
        got_max, got_mean, got_flat = _run([biggest, mean, flat])
    windows = x[:, :4, :4, :].reshape(1, 2, 2, 2, 2, 2).transpose(0, 1, 3, 2, 4, 5).reshape(1, 2, 2, 4, 2)
    np.testing.assert_allclose(got_max, windows.max(axis=3))
    np.testing.assert_allclose(got_mean, windows.mean(axis=3))
    np.testing.assert_allclose(got_flat, got_max.reshape(1, 8))


@pytest.mark.parametrize("shape", [(8, 3), (4, 2, 2, 3)])
def test_batch_norm_defaults_and_moving_statistics(shape):
    x = RNG.standard_normal(shape) * 3.0 + 1.5
    axes = tuple(range(len(shape) - 1))
    mean, var = x.mean(axis=axes), x.var(axis=axes)
    count = x.size // shape[-1]
    with tg.Graph().as_default():
        inputs = tg.placeholder(tg.float32, shape)
        y = layers.batch_norm(inputs)
        assert _names(tg.global_variables()) == ["BatchNorm/beta", "BatchNorm/moving_mean",
                                                 "BatchNorm/moving_variance"]  # scale=False: no gamma
        assert _names(tg.trainable_variables()) == ["BatchNorm/beta"] and len(tg.model_variables()) == 3
        updates = tg.get_collection(tg.GraphKeys.UPDATE_OPS)
        assert len(updates) == 2
        moving_mean, moving_var = tg.global_variables()[1:]
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            got, _ = sess.run([y, updates], {inputs: x})
            got_mean, got_var = sess.run([moving_mean, moving_var])
    np.testing.assert_allclose(got, (x - mean) / np.sqrt(var + 0.001), rtol=1e-4, atol=1e-5)
    # decay 0.999 from (0, 1); TF1's fused kernel hands the moving variance the unbiased batch variance
    np.testing.assert_allclose(got_mean, 0.001 * mean, rtol=1e-5)
    np.testing.assert_allclose(got_var, 0.999 + 0.001 * var * count / (count - 1), rtol=1e-6)


def test_batch_norm_inference_center_scale_initializers_and_forced_updates():
    x = RNG.standard_normal((6, 2)).astype(np.float32)
    with tg.Graph().as_default():
        inputs = tg.placeholder(tg.float32, [6, 2])
        training = tg.placeholder(tg.bool, [])
        y = layers.batch_norm(inputs, scale=True, is_training=training, updates_collections=None, decay=0.5,
                              param_initializers={"gamma": tg.constant_initializer(2.0),
                                                  "beta": tg.constant_initializer(0.25),
                                                  "moving_variance": tg.constant_initializer(4.0)}, scope="bn")
        assert tg.get_collection(tg.GraphKeys.UPDATE_OPS) == []  # the output waits for them instead
        assert _names(tg.trainable_variables()) == ["bn/gamma", "bn/beta"]
        moving_mean = tg.global_variables()[2]
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            inferred = sess.run(y, {inputs: x, training: False})
            assert np.all(sess.run(moving_mean) == 0.0)  # inference leaves the moving statistics alone
            sess.run(y, {inputs: x, training: True})
            np.testing.assert_allclose(sess.run(moving_mean), 0.5 * x.mean(axis=0), rtol=1e-5)
    np.testing.assert_allclose(inferred, 2.0 * x / np.sqrt(4.0 + 0.001) + 0.25, rtol=1e-5)
    with pytest.raises(NotImplementedError, match="batch_weights"):
        layers.batch_norm(inputs, batch_weights=inputs)


def test_dropout_keep_prob_and_is_training():
    x = np.ones((200, 50))
    with tg.Graph().as_default():
        inputs = tg.constant(x)
        dropped = layers.dropout(inputs, keep_prob=0.8, seed=1)
        kept = layers.dropout(inputs, keep_prob=0.8, is_training=False)
        assert dropped.op.name.startswith("Dropout/") and kept.op.name.startswith("Dropout_1/")
        got, same = _run([dropped, kept])
    assert set(np.unique(got)) <= {0.0, 1.0 / 0.8}
    assert abs((got > 0).mean() - 0.8) < 0.02  # 10,000 draws: the standard error is 0.004
    np.testing.assert_array_equal(same, x)


def test_regularizers_against_closed_forms():
    w = RNG.standard_normal((3, 4))
    with tg.Graph().as_default():
        weights = tg.constant(w)
        l1, l2 = layers.l1_regularizer(0.3)(weights), layers.l2_regularizer(0.2)(weights)
        both = layers.sum_regularizer([layers.l1_regularizer(0.3), None, layers.l2_regularizer(0.2)])(weights)
        l1_l2 = layers.l1_l2_regularizer(0.3, 0.2)(weights)
        total = layers.apply_regularization(layers.l2_regularizer(0.5), [weights, weights])
        assert tg.get_collection(tg.GraphKeys.REGULARIZATION_LOSSES) == [total]
        assert layers.l2_regularizer(0.0)(weights) is None and layers.sum_regularizer([]) is None
        got = _run([l1, l2, both, l1_l2, total])
    expected_l1, expected_l2 = 0.3 * np.abs(w).sum(), 0.2 * (w ** 2).sum() / 2
    np.testing.assert_allclose(got, [expected_l1, expected_l2, expected_l1 + expected_l2,
                                     expected_l1 + expected_l2, 2 * 0.5 * (w ** 2).sum() / 2], rtol=1e-12)
    with pytest.raises(ValueError, match="less than 0"):
        layers.l1_regularizer(-0.1)
    with pytest.raises(ValueError, match="cannot be an integer"):
        layers.l2_regularizer(1)
    with pytest.raises(ValueError, match="No weights to regularize"):
        layers.apply_regularization(layers.l2_regularizer(0.1))


def test_layer_regularizers_go_to_the_regularization_losses():
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float64, [None, 3])
        layers.fully_connected(x, 2, weights_regularizer=layers.l2_regularizer(0.1),
                               biases_initializer=tg.constant_initializer(1.0),
                               biases_regularizer=layers.l1_regularizer(0.5))
        losses = tg.get_collection(tg.GraphKeys.REGULARIZATION_LOSSES)
        assert [loss.op.name.split("/")[:3] for loss in losses] == [["fully_connected", "weights", "Regularizer"],
                                                                    ["fully_connected", "biases", "Regularizer"]]
        kernel = tg.global_variables()[0]
        weight_loss, bias_loss, w = _run(losses + [kernel])
    np.testing.assert_allclose(weight_loss, 0.1 * (w ** 2).sum() / 2, rtol=1e-12)
    np.testing.assert_allclose(bias_loss, 0.5 * 2.0, rtol=1e-12)


@pytest.mark.parametrize("make,variance", [
    (lambda: layers.xavier_initializer(seed=1), 2.0 / (300 + 200)),
    (lambda: layers.xavier_initializer(uniform=False, seed=1), 2.0 / (300 + 200)),
    (lambda: layers.variance_scaling_initializer(seed=1), 2.0 / 300),  # He et al.: factor 2, fan in
    (lambda: layers.variance_scaling_initializer(1.0, "FAN_OUT", uniform=True, seed=1), 1.0 / 200),
])
def test_initializers_have_their_variance(make, variance):
    with tg.Graph().as_default():
        values = _run(make()([300, 200], tg.float64))
    # 60,000 draws: the sample variance is within a few percent; truncation at 2 sigma is made up by the 1.3
    assert values.var() == pytest.approx(variance, rel=0.05) and abs(values.mean()) < 0.01 * np.sqrt(variance) * 10
    with pytest.raises(TypeError, match="Unknown mode"):
        layers.variance_scaling_initializer(mode="FAN_MAX")
    with pytest.raises(TypeError, match="non-floating"):
        layers.xavier_initializer(dtype=tg.int32)


def test_uniform_initializer_bounds_and_conv_fans():
    with tg.Graph().as_default():
        values = _run(layers.xavier_initializer(seed=3)([3, 3, 8, 16], tg.float64))
    limit = np.sqrt(6.0 / (3 * 3 * 8 + 3 * 3 * 16))  # the kernel window counts in both fans
    assert np.abs(values).max() <= limit and np.abs(values).max() > 0.95 * limit


def test_embed_sequence_looks_up_rows_of_a_model_variable():
    ids = np.array([[0, 2], [3, 3]])
    with tg.Graph().as_default():
        out = layers.embed_sequence(tg.constant(ids), vocab_size=4, embed_dim=3)
        (table,) = tg.model_variables()
        assert table.op.name == "EmbedSequence/embeddings" and table.shape == (4, 3)
        got, rows = _run([out, table])
    np.testing.assert_array_equal(got, rows[ids])


def test_optimize_loss_takes_one_sgd_step_and_counts_it():
    w0 = np.array([1.0, -2.0])
    with tg.Graph().as_default():
        w = tg.Variable(w0, name="w")
        step = tg.train.get_or_create_global_step()
        loss = tg.reduce_sum(tg.square(w))  # gradient 2w
        train = layers.optimize_loss(loss, step, 0.1, "SGD", summaries=["loss"])
        clipped = layers.optimize_loss(loss, None, 0.1, tg.train.GradientDescentOptimizer, clip_gradients=1.0,
                                       name="Clipped", increment_global_step=False)
        lr = [v for v in tg.global_variables() if v.op.name == "OptimizeLoss/learning_rate"]
        assert lr and not lr[0].trainable
        summaries = [t.op.name for t in tg.get_collection(tg.GraphKeys.SUMMARIES)]
        assert summaries == ["OptimizeLoss/loss", "Clipped/learning_rate_1", "Clipped/global_norm/gradient_norm",
                             "Clipped/loss", "Clipped/global_norm/clipped_gradient_norm"]
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            assert sess.run(train) == pytest.approx(5.0)  # the loss before the step
            w1 = sess.run(w)
            sess.run(clipped)
            w2, count = sess.run([w, step])
    np.testing.assert_allclose(w1, w0 - 0.1 * 2 * w0)
    g = 2 * w1
    np.testing.assert_allclose(w2, w1 - 0.1 * g / np.linalg.norm(g))  # clipped to global norm 1
    assert count == 1
    with pytest.raises(ValueError, match="Optimizer name should be one of"):
        layers.optimize_loss(loss, step, 0.1, "Nadam")
