"""tf.distributions beyond the conformance table: draws have the family's moments, KL is found along the classes'
MROs and can be registered once per pair, and a nan KL fails the run when nan statistics are not allowed."""
import numpy as np
import pytest

import trainer as tg

D = tg.distributions


def run(fetches, feed=None):
    with tg.Session() as sess:
        return sess.run(fetches, feed)


@pytest.mark.parametrize("build, mean, var", [
    (lambda: D.Normal(1.5, 2.0), 1.5, 4.0),
    (lambda: D.Laplace(-1.0, 0.5), -1.0, 0.5),
    (lambda: D.Uniform(2.0, 5.0), 3.5, 0.75),
    (lambda: D.Exponential(4.0), 0.25, 1 / 16),
    (lambda: D.Bernoulli(probs=0.3, dtype=tg.float32), 0.3, 0.21),
    (lambda: D.Categorical(probs=[0.5, 0.25, 0.25], dtype=tg.float32), 0.75, 0.6875),
])
def test_draws_have_the_moments_of_their_family(build, mean, var):
    tg.reset_default_graph()
    dist = build()
    draws = run(dist.sample(20000, seed=3))
    assert draws.shape == (20000,)
    assert abs(draws.mean() - mean) < 4 * np.sqrt(var / 20000)
    assert abs(draws.var() - var) < 0.05 * var


def test_multinomial_draws_count_every_trial():
    tg.reset_default_graph()
    draws = run(D.Multinomial(7.0, logits=[[0.0, 1.0, 2.0], [2.0, 0.0, 0.0]]).sample([4, 5], seed=1))
    assert draws.shape == (4, 5, 2, 3)
    np.testing.assert_array_equal(draws.sum(-1), np.full((4, 5, 2), 7.0))


def test_kl_is_found_along_the_mro_and_registered_once():
    tg.reset_default_graph()

    class Wide(D.Normal):
        pass

    kl = D.kl_divergence(Wide(0.0, 2.0), D.Normal(0.0, 1.0))  # Normal's own KL, found through Wide's MRO
    assert run(kl) == pytest.approx(0.5 * (4.0 - 1.0 - np.log(4.0)), rel=1e-6)
    D.RegisterKL(Wide, Wide)(lambda a, b, name=None: tg.constant(7.0))
    assert run(D.kl_divergence(Wide(0.0, 2.0), Wide(0.0, 1.0))) == 7.0
    with pytest.raises(ValueError, match="already been registered"):
        D.RegisterKL(Wide, Wide)(lambda a, b, name=None: None)
    with pytest.raises(NotImplementedError, match="No KL"):
        D.kl_divergence(D.Uniform(), D.Normal(0.0, 1.0))


def test_a_nan_kl_fails_the_run_when_nan_statistics_are_not_allowed():
    tg.reset_default_graph()
    scale = tg.placeholder(tg.float32, [])
    kl = D.kl_divergence(D.Normal(0.0, scale), D.Normal(0.0, 1.0), allow_nan_stats=False)
    assert run(kl, {scale: 1.0}) == 0.0
    with pytest.raises(tg.errors.InvalidArgumentError, match="NaN"):
        run(kl, {scale: np.nan})


def test_cdfs_through_the_incomplete_gamma_and_beta_functions_have_their_closed_forms():
    tg.reset_default_graph()
    x = np.array([0.1, 0.5, 2.0])
    gamma, beta, t = run([D.Gamma(1.0, 3.0).cdf(x), D.Beta(2.0, 1.0).cdf(x / 4.0), D.StudentT(1.0, 0.0, 1.0).cdf(x)])
    np.testing.assert_allclose(gamma, 1.0 - np.exp(-3.0 * x), rtol=1e-6)  # Gamma(1, rate) is Exponential(rate)
    np.testing.assert_allclose(beta, (x / 4.0) ** 2, rtol=1e-6)  # Beta(2, 1) has density 2x
    np.testing.assert_allclose(t, 0.5 + np.arctan(x) / np.pi, rtol=1e-6)  # StudentT(1) is Cauchy


def test_the_gamma_based_families_sample_with_their_moments():
    # tf.random.gamma is numpy's sampler (TF's moments, not TF's draws): checked against the closed-form means
    with tg.Graph().as_default(), tg.Session() as sess:
        draws = sess.run({
            "gamma": D.Gamma(2.0, 3.0).sample(20000, seed=1), "beta": D.Beta(2.0, 5.0).sample(20000, seed=2),
            "dirichlet": D.Dirichlet([1.0, 2.0, 3.0]).sample(20000, seed=3),
            "student": D.StudentT(5.0, 1.0, 2.0).sample(20000, seed=4)})
    assert draws["gamma"].mean() == pytest.approx(2 / 3, rel=0.03)
    assert draws["beta"].mean() == pytest.approx(2 / 7, rel=0.03)
    np.testing.assert_allclose(draws["dirichlet"].mean(axis=0), [1 / 6, 2 / 6, 3 / 6], rtol=0.03)
    np.testing.assert_allclose(draws["dirichlet"].sum(axis=1), 1.0, rtol=1e-5)
    assert draws["student"].mean() == pytest.approx(1.0, abs=0.06)
    assert draws["student"].var() == pytest.approx(4.0 * 5 / 3, rel=0.1)
