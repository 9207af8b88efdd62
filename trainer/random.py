"""tg.random: TF1's tf.random namespace, aliases of the random ops and the graph-level seed."""
from .ops.random_ops import random_normal as normal
from .ops.random_ops import random_uniform as uniform
from .ops.random_ops import truncated_normal
from .ops.shuffle_ops import random_shuffle as shuffle
from .random_seed import set_random_seed

set_seed = set_random_seed  # TF2's spelling, which TF1.15 programs written for both use

__all__ = ["normal", "set_random_seed", "set_seed", "shuffle", "truncated_normal", "uniform"]
