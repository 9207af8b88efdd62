"""Entering a variable scope again, as GANs, multi-tower models and AUTO_REUSE functions do: tf.layers' default
names (dense, dense_1, ...) are counted afresh in a scope entered again, so the second build finds the first
build's variables. The expected names are written out from TF1's rules (variable_scope's count store)."""
import numpy as np
import pytest

import trainer as tg


def _names(variables):
    return sorted(v.op.name for v in variables)


def _discriminator(images, reuse=False):
    with tg.variable_scope("Discriminator", reuse=reuse):
        h = tg.layers.conv2d(images, 4, 3, activation=tg.nn.leaky_relu)
        h = tg.layers.conv2d(h, 4, 3, strides=2)
        return tg.layers.dense(tg.layers.flatten(h), 1)


def _generator(z):
    with tg.variable_scope("Generator"):
        return tg.reshape(tg.layers.dense(z, 64, activation=tg.nn.tanh), [-1, 8, 8, 1])


def test_gan_discriminator_built_twice_shares_one_set_of_variables():
    with tg.Graph().as_default():
        images = tg.placeholder(tg.float32, [None, 8, 8, 1])
        z = tg.placeholder(tg.float32, [None, 4])
        d_real = _discriminator(images)
        made = _names(tg.global_variables())
        d_fake = _discriminator(_generator(z), reuse=True)
        assert _names(tg.global_variables()) == [
            "Discriminator/conv2d/bias", "Discriminator/conv2d/kernel", "Discriminator/conv2d_1/bias",
            "Discriminator/conv2d_1/kernel", "Discriminator/dense/bias", "Discriminator/dense/kernel",
            "Generator/dense/bias", "Generator/dense/kernel"]
        assert made == [n for n in _names(tg.global_variables()) if n.startswith("Discriminator")]
        d_vars = tg.trainable_variables("Discriminator")
        grads_real = tg.gradients(tg.reduce_sum(d_real), d_vars)
        grads_fake = tg.gradients(tg.reduce_sum(d_fake), d_vars)
        assert all(g is not None for g in grads_real + grads_fake)  # both builds read the same variables
        assert d_real.op.name.startswith("Discriminator/") and d_fake.op.name.startswith("Discriminator_1/")


def test_scope_object_and_reuse_variables_patterns():
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [None, 3])
        with tg.variable_scope("D") as scope:
            tg.layers.dense(x, 2)
        with tg.variable_scope(scope, reuse=True):
            tg.layers.dense(x, 2)
        with tg.variable_scope("E") as scope:
            tg.layers.dense(x, 2, name="fc")
        with tg.variable_scope(scope) as again:
            again.reuse_variables()
            tg.layers.dense(x, 2, name="fc")
        assert _names(tg.global_variables()) == ["D/dense/bias", "D/dense/kernel", "E/fc/bias", "E/fc/kernel"]


def test_reentering_by_name_without_reuse_is_an_error_as_in_tf1():
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [None, 3])
        with tg.variable_scope("D"):
            tg.layers.dense(x, 2)
        with tg.variable_scope("D"):
            with pytest.raises(ValueError, match="D/dense/kernel already exists"):
                tg.layers.dense(x, 2)


def test_default_names_count_within_one_entry_and_per_scope():
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [None, 3])
        tg.layers.dense(x, 2)
        tg.layers.dense(x, 2)
        with tg.variable_scope("a"):
            tg.layers.dense(x, 2)
            with tg.variable_scope("inner"):
                tg.layers.dense(x, 2)
        with tg.variable_scope("a", reuse=True):
            tg.layers.dense(x, 2)
            with tg.variable_scope("inner"):
                tg.layers.dense(x, 2)
        with tg.variable_scope("b"):
            tg.layers.dense(x, 2)
        assert _names(tg.trainable_variables()) == [
            "a/dense/bias", "a/dense/kernel", "a/inner/dense/bias", "a/inner/dense/kernel", "b/dense/bias",
            "b/dense/kernel", "dense/bias", "dense/kernel", "dense_1/bias", "dense_1/kernel"]


def test_auto_reuse_function_called_twice():
    def encoder(x):
        with tg.variable_scope("encoder", reuse=tg.AUTO_REUSE):
            return tg.layers.dense(tg.layers.dense(x, 4, tg.nn.relu), 2)

    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [None, 3])
        a, b = encoder(x), encoder(x * 2.0)
        assert _names(tg.global_variables()) == ["encoder/dense/bias", "encoder/dense/kernel",
                                                 "encoder/dense_1/bias", "encoder/dense_1/kernel"]
        tg.set_random_seed(0)
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            va, vb = sess.run([a, b], {x: np.ones((1, 3))})
    assert va.shape == vb.shape == (1, 2)


def test_multi_tower_model_shares_variables_and_averages_tower_gradients():
    towers, data = 2, np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32)
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [None, 3])
        splits, tower_grads, outputs = tg.split(x, towers), [], []
        opt = tg.train.GradientDescentOptimizer(0.1)
        for i in range(towers):
            with tg.variable_scope(tg.get_variable_scope(), reuse=i > 0):
                with tg.name_scope("tower_%d" % i):
                    y = tg.layers.dense(tg.layers.dense(splits[i], 4, tg.nn.tanh), 1)
                    outputs.append(y)
                    tower_grads.append(opt.compute_gradients(tg.reduce_mean(tg.square(y))))
        assert _names(tg.global_variables()) == ["dense/bias", "dense/kernel", "dense_1/bias", "dense_1/kernel"]
        assert [y.op.name for y in outputs] == ["tower_0/dense_1/BiasAdd", "tower_1/dense_1/BiasAdd"]
        variables = [v for _, v in tower_grads[0]]
        assert [v for _, v in tower_grads[1]] == variables
        averaged = [(tg.add_n([g[k][0] for g in tower_grads]) / towers, variables[k]) for k in range(len(variables))]
        whole = opt.compute_gradients(tg.reduce_mean(tg.square(tg.concat(outputs, 0))), variables)
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            got, want = sess.run([[g for g, _ in averaged], [g for g, _ in whole]], {x: data})
    for a, b in zip(got, want):  # equal halves: the mean of the tower means is the mean over the batch
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-7)


def test_name_scope_reentered_by_string_or_scope_name():
    with tg.Graph().as_default():
        with tg.name_scope("block") as scope:
            tg.constant(1.0, name="a")
        with tg.name_scope(scope):
            b = tg.constant(1.0, name="b")
        with tg.variable_scope("vs") as vs:
            pass
        with tg.variable_scope(vs, auxiliary_name_scope=False) as vs1:
            with tg.name_scope(vs1.original_name_scope):
                v = tg.get_variable("v", [1])
                c = tg.constant(1.0, name="c")
        assert (b.name, v.name, c.name) == ("block/b:0", "vs/v:0", "vs/c:0")
