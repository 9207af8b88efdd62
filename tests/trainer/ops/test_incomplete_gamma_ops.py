"""igamma, igammac, betainc and the modified Bessel functions against closed forms and an independent sum, across
the series/continued-fraction and series/asymptotic switches; their gradients against numerical ones."""
import math

import numpy as np

import trainer as tg

X = np.array([0.01, 0.4, 1.0, 2.5, 7.0, 30.0, 90.0])


def run(fetches):
    with tg.Session() as sess:
        return sess.run(fetches)


def test_incomplete_gamma_and_beta_have_their_closed_forms():
    tg.reset_default_graph()
    p1, q1, half, b = run([tg.igamma(1.0 + 0 * X, X), tg.igammac(1.0 + 0 * X, X), tg.math.igamma(0.5 + 0 * X, X),
                           tg.betainc(3.5 + 0 * X, 1.0 + 0 * X, X / 91.0)])
    np.testing.assert_allclose(p1, -np.expm1(-X), rtol=1e-13)
    np.testing.assert_allclose(q1, np.exp(-X), rtol=1e-12)
    np.testing.assert_allclose(half, [math.erf(math.sqrt(v)) for v in X], rtol=1e-13)
    np.testing.assert_allclose(b, (X / 91.0) ** 3.5, rtol=1e-12)  # I_x(a, 1) = x ** a


def test_bessel_i_matches_its_power_series_on_both_sides_of_the_switch():
    tg.reset_default_graph()
    x = np.array([-20.0, -3.0, 0.0, 0.5, 14.0, 16.0, 40.0])

    def series(v, order):
        term = (v / 2) ** order / math.factorial(order)
        total = term
        for k in range(1, 200):
            term *= (v / 2) ** 2 / (k * (k + order))
            total += term
        return total

    i0, i1, i0e, i1e = run([tg.math.bessel_i0(x), tg.math.bessel_i1(x), tg.math.bessel_i0e(x),
                            tg.math.special.bessel_i1e(x)])
    want0, want1 = np.array([series(v, 0) for v in x]), np.array([series(v, 1) for v in x])
    np.testing.assert_allclose(i0, want0, rtol=1e-12)
    np.testing.assert_allclose(i1, want1, rtol=1e-12)
    np.testing.assert_allclose(i0e, want0 * np.exp(-np.abs(x)), rtol=1e-12)
    np.testing.assert_allclose(i1e, want1 * np.exp(-np.abs(x)), rtol=1e-12)


def test_gradients_match_the_numerical_ones():
    tg.reset_default_graph()
    a, x = tg.placeholder(tg.float64, (4,)), tg.placeholder(tg.float64, (4,))
    values = [np.array([0.7, 2.0, 5.0, 12.0]), np.array([0.3, 2.5, 4.0, 20.0])]
    feed = dict(zip((a, x), values))
    with tg.Session():
        for y in (tg.igamma(a, x), tg.igammac(a, x), tg.math.bessel_i1e(x) * tg.math.bessel_i0(a / 4.0)):
            assert tg.test.compute_gradient_error([a, x], [(4,), (4,)], y, (4,), x_init_value=values,
                                                  extra_feed_dict=feed, delta=1e-6) < 1e-6
        b = tg.betainc(a, a + 1.0, x / 25.0)
        assert tg.test.compute_gradient_error(x, (4,), b, (4,), x_init_value=values[1], extra_feed_dict=feed,
                                              delta=1e-6) < 1e-6
