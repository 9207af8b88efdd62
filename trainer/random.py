"""tg.random: TF1's tf.random namespace, aliases of the random ops and the graph-level seed."""
from .ops.candidate_sampling_ops import (all_candidate_sampler, fixed_unigram_candidate_sampler,
                                         learned_unigram_candidate_sampler, log_uniform_candidate_sampler,
                                         uniform_candidate_sampler)
from .ops.random_ops import random_normal as normal
from .ops.random_ops import random_uniform as uniform
from .ops.random_ops import truncated_normal
from .ops.sampling_ops import categorical, multinomial
from .ops.shuffle_ops import random_shuffle as shuffle
from .framework.random_seed import set_random_seed

set_seed = set_random_seed  # TF2's spelling, which TF1.15 programs written for both use

__all__ = ["all_candidate_sampler", "categorical", "fixed_unigram_candidate_sampler",
           "learned_unigram_candidate_sampler", "log_uniform_candidate_sampler", "multinomial", "normal",
           "set_random_seed", "set_seed", "shuffle", "truncated_normal", "uniform", "uniform_candidate_sampler"]
