"""tg.random: TF1's tf.random namespace, aliases of the random ops, the stateless ops and the graph-level seed."""
from .ops.candidate_sampling_ops import (all_candidate_sampler, fixed_unigram_candidate_sampler,
                                         learned_unigram_candidate_sampler, log_uniform_candidate_sampler,
                                         uniform_candidate_sampler)
from .ops.random_ops import random_normal as normal
from .ops.random_ops import random_uniform as uniform
from .ops.random_ops import truncated_normal
from .ops.sampling_ops import categorical, multinomial
from .ops.shuffle_ops import random_shuffle as shuffle
from .framework.random_seed import get_seed, set_random_seed
from .ops.gamma_poisson_ops import (random_gamma as gamma, random_poisson as poisson,
                                   stateless_random_binomial as stateless_binomial,
                                   stateless_random_gamma as stateless_gamma,
                                   stateless_random_poisson as stateless_poisson)
from .ops import tf_random_experimental as experimental
from .ops.stateless_random_ops import (Algorithm, create_rng_state, stateless_categorical, stateless_fold_in as fold_in,
                                       stateless_multinomial, stateless_random_normal as stateless_normal,
                                       stateless_random_uniform as stateless_uniform, stateless_split as split,
                                       stateless_truncated_normal)

set_seed = set_random_seed  # TF2's spelling, which TF1.15 programs written for both use

__all__ = ["Algorithm", "all_candidate_sampler", "categorical", "create_rng_state", "experimental",
           "fixed_unigram_candidate_sampler", "fold_in", "gamma", "get_seed", "learned_unigram_candidate_sampler",
           "log_uniform_candidate_sampler", "multinomial", "normal", "poisson", "set_random_seed", "set_seed",
           "shuffle", "split", "stateless_binomial", "stateless_categorical", "stateless_gamma",
           "stateless_multinomial", "stateless_normal", "stateless_poisson", "stateless_truncated_normal",
           "stateless_uniform", "truncated_normal", "uniform", "uniform_candidate_sampler"]
