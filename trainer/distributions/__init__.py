"""tg.distributions: TF1's tf.distributions, probability distributions as graph ops (log_prob, cdf, entropy,
moments, samples) and the KL divergences between them."""
from .continuous import Beta, Exponential, Gamma, Laplace, Normal, StudentT, Uniform
from .discrete import Bernoulli, Categorical, Dirichlet, DirichletMultinomial, Multinomial
from .distribution import FULLY_REPARAMETERIZED, NOT_REPARAMETERIZED, Distribution, ReparameterizationType
from .kullback_leibler import RegisterKL, kl_divergence

__all__ = ["Bernoulli", "Beta", "Categorical", "Dirichlet", "DirichletMultinomial", "Distribution", "Exponential",
           "FULLY_REPARAMETERIZED", "Gamma", "Laplace", "Multinomial", "NOT_REPARAMETERIZED", "Normal",
           "RegisterKL", "ReparameterizationType", "StudentT", "Uniform", "kl_divergence"]
