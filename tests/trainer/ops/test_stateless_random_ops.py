"""Stateless random ops: a function of shape and seed pair alone (every run, every session, the same numbers);
tf.random.gamma and poisson: shapes and moments. TF's own numbers for the stateless ops are checked bit for bit by
the conformance table's `top` family."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import fresh_graph  # noqa: F401 (fresh_graph: autouse)

STATELESS = [(tg.random.stateless_uniform, {}), (tg.random.stateless_normal, {}),
             (tg.random.stateless_truncated_normal, {}),
             (tg.random.stateless_uniform, {"minval": -5, "maxval": 9, "dtype": tg.int64}),
             (tg.random.stateless_uniform, {"minval": None, "maxval": None, "dtype": tg.int32})]


@pytest.mark.parametrize("fn, kwargs", STATELESS)
def test_the_same_seed_gives_the_same_numbers_in_every_run_and_session(fn, kwargs):
    seed = tg.placeholder(tg.int64, [2])
    x = fn([4, 3], seed, **kwargs)
    with tg.Session() as sess:
        first, again = sess.run(x, {seed: [3, 4]}), sess.run(x, {seed: [3, 4]})
        other = sess.run(x, {seed: [3, 5]})
    with tg.Session() as sess:
        fresh = sess.run(x, {seed: [3, 4]})
    assert first.shape == (4, 3) and first.dtype == kwargs.get("dtype", tg.float32)
    np.testing.assert_array_equal(first, again)
    np.testing.assert_array_equal(first, fresh)
    assert not np.array_equal(first, other)


def test_stateless_draws_follow_their_distributions():
    uniform = tg.random.stateless_uniform([20000], [1, 2], minval=-1.0, maxval=3.0)
    normal = tg.random.stateless_normal([20000], [1, 2], mean=2.0, stddev=0.5, dtype=tg.float64)
    truncated = tg.random.stateless_truncated_normal([20000], [1, 2])
    ints = tg.random.stateless_uniform([20000], [1, 2], 0, 4, dtype=tg.int32)
    with tg.Session() as sess:
        u, n, tn, i = sess.run([uniform, normal, truncated, ints])
    assert -1.0 <= u.min() and u.max() < 3.0 and u.mean() == pytest.approx(1.0, abs=0.05)
    assert n.mean() == pytest.approx(2.0, abs=0.02) and n.std() == pytest.approx(0.5, rel=0.03)
    assert np.abs(tn).max() < 2.0 and tn.std() == pytest.approx(0.88, abs=0.02)
    assert sorted(np.unique(i)) == [0, 1, 2, 3]


def test_gradients_reach_the_mean_and_stddev_not_the_draw():
    mean, stddev = tg.constant([1.0, 2.0], tg.float64), tg.constant([3.0, 4.0], tg.float64)
    x = tg.random.stateless_normal([2], [7, 7], mean, stddev, dtype=tg.float64)
    g_mean, g_stddev = tg.gradients(x, [mean, stddev])
    with tg.Session() as sess:
        value, gm, gs = sess.run([x, g_mean, g_stddev])
    np.testing.assert_array_equal(gm, [1.0, 1.0])
    np.testing.assert_allclose(gs, (value - [1.0, 2.0]) / [3.0, 4.0])


def test_split_and_fold_in_make_new_seed_pairs():
    seeds, folded = tg.random.split([1, 2], 3), tg.random.fold_in([1, 2], 9)
    with tg.Session() as sess:
        s, f = sess.run([seeds, folded])
    assert s.shape == (3, 2) and s.dtype == np.int32 and len({tuple(r) for r in s}) == 3
    assert f[1] == 9


def test_categorical_draws_each_class_by_its_probability():
    logits = np.log([[0.1, 0.6, 0.3]])
    draws = tg.random.stateless_categorical(logits, 20000, [5, 6])
    with tg.Session() as sess:
        counts = np.bincount(sess.run(draws)[0], minlength=3) / 20000
    np.testing.assert_allclose(counts, [0.1, 0.6, 0.3], atol=0.02)


def test_bad_seeds_and_bounds_say_what_is_wrong():
    with pytest.raises(ValueError, match="seed has shape \\[2\\]"):
        tg.random.stateless_normal([2], [1, 2, 3])
    with pytest.raises(TypeError, match="int32 or int64 pair"):
        tg.random.stateless_normal([2], [1.0, 2.0])
    with pytest.raises(ValueError, match="both given or both None"):
        tg.random.stateless_uniform([2], [1, 2], maxval=4, minval=None, dtype=tg.int32)
    with tg.Session() as sess, pytest.raises(tg.errors.InvalidArgumentError, match="minval < maxval"):
        sess.run(tg.random.stateless_uniform([2], [1, 2], 3, 3, dtype=tg.int32))


def test_gamma_and_poisson_have_their_distributions_moments_and_tf_shapes():
    tg.set_random_seed(5)
    alpha, beta = tg.constant([[1.0], [4.0]]), tg.constant([1.0, 2.0, 0.5])
    gamma = tg.random.gamma([20000], alpha, beta)
    poisson = tg.random.poisson([0.5, 6.0], [20000], dtype=tg.int64)
    assert gamma.shape == (20000, 2, 3) and poisson.shape == (20000, 2)
    with tg.Session() as sess:
        g, p = sess.run([gamma, poisson])
    a, b = np.array([[1.0], [4.0]]), np.array([1.0, 2.0, 0.5])
    np.testing.assert_allclose(g.mean(0), a / b, rtol=0.05)
    np.testing.assert_allclose(g.var(0), a / b ** 2, rtol=0.1)
    np.testing.assert_allclose(p.mean(0), [0.5, 6.0], rtol=0.05)
    np.testing.assert_allclose(p.var(0), [0.5, 6.0], rtol=0.1)
    assert g.min() > 0 and p.dtype == np.int64


def test_gamma_passes_gradients_to_beta_and_says_alphas_is_missing():
    alpha, beta = tg.constant([2.0, 3.0]), tg.constant([1.0, 4.0])
    gamma = tg.random.gamma([3], alpha, beta, seed=1)
    g_beta = tg.gradients(gamma, beta)[0]
    with tg.Session() as sess:
        value, g = sess.run([gamma, g_beta])
    np.testing.assert_allclose(g, -(value * [1.0, 4.0]).sum(0) / np.array([1.0, 4.0]) ** 2 * 1.0, rtol=1e-5)
    with pytest.raises(NotImplementedError, match="RandomGamma"):
        tg.gradients(gamma, alpha)


def test_seeded_gamma_and_poisson_repeat_in_a_new_session_and_move_on_each_run():
    tg.set_random_seed(1)
    draws = [tg.random.gamma([4], 2.0), tg.random.poisson(3.0, [4])]
    with tg.Session() as sess:
        first, second = sess.run(draws), sess.run(draws)
    with tg.Session() as sess:
        again = sess.run(draws)
    for a, b, c in zip(first, second, again):
        np.testing.assert_array_equal(a, c)
        assert not np.array_equal(a, b)


def test_create_rng_state_cuts_and_left_pads_the_seed_as_tf():
    states = [tg.random.create_rng_state(5, "philox"), tg.random.create_rng_state(2 ** 64 + 3, "threefry"),
              tg.random.create_rng_state([1, 2 ** 64 - 1], tg.random.Algorithm.PHILOX),
              tg.random.experimental.create_rng_state(tg.constant([7, 8, 9, 10]), 1)]
    with tg.Session() as sess:
        got = [s.tolist() for s in sess.run(states)]
    assert got == [[5, 0, 0], [3, 1], [0, 1, -1], [7, 8, 9]]
    with pytest.raises(ValueError, match="concrete algorithm"):
        tg.random.create_rng_state(1, "auto_select")
    with pytest.raises(NotImplementedError, match="ThreeFry"):
        tg.random.stateless_normal([2], [1, 2], alg="threefry")


def test_stateless_gamma_poisson_and_binomial_follow_their_distributions_and_their_seed():
    seed = tg.placeholder(tg.int32, [2])
    gamma = tg.random.stateless_gamma([20000, 2], seed, [1.0, 3.0], beta=2.0)
    poisson = tg.random.stateless_poisson([20000], seed, 4.0, dtype=tg.int64)
    binomial = tg.random.stateless_binomial([20000, 2], seed, [5, 10], [0.5, 0.2])
    with tg.Session() as sess:
        g, p, b = sess.run([gamma, poisson, binomial], {seed: [1, 2]})
        again = sess.run(gamma, {seed: [1, 2]})
        other = sess.run(gamma, {seed: [1, 3]})
    np.testing.assert_array_equal(g, again)
    assert not np.array_equal(g, other)
    np.testing.assert_allclose(g.mean(0), [0.5, 1.5], rtol=0.05)
    np.testing.assert_allclose(g.var(0), [0.25, 0.75], rtol=0.1)
    assert p.dtype == np.int64 and p.mean() == pytest.approx(4.0, rel=0.05) and p.var() == pytest.approx(4.0, rel=0.1)
    assert b.dtype == np.int32 and b.shape == (20000, 2)
    np.testing.assert_allclose(b.mean(0), [2.5, 2.0], rtol=0.05)
    np.testing.assert_allclose(b.var(0), [1.25, 1.6], rtol=0.1)


def test_stateless_shuffle_permutes_rows_by_the_seed_alone():
    seed = tg.placeholder(tg.int64, [2])
    rows = np.arange(20).reshape(10, 2)
    shuffled = tg.random.experimental.stateless_shuffle(rows, seed)
    with tg.Session() as sess:
        first, again, other = (sess.run(shuffled, {seed: s}) for s in ([1, 2], [1, 2], [2, 1]))
    np.testing.assert_array_equal(first, again)
    assert sorted(first[:, 0].tolist()) == list(range(0, 20, 2)) and (first[:, 1] == first[:, 0] + 1).all()
    assert not np.array_equal(first, other)
