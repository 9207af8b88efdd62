"""Arguments TF1 takes as Tensors: the same results as Python numbers, static shapes read through tg.shape(x),
random parameters that gradients reach, and ops TF1 declares NotDifferentiable passed through quietly."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op

X = np.random.default_rng(0).standard_normal((3, 4))
X32 = X.astype(np.float32)


def _run(fetches, feed=None, graph=None):
    with tg.Session(graph=graph) as sess:
        return sess.run(fetches, feed)


@pytest.mark.parametrize("build", [
    lambda v: tg.clip_by_value(tg.constant(X32), v(-0.5), v(0.25)),
    lambda v: tg.clip_by_norm(tg.constant(X32), v(1.5)),
    lambda v: tg.one_hot([0, 2, 5], tg.cast(v(4.0), tg.int32), on_value=v(2.5), off_value=v(-1.0)),
    lambda v: tg.range(tg.cast(v(7.0), tg.int32)),
    lambda v: tg.fill([2, tg.cast(v(3.0), tg.int32)], v(1.5)),
    lambda v: tg.eye(tg.cast(v(3.0), tg.int32), batch_shape=[2]),
    lambda v: tg.nn.dropout(tg.constant(X32), v(1.0)),
    lambda v: tg.tile(tg.constant(X32), [tg.cast(v(2.0), tg.int32), 1]),
    lambda v: tg.pad(tg.constant(X32), [[tg.cast(v(1.0), tg.int32), 0], [0, 2]]),
    lambda v: tg.zeros([tg.cast(v(2.0), tg.int32), 3]) + tg.ones([tg.cast(v(3.0), tg.int32)]),
    lambda v: tg.train.exponential_decay(v(0.5), tg.constant(10), v(4.0), v(0.5), staircase=True),
], ids=["clip_by_value", "clip_by_norm", "one_hot", "range", "fill", "eye", "dropout", "tile", "pad", "zeros_ones",
        "exponential_decay"])
def test_tensor_arguments_give_what_python_numbers_give(build):
    with tg.Graph().as_default() as g:
        fed = tg.placeholder(tg.float32, [])
        numbers = build(lambda x: x)
        tensors = build(lambda x: fed * 0.0 + x)  # the value only the run knows
    np.testing.assert_allclose(_run(tensors, {fed: 0.0}, graph=g), _run(numbers, graph=g), rtol=1e-6)


def test_shapes_given_as_tensors_keep_what_tf1_knows_statically():
    with tg.Graph().as_default() as g:
        x = tg.placeholder(tg.float32, [None, 4])
        n = tg.shape(x)[0]
        built = {
            "random_normal(tf.shape(x))": tg.random_normal(tg.shape(x)),
            "random_uniform([n, 3])": tg.random_uniform([n, 3]),
            "truncated_normal([n, 2], stddev=t)": tg.truncated_normal([n, 2], stddev=tg.constant(0.5)),
            "zeros(tf.shape(x))": tg.zeros(tg.shape(x)),
            "ones([n])": tg.ones([n]),
            "fill([n, 3], 2.0)": tg.fill([n, 3], 2.0),
            "reshape(x, [n, 2, 2])": tg.reshape(x, [n, 2, 2]),
            "tile(x, [2, n])": tg.tile(x, [2, n]),
            "pad(x, [[0, n], [1, 1]])": tg.pad(x, [[0, n], [1, 1]]),
            "x[:n - 1]": x[:n - 1],
            "slice(x, [1, 0], [-1, 2])": tg.slice(x, [1, 0], [-1, 2]),
            "conv2d_transpose([n, 4, 4, 1])": tg.nn.conv2d_transpose(
                tg.zeros([2, 2, 2, 3]), tg.ones([3, 3, 1, 3]), tg.stack([tg.shape(x)[0] - 1, 4, 4, 1]),
                [1, 2, 2, 1]),
        }
        expected = {"random_normal(tf.shape(x))": [None, 4], "random_uniform([n, 3])": [None, 3],
                    "truncated_normal([n, 2], stddev=t)": [None, 2], "zeros(tf.shape(x))": [None, 4],
                    "ones([n])": [None], "fill([n, 3], 2.0)": [None, 3], "reshape(x, [n, 2, 2])": [None, 2, 2],
                    "tile(x, [2, n])": [None, None], "pad(x, [[0, n], [1, 1]])": [None, 6], "x[:n - 1]": [None, 4],
                    "slice(x, [1, 0], [-1, 2])": [None, 2], "conv2d_transpose([n, 4, 4, 1])": [None, 4, 4, 1]}
        for what, t in built.items():
            assert t.shape.as_list() == expected[what], what
    values = _run(built, {x: X32}, graph=g)
    run_shapes = {"random_normal(tf.shape(x))": (3, 4), "random_uniform([n, 3])": (3, 3),
                  "truncated_normal([n, 2], stddev=t)": (3, 2), "zeros(tf.shape(x))": (3, 4), "ones([n])": (3,),
                  "fill([n, 3], 2.0)": (3, 3), "reshape(x, [n, 2, 2])": (3, 2, 2), "tile(x, [2, n])": (6, 12),
                  "pad(x, [[0, n], [1, 1]])": (6, 6), "x[:n - 1]": (2, 4), "slice(x, [1, 0], [-1, 2])": (2, 2),
                  "conv2d_transpose([n, 4, 4, 1])": (2, 4, 4, 1)}
    for what, value in values.items():
        assert value.shape == run_shapes[what], what
    np.testing.assert_array_equal(values["tile(x, [2, n])"], np.tile(X32, (2, 3)))
    np.testing.assert_array_equal(values["pad(x, [[0, n], [1, 1]])"], np.pad(X32, [[0, 3], [1, 1]]))
    np.testing.assert_array_equal(values["slice(x, [1, 0], [-1, 2])"], X32[1:, :2])
    np.testing.assert_array_equal(values["x[:n - 1]"], X32[:2])
    assert np.all(values["zeros(tf.shape(x))"] == 0) and np.all(values["fill([n, 3], 2.0)"] == 2.0)


def test_shapes_known_while_building_stay_static():
    with tg.Graph().as_default():
        c = tg.zeros([5, 2])
        assert tg.random_normal(tg.shape(c)).shape == (5, 2)
        assert tg.zeros([tg.shape(c)[0], 3]).shape == (5, 3)
        assert tg.zeros(3).shape == (3,) and tg.zeros(np.int64(3)).shape == (3,)
        assert tg.eye(tg.shape(c)[1], num_columns=tg.shape(c)[0]).shape == (2, 5)


@pytest.mark.parametrize("build,reference", [
    (lambda t: tg.tile(t, [tg.shape(t)[0] - 1, 1]), lambda a: np.tile(a, (2, 1))),
    (lambda t: tg.pad(t, [[0, 5 - tg.shape(t)[0]], [1, 0]], mode="REFLECT"),
     lambda a: np.pad(a, [[0, 2], [1, 0]], mode="reflect")),
    (lambda t: tg.slice(t, [1, tg.shape(t)[1] - 3], [-1, 2]), lambda a: a[1:, 1:3]),
    (lambda t: t[:tg.shape(t)[0] - 1, 1], lambda a: a[:2, 1]),
    (lambda t: t[tg.shape(t)[0] - 2:, tg.shape(t)[1] // 2:], lambda a: a[1:, 2:]),
    (lambda t: tg.concat(tg.split(t, 3)[::-1], 1), lambda a: np.concatenate(np.split(a, 3)[::-1], 1)),
], ids=["tile", "pad_reflect", "slice", "getitem_index", "getitem_slices", "split"])
def test_ops_with_positions_only_the_run_knows_and_their_gradients(build, reference):
    check_op(build, [X], numpy_fn=reference, dynamic=True)
    check_op(build, [X], numpy_fn=reference)


def test_slice_and_split_check_sizes_when_they_run():
    with tg.Graph().as_default() as g:
        x = tg.placeholder(tg.float32, [None, 4])
        out = tg.slice(x, [2, 0], [tg.shape(x)[0], -1])
        parts = tg.split(x, 2)
        assert parts[0].shape.as_list() == [None, 4]
    with pytest.raises(tg.errors.InvalidArgumentError, match="do not fit in shape"):
        _run(out, {x: X}, graph=g)
    with pytest.raises(tg.errors.InvalidArgumentError, match="evenly divisible by 2 but is 3"):
        _run(parts, {x: X}, graph=g)


def _fresh_run(graph, fetch, feed):
    # each Session starts the random streams from their seeds: the same noise every time
    return _run(fetch, feed, graph=graph)


def test_random_normal_with_tensor_mean_and_stddev_is_noise_scaled_and_shifted():
    with tg.Graph().as_default() as g:
        tg.set_random_seed(11)
        mean, stddev = tg.placeholder(tg.float64, []), tg.placeholder(tg.float64, [])
        samples = tg.random_normal([200000], mean=mean, stddev=stddev, dtype=tg.float64, seed=3)
        grads = tg.gradients(tg.reduce_sum(samples * samples), [mean, stddev])
    assert samples.name == "random_normal:0"
    feed = {mean: 1.5, stddev: 0.5}
    value, (g_mean, g_std) = _fresh_run(g, [samples, grads], feed)
    n = value.size
    assert abs(value.mean() - 1.5) < 4 * 0.5 / np.sqrt(n)
    assert abs(value.std() - 0.5) < 4 * 0.5 / np.sqrt(2 * n)
    noise = (value - 1.5) / 0.5
    np.testing.assert_allclose(g_mean, np.sum(2 * value), rtol=1e-9)  # closed form: d/dm sum((m + s e)^2)
    np.testing.assert_allclose(g_std, np.sum(2 * value * noise), rtol=1e-9)
    eps = 1e-6
    objective = lambda m, s: np.sum(_fresh_run(g, samples, {mean: m, stddev: s}) ** 2)
    np.testing.assert_allclose(g_mean, (objective(1.5 + eps, 0.5) - objective(1.5 - eps, 0.5)) / (2 * eps), rtol=1e-5)
    np.testing.assert_allclose(g_std, (objective(1.5, 0.5 + eps) - objective(1.5, 0.5 - eps)) / (2 * eps), rtol=1e-5)


@pytest.mark.parametrize("sampler", ["truncated_normal", "random_uniform"])
def test_other_samplers_with_tensor_parameters_have_finite_difference_gradients(sampler):
    with tg.Graph().as_default() as g:
        a, b = tg.placeholder(tg.float64, []), tg.placeholder(tg.float64, [])
        if sampler == "truncated_normal":
            out = tg.truncated_normal([1000], mean=a, stddev=b, dtype=tg.float64, seed=5)
        else:
            out = tg.random_uniform([1000], minval=a, maxval=b, dtype=tg.float64, seed=5)
        loss = tg.reduce_sum(tg.sin(out))
        grads = tg.gradients(loss, [a, b])
    feed = {a: -0.5, b: 2.0}
    value, got = _fresh_run(g, [out, grads], feed)
    if sampler == "truncated_normal":
        assert np.all(np.abs(value + 0.5) <= 2 * 2.0)
    else:
        assert value.min() >= -0.5 and value.max() < 2.0
    eps = 1e-6
    for i, key in enumerate([a, b]):
        up, down = dict(feed), dict(feed)
        up[key] += eps
        down[key] -= eps
        numeric = (_fresh_run(g, loss, up) - _fresh_run(g, loss, down)) / (2 * eps)
        np.testing.assert_allclose(got[i], numeric, rtol=1e-5)


def test_python_and_tensor_parameters_draw_the_same_numbers():
    with tg.Graph().as_default() as g:
        numbers = tg.random_normal([50], mean=2.0, stddev=3.0, seed=7)
        tensors = tg.random_normal([50], mean=tg.constant(2.0), stddev=tg.constant(3.0), seed=7)
        uniform_ints = tg.random_uniform([50], minval=tg.constant(-3), maxval=tg.constant(4), dtype=tg.int32, seed=2)
    a, b, ints = _run([numbers, tensors, uniform_ints], graph=g)
    np.testing.assert_allclose(a, b, rtol=1e-6)
    assert ints.min() >= -3 and ints.max() <= 3 and len(set(ints.tolist())) > 3


def test_reparameterisation_reaches_mean_and_stddev_not_the_noise():
    with tg.Graph().as_default() as g:
        mean = tg.placeholder(tg.float64, [None, 3])
        log_var = tg.placeholder(tg.float64, [None, 3])
        stddev = tg.exp(0.5 * log_var)
        eps = tg.random_normal(tg.shape(mean), dtype=tg.float64, seed=1)
        z = mean + stddev * eps
        loss = tg.reduce_sum(tg.square(z - 1.0))
        grads = tg.gradients(loss, [mean, log_var])
    rng = np.random.default_rng(1)
    feed = {mean: rng.standard_normal((2, 3)), log_var: rng.standard_normal((2, 3))}
    got = _fresh_run(g, grads, feed)
    for i, key in enumerate([mean, log_var]):
        numeric = np.zeros_like(feed[key])
        for idx in np.ndindex(numeric.shape):
            up, down = {k: v.copy() for k, v in feed.items()}, {k: v.copy() for k, v in feed.items()}
            up[key][idx] += 1e-6
            down[key][idx] -= 1e-6
            numeric[idx] = (_fresh_run(g, loss, up) - _fresh_run(g, loss, down)) / 2e-6
        np.testing.assert_allclose(got[i], numeric, rtol=1e-5, atol=1e-8)


def test_ops_tf1_declares_not_differentiable_give_no_gradient_and_no_error():
    with tg.Graph().as_default() as g:
        x = tg.placeholder(tg.float64, [2, 4])
        picked = tg.one_hot(tg.argmax(x, 1), 4, dtype=tg.float64)  # ArgMax -> OneHot: connected to x
        noise = tg.random_uniform(tg.shape(x), dtype=tg.float64) + tg.cast(tg.size(x), tg.float64)
        mask = tg.cast(tg.equal(x, tg.reduce_max(x)), tg.float64)
        y = tg.reduce_sum(picked * x) + tg.reduce_sum(noise * 0.0 + mask)
        grad_x, = tg.gradients(y, [x])
        assert tg.gradients(tg.reduce_sum(picked), [x]) == [None]
        assert tg.gradients(tg.reduce_sum(tg.random_normal(tg.shape(x))), [x]) == [None]
    value = np.array([[0.1, 0.9, 0.3, 0.2], [1.5, -1.0, 0.4, 1.1]])
    np.testing.assert_array_equal(_run(grad_x, {x: value}, graph=g), np.eye(4)[[1, 0]])


def test_optimizers_take_tensor_hyperparameters():
    results = []
    for as_tensor in (False, True):
        with tg.Graph().as_default() as g:
            wrap = (lambda v: tg.placeholder_with_default(np.float32(v), [])) if as_tensor else (lambda v: v)
            var = tg.Variable([1.0, -2.0])
            loss = tg.reduce_sum(tg.square(var - 0.5))
            ops = [tg.train.AdamOptimizer(wrap(0.1), beta1=wrap(0.8), beta2=wrap(0.9), epsilon=wrap(1e-6)),
                   tg.train.MomentumOptimizer(wrap(0.05), wrap(0.9)), tg.train.RMSPropOptimizer(wrap(0.01))]
            train = tg.group(*[opt.minimize(loss) for opt in ops])
            with tg.Session() as sess:
                sess.run(tg.global_variables_initializer())
                for _ in range(5):
                    sess.run(train)
                results.append(sess.run(var))
    np.testing.assert_allclose(results[1], results[0], rtol=1e-6)


def test_tensors_that_must_be_known_while_building_say_so():
    with tg.Graph().as_default():
        axis = tg.placeholder(tg.int32, [])
        for build in (lambda: tg.concat([tg.ones([2]), tg.ones([2])], axis),
                      lambda: tg.expand_dims(tg.ones([2]), axis), lambda: tg.split(tg.ones([4]), 2, axis=axis),
                      lambda: tg.argmax(tg.ones([2]), axis), lambda: tg.argmin(tg.ones([2]), dimension=axis)):
            with pytest.raises(NotImplementedError, match="computed while the graph runs"):
                build()
        with pytest.raises(TypeError, match="must be an int scalar"):
            tg.ones([3])[tg.constant(1.0)]
