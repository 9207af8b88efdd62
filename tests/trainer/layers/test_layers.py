"""tg.layers: TF1's variable names, scopes and collections, and values/gradients against numpy and PyTorch."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import numerical_gradient, torch
from trainer.framework.graph_keys import GraphKeys

F = torch and torch.nn.functional
RNG = np.random.default_rng(2)


def _names(variables):
    return [v.name for v in variables]


def _collection(key):
    return tg.get_default_graph().get_collection(key)


def test_dense_names_values_and_gradients():
    x = RNG.standard_normal((5, 4))
    with tg.Graph().as_default():
        inputs = tg.placeholder(tg.float64, [None, 4])
        h = tg.layers.dense(inputs, 3, activation=tg.nn.relu)
        y = tg.layers.dense(h, 2, use_bias=False)
        assert _names(tg.global_variables()) == ["dense/kernel:0", "dense/bias:0", "dense_1/kernel:0"]
        assert _names(tg.trainable_variables()) == _names(tg.global_variables())
        assert h.op.name == "dense/Relu" and h.shape == (None, 3) and y.shape == (None, 2)
        k1, b1, k2 = tg.global_variables()
        assert k1.dtype == tg.float64 and k1.shape == (4, 3) and b1.shape == (3,)
        cot = RNG.standard_normal((5, 2))
        grads = tg.gradients(tg.reduce_sum(y * cot), [inputs, k1, b1, k2])
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            kv1, bv1, kv2 = sess.run([k1, b1, k2])
            out, gx, gk1, gb1, gk2 = sess.run([y, *grads], {inputs: x})
    limit = np.sqrt(6 / (4 + 3))  # glorot_uniform, TF1 layers' default kernel initializer
    assert np.all(np.abs(kv1) <= limit) and np.abs(kv1).max() > limit / 4
    np.testing.assert_array_equal(bv1, 0)
    pre = x @ kv1 + bv1
    hv = np.maximum(pre, 0)
    np.testing.assert_allclose(out, hv @ kv2, rtol=1e-12)
    dh = (cot @ kv2.T) * (pre > 0)
    np.testing.assert_allclose(gk2, hv.T @ cot, rtol=1e-12)
    np.testing.assert_allclose(gk1, x.T @ dh, rtol=1e-12)
    np.testing.assert_allclose(gb1, dh.sum(0), rtol=1e-12)
    np.testing.assert_allclose(gx, dh @ kv1.T, rtol=1e-12)


def test_dense_reuse_scopes_and_errors():
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [None, 4])
        a = tg.layers.dense(x, 3, name="fc")
        b = tg.layers.dense(x, 3, name="fc", reuse=True)
        assert _names(tg.global_variables()) == ["fc/kernel:0", "fc/bias:0"]
        assert a.op.name == "fc/BiasAdd" and b.op.name == "fc_1/BiasAdd"
        with pytest.raises(ValueError, match="fc/kernel already exists"):
            tg.layers.dense(x, 3, name="fc")
        with pytest.raises(ValueError, match="other/kernel does not exist"):
            tg.layers.dense(x, 3, name="other", reuse=True)
        with tg.variable_scope("net"):
            tg.layers.dense(x, 2)
            tg.layers.dense(x, 2)
        with tg.variable_scope("net", reuse=True):
            tg.layers.dense(x, 2, name="dense_1")
        with tg.variable_scope("net", reuse=tg.AUTO_REUSE):
            tg.layers.dense(x, 2, name="dense")
        assert _names(tg.global_variables())[2:] == ["net/dense/kernel:0", "net/dense/bias:0",
                                                     "net/dense_1/kernel:0", "net/dense_1/bias:0"]
        with pytest.raises(ValueError, match=r"known last dimension, got shape \(None, None\)"):
            tg.layers.dense(tg.placeholder(tg.float32, [None, None]), 2)
        with pytest.raises(TypeError, match="unexpected keyword arguments \\['unit'\\]"):
            tg.layers.Dense(3, unit=2)


def test_dense_object_style_shares_its_variables_and_applies_on_the_last_axis():
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    with tg.Graph().as_default():
        layer = tg.layers.Dense(5, kernel_initializer=tg.ones_initializer(),
                                bias_initializer=tg.constant_initializer(0.5))
        inputs = tg.placeholder(tg.float32, [None, 3, 4])
        first, second = layer(inputs), layer.apply(inputs * 2.0)
        assert first.shape == (None, 3, 5)
        assert _names(layer.trainable_weights) == ["dense/kernel:0", "dense/bias:0"]
        assert _names(tg.global_variables()) == _names(layer.weights) and layer.non_trainable_weights == []
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            a, b = sess.run([first, second], {inputs: x})
    np.testing.assert_allclose(a, np.repeat(x.sum(-1, keepdims=True), 5, -1) + 0.5, rtol=1e-6)
    np.testing.assert_allclose(b, 2 * (a - 0.5) + 0.5, rtol=1e-6)


def test_regularizers_and_frozen_layers():
    with tg.Graph().as_default():
        x = tg.ones([2, 3])
        tg.layers.dense(x, 4, kernel_regularizer=lambda w: 0.1 * tg.reduce_sum(w * w),
                        kernel_initializer=tg.constant_initializer(2.0), name="reg")
        tg.layers.dense(x, 4, kernel_regularizer=lambda w: 0.1 * tg.reduce_sum(w * w), name="reg", reuse=True)
        frozen = tg.layers.dense(x, 1, trainable=False, name="frozen", kernel_constraint=tg.nn.relu)
        assert tg.global_variables()[-2].constraint is tg.nn.relu  # applied by the optimizers, as in TF1
        losses = _collection(GraphKeys.REGULARIZATION_LOSSES)
        assert len(losses) == 1 and losses[0].name.startswith("reg/kernel/Regularizer/")
        assert "frozen/kernel:0" not in _names(tg.trainable_variables())
        assert "frozen/kernel:0" in _names(tg.global_variables()) and frozen.shape == (2, 1)
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            assert np.isclose(sess.run(tg.losses.get_regularization_loss()), 0.1 * 12 * 4.0)


def _numpy_conv_valid(x, w, stride):
    kh, kw = w.shape[:2]
    ho, wo = (x.shape[1] - kh) // stride + 1, (x.shape[2] - kw) // stride + 1
    out = np.zeros((x.shape[0], ho, wo, w.shape[3]))
    for i in range(ho):
        for j in range(wo):
            patch = x[:, i * stride:i * stride + kh, j * stride:j * stride + kw]
            out[:, i, j] = np.tensordot(patch, w, axes=3)
    return out


def test_conv2d_layer():
    x = RNG.standard_normal((2, 7, 6, 3))
    with tg.Graph().as_default():
        inputs = tg.constant(x)
        y = tg.layers.conv2d(inputs, 4, 3, strides=2, activation=tg.nn.relu,
                             bias_initializer=tg.constant_initializer(0.1))
        same = tg.layers.conv2d(inputs, 2, (3, 2), padding="Same")
        first = tg.layers.conv2d(tg.constant(x.transpose(0, 3, 1, 2)), 4, 3, strides=2, data_format="channels_first",
                                 name="conv2d", reuse=True, activation=tg.nn.relu)
        assert _names(tg.global_variables()) == ["conv2d/kernel:0", "conv2d/bias:0", "conv2d_1/kernel:0",
                                                 "conv2d_1/bias:0"]
        assert tg.global_variables()[0].shape == (3, 3, 3, 4)
        assert y.shape == (2, 3, 2, 4) and same.shape == (2, 7, 6, 2) and first.shape == (2, 4, 3, 2)
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            out, nchw, w = sess.run([y, first, tg.global_variables()[0]])
    np.testing.assert_allclose(out, np.maximum(_numpy_conv_valid(x, w, 2) + 0.1, 0), rtol=1e-10)
    np.testing.assert_allclose(nchw, out.transpose(0, 3, 1, 2), rtol=1e-10)


def test_conv2d_layer_dilation_against_torch():
    if torch is None:
        pytest.skip("torch is not installed")
    x = RNG.standard_normal((1, 9, 9, 2))
    with tg.Graph().as_default():
        y = tg.layers.conv2d(tg.constant(x), 3, 3, dilation_rate=2)
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            out, w, b = sess.run([y, *tg.global_variables()])
    expect = F.conv2d(torch.tensor(x).permute(0, 3, 1, 2), torch.tensor(w).permute(3, 2, 0, 1), torch.tensor(b),
                      dilation=2).permute(0, 2, 3, 1)
    np.testing.assert_allclose(out, expect.numpy(), rtol=1e-10)


def test_pooling_layers():
    x = RNG.standard_normal((2, 5, 5, 3))
    with tg.Graph().as_default():
        inputs = tg.constant(x)
        mx = tg.layers.max_pooling2d(inputs, 2, 2)
        avg = tg.layers.average_pooling2d(inputs, (3, 3), 2, padding="same")
        avg_first = tg.layers.AveragePooling2D(3, 2, padding="SAME", data_format="channels_first")(
            tg.constant(x.transpose(0, 3, 1, 2)))
        assert mx.op.name == "max_pooling2d/MaxPool" and avg.op.name == "average_pooling2d/AvgPool"
        assert mx.shape == (2, 2, 2, 3) and avg.shape == (2, 3, 3, 3) and tg.global_variables() == []
        with tg.Session() as sess:
            m, a, af = sess.run([mx, avg, avg_first])
    np.testing.assert_array_equal(m, x[:, :4, :4].reshape(2, 2, 2, 2, 2, 3).max(axis=(2, 4)))
    np.testing.assert_allclose(a[:, 0, 0], x[:, :2, :2].mean(axis=(1, 2)), rtol=1e-12)  # corner: 4 real pixels
    np.testing.assert_allclose(a[:, 1, 1], x[:, 1:4, 1:4].mean(axis=(1, 2)), rtol=1e-12)
    np.testing.assert_allclose(af, a.transpose(0, 3, 1, 2), rtol=1e-12)


def test_flatten():
    x = RNG.standard_normal((2, 3, 4, 5))
    with tg.Graph().as_default():
        inputs = tg.placeholder(tg.float64, [None, 3, 4, 5])
        flat, first = tg.layers.flatten(inputs), tg.layers.Flatten(data_format="channels_first")(inputs)
        assert flat.shape == (None, 60)
        with tg.Session() as sess:
            a, b = sess.run([flat, first], {inputs: x})
    np.testing.assert_array_equal(a, x.reshape(2, -1))
    np.testing.assert_array_equal(b, x.transpose(0, 2, 3, 1).reshape(2, -1))


def test_dropout_with_bool_and_tensor_training():
    with tg.Graph().as_default():
        x = tg.ones([2000])
        training = tg.placeholder(tg.bool, [])
        off = tg.layers.dropout(x, 0.3)
        on = tg.layers.dropout(x, 0.3, training=True, seed=1)
        fed = tg.layers.dropout(x, rate=0.3, training=training, seed=2)
        grad, = tg.gradients(tg.reduce_sum(fed * 3.0), [x])
        with tg.Session() as sess:
            assert np.all(sess.run(off) == 1.0)
            for value in (sess.run(on), sess.run(fed, {training: True})):
                assert set(np.unique(value)) == {0.0, np.float32(1 / 0.7)} and 0.25 < np.mean(value == 0) < 0.35
            np.testing.assert_array_equal(sess.run(fed, {training: False}), 1.0)
            np.testing.assert_array_equal(sess.run(grad, {training: False}), 3.0)
            rows = sess.run(tg.layers.dropout(tg.ones([200, 5]), 0.5, noise_shape=[None, 1], training=True))
            assert set(np.unique(rows.std(axis=1))) == {0.0} and 0.3 < np.mean(rows[:, 0] == 0) < 0.7
        with pytest.raises(TypeError, match="bool Tensor"):
            tg.layers.dropout(x, training=tg.constant(1.0))


def _bn_graph(x, training, **kwargs):
    inputs = tg.constant(x)
    y = tg.layers.batch_normalization(inputs, training=training, **kwargs)
    return inputs, y


@pytest.mark.parametrize("shape,axis", [((4, 3, 3, 2), -1), ((6, 3), -1), ((4, 3, 2, 2), 1)], ids=str)
def test_batch_normalization_training_matches_torch(shape, axis):
    x = RNG.standard_normal(shape) * 2 + 1
    gamma, beta = RNG.uniform(0.5, 1.5, shape[axis]), RNG.standard_normal(shape[axis])
    cot = RNG.standard_normal(shape)
    with tg.Graph().as_default():
        inputs, y = _bn_graph(x, True, axis=axis, gamma_initializer=tg.constant_initializer(gamma),
                              beta_initializer=tg.constant_initializer(beta), epsilon=1e-3)
        variables = tg.global_variables()
        assert _names(variables) == ["batch_normalization/gamma:0", "batch_normalization/beta:0",
                                     "batch_normalization/moving_mean:0", "batch_normalization/moving_variance:0"]
        assert _names(tg.trainable_variables()) == _names(variables[:2])
        grads = tg.gradients(tg.reduce_sum(y * cot), [inputs, *variables[:2]])
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            out, gx, gg, gb = sess.run([y, *grads])
    axes = tuple(i for i in range(len(shape)) if i != axis % len(shape))
    bshape = [1] * len(shape)
    bshape[axis] = shape[axis]
    mean, var = x.mean(axes, keepdims=True), x.var(axes, keepdims=True)
    xhat = (x - mean) / np.sqrt(var + 1e-3)
    np.testing.assert_allclose(out, xhat * gamma.reshape(bshape) + beta.reshape(bshape), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(gb, cot.sum(axes), rtol=1e-10)  # closed forms for the parameters
    np.testing.assert_allclose(gg, (cot * xhat).sum(axes), rtol=1e-10)
    if torch is not None:
        channels_second = np.moveaxis(x, axis, 1)
        t = torch.tensor(channels_second, requires_grad=True)
        expect = F.batch_norm(t, None, None, torch.tensor(gamma), torch.tensor(beta), training=True, eps=1e-3)
        expect.backward(torch.tensor(np.moveaxis(cot, axis, 1)))
        np.testing.assert_allclose(out, np.moveaxis(expect.detach().numpy(), 1, axis), rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(gx, np.moveaxis(t.grad.numpy(), 1, axis), rtol=1e-8, atol=1e-10)


def test_batch_normalization_input_gradient_numerically():
    x = RNG.standard_normal((5, 3))
    cot = RNG.standard_normal((5, 3))
    with tg.Graph().as_default():
        inputs = tg.placeholder(tg.float64, [5, 3])
        y = tg.layers.batch_normalization(inputs, training=True, epsilon=0.1)
        g, = tg.gradients(tg.reduce_sum(y * cot), [inputs])
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            grad = sess.run(g, {inputs: x})
            numeric, = numerical_gradient(lambda v: np.sum(sess.run(y, {inputs: v[0]}) * cot), [x])
    np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("shape,unbiased", [((4, 3, 3, 2), True), ((6, 2), False)], ids=str)
def test_batch_normalization_moving_averages(shape, unbiased):
    # 4-D float32 inputs take TF1's fused path: the moving variance gets the n/(n-1)-corrected batch variance,
    # exactly what PyTorch's running_var gets with momentum = 1 - TF's momentum.
    x = (RNG.standard_normal(shape) * 3 + 2).astype(np.float32)
    with tg.Graph().as_default():
        inputs = tg.placeholder(tg.float32, (None, *shape[1:]))  # the count n comes from the run-time batch size
        y = tg.layers.batch_normalization(inputs, training=True, momentum=0.9)
        updates = _collection(GraphKeys.UPDATE_OPS)
        assert len(updates) == 2 and all(u.op.type == "AssignSub" for u in updates)
        mm, mv = tg.global_variables()[2:]
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            sess.run([y, updates], {inputs: x})
            sess.run(updates, {inputs: x})
            got_mean, got_var = sess.run([mm, mv])
    axes = tuple(range(len(shape) - 1))
    batch_var = x.astype(np.float64).var(axes, ddof=1 if unbiased else 0)
    mean, var = np.zeros(shape[-1]), np.ones(shape[-1])
    for _ in range(2):
        mean, var = 0.9 * mean + 0.1 * x.mean(axes), 0.9 * var + 0.1 * batch_var
    np.testing.assert_allclose(got_mean, mean, rtol=1e-5)
    np.testing.assert_allclose(got_var, var, rtol=1e-5)
    if torch is not None and unbiased:
        running_mean, running_var = torch.zeros(shape[-1]), torch.ones(shape[-1])
        for _ in range(2):
            F.batch_norm(torch.tensor(np.moveaxis(x, -1, 1)), running_mean, running_var, training=True, momentum=0.1)
        np.testing.assert_allclose(got_var, running_var.numpy(), rtol=1e-5)


def test_batch_normalization_with_a_training_placeholder():
    x = RNG.standard_normal((8, 3)) + 5
    with tg.Graph().as_default():
        training = tg.placeholder(tg.bool, [], name="training")
        inputs = tg.constant(x)
        y = tg.layers.batch_normalization(inputs, training=training, momentum=0.5, epsilon=1e-3, name="bn")
        again = tg.layers.batch_normalization(inputs, training=False, name="bn", reuse=True)
        updates = _collection(GraphKeys.UPDATE_OPS)
        assert _names(tg.global_variables()) == ["bn/gamma:0", "bn/beta:0", "bn/moving_mean:0",
                                                 "bn/moving_variance:0"]
        mm, mv = tg.global_variables()[2:]
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            inference, _ = sess.run([y, updates], {training: False})
            assert np.all(sess.run(mm) == 0) and np.all(sess.run(mv) == 1)  # no update when not training
            np.testing.assert_allclose(inference, x / np.sqrt(1 + 1e-3), rtol=1e-12)
            train, _ = sess.run([y, updates], {training: True})
            np.testing.assert_allclose(train, (x - x.mean(0)) / np.sqrt(x.var(0) + 1e-3), rtol=1e-10)
            np.testing.assert_allclose(sess.run(mm), 0.5 * x.mean(0), rtol=1e-12)
            np.testing.assert_allclose(sess.run(mv), 0.5 + 0.5 * x.var(0), rtol=1e-12)
            np.testing.assert_allclose(sess.run(again), (x - 0.5 * x.mean(0)) / np.sqrt(0.5 + 0.5 * x.var(0) + 1e-3),
                                       rtol=1e-12)


def test_batch_normalization_errors_name_the_culprit():
    with tg.Graph().as_default():
        with pytest.raises(NotImplementedError, match="renorm=True"):
            tg.layers.batch_normalization(tg.ones([2, 3]), renorm=True)
        with pytest.raises(ValueError, match=r"Invalid axis \[3\]"):
            tg.layers.batch_normalization(tg.ones([2, 3]), axis=3)
        with pytest.raises(ValueError, match="fused=True"):
            tg.layers.batch_normalization(tg.ones([2, 3]), fused=True)


def test_training_placeholder_of_unknown_shape_keeps_the_layer_output_shape():
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [None, 8, 8, 2])
        training = tg.placeholder(tg.bool, name="is_training")  # no shape, as many TF1 programs write it
        h = tg.layers.batch_normalization(x, training=training)
        h = tg.layers.dropout(h, rate=0.5, training=training)
        assert h.shape.as_list() == [None, 8, 8, 2]
        assert tg.layers.max_pooling2d(h, 2, 2).shape.as_list() == [None, 4, 4, 2]


@pytest.mark.parametrize("axis", [-1, 1], ids=["NHWC", "NCHW"])
def test_batch_normalization_of_images_runs_tf1s_fused_op_as_the_composed_ops_would(axis):
    """A Python-bool `training` on 4-D float32 images builds FusedBatchNormV3 (and its gradient op) as TF1 does; a
    bool Tensor builds the composed ops. Outputs, gradients and moving averages agree."""
    x, cot = (RNG.standard_normal((4, 3, 5, 6)) * 2 + 1).astype(np.float32), RNG.standard_normal((4, 3, 5, 6))

    def run(training_value, as_tensor):
        with tg.Graph().as_default() as graph:
            inputs = tg.constant(x)
            training = tg.constant(training_value) if as_tensor else training_value
            y = tg.layers.batch_normalization(inputs, axis=axis, training=training, momentum=0.5,
                                              beta_initializer=tg.constant_initializer(0.5))
            grads = tg.gradients(tg.reduce_sum(y * cot.astype(np.float32)), [inputs, *tg.trainable_variables()])
            with tg.Session() as sess:
                sess.run(tg.global_variables_initializer())
                values = sess.run([y, *grads, _collection(GraphKeys.UPDATE_OPS)])
                values = values[:-1] + sess.run(tg.global_variables()[2:])
            return values, {op.type for op in graph.get_operations()}

    for training in (True, False):
        (fused, types), (composed, composed_types) = run(training, False), run(training, True)
        assert "FusedBatchNormV3" in types and "FusedBatchNormGradV3" in types
        assert "FusedBatchNormV3" not in composed_types
        for name, got, want in zip(["y", "dx", "dgamma", "dbeta", "moving_mean", "moving_variance"], fused, composed):
            np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5, err_msg=f"training={training}: {name}")
