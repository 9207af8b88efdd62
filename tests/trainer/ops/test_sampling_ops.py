"""multinomial and random_crop: distributions, seeds and gradients."""
import numpy as np
import pytest

import trainer as tg

RNG = np.random.default_rng(7)


def run(fetches, feed=None):
    with tg.Session() as sess:
        return sess.run(fetches, feed)


def test_multinomial_follows_the_probabilities_and_the_seed():
    probs = np.array([[0.1, 0.0, 0.6, 0.3], [0.0, 0.0, 0.0, 1.0]])
    with np.errstate(divide="ignore"):
        logits = np.log(probs)
    with tg.Graph().as_default():
        tg.set_random_seed(3)
        draws = tg.multinomial(logits, 20000, seed=1)
        small = tg.random.categorical(logits, 5, dtype=tg.int32)
        with tg.Session() as sess:
            d, s = sess.run([draws, small])
            again = sess.run(draws)
    assert d.dtype == np.int64 and s.dtype == np.int32 and d.shape == (2, 20000) and draws.shape == (2, 20000)
    np.testing.assert_allclose(np.bincount(d[0], minlength=4) / 20000, probs[0], atol=0.015)
    assert (d[1] == 3).all() and (d[0] != 1).all()  # zero-probability classes are never drawn
    assert not np.array_equal(d, again)
    with tg.Graph().as_default():
        tg.set_random_seed(3)
        np.testing.assert_array_equal(run(tg.multinomial(logits, 20000, seed=1)), d)


def test_random_crop_picks_a_window_and_routes_its_gradient():
    x = np.arange(60.0).reshape(5, 4, 3)
    with tg.Graph().as_default():
        v = tg.Variable(x)
        crop = tg.random_crop(v, [2, 3, 3], seed=5)
        grad, = tg.gradients(tg.reduce_sum(crop * crop), [v])
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            seen = set()
            for _ in range(30):
                c, g = sess.run([crop, grad])
                i, j = int(c[0, 0, 0]) // 12, int(c[0, 0, 0]) % 12 // 3
                np.testing.assert_array_equal(c, x[i:i + 2, j:j + 3])
                expected = np.zeros_like(x)
                expected[i:i + 2, j:j + 3] = 2 * c
                np.testing.assert_array_equal(g, expected)
                seen.add((i, j))
        assert crop.shape == (2, 3, 3) and len(seen) > 4
        too_big = tg.random_crop(v, [6, 1, 1])
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            with pytest.raises(tg.errors.InvalidArgumentError, match=r"Need value.shape >= size, got \[5, 4, 3\]"):
                sess.run(too_big)
