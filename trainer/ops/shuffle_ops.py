"""random_shuffle: a seeded permutation of a tensor's first dimension, drawn anew on every run."""
from ..framework.random_seed import get_seed
from .kernels.random_distributions import shuffled_order
from .core_ops import convert_to_tensor
from ..framework.registry import apply_op, infer_same, register


def _shuffle_kernel(op, session):
    stream = session.rng(op)  # the op's own stream, seeded by (graph seed, op seed) like every random op
    # The permutation is drawn on the host (TF's order), as every random op's numbers are, then placed beside x.
    to_device = session.to_device

    def run(x):
        if x.ndim == 0 or x.size <= 1:
            return x.copy()
        return x[to_device(shuffled_order(stream, len(x)))]
    return run


# TF1 registers no gradient for a shuffle: nothing flows back through it.
register("RandomShuffle", kernel=_shuffle_kernel, infer=infer_same, grad=lambda op, g: [None], fresh=True)


def random_shuffle(value, seed=None, name=None):
    """`value` with its rows (first dimension) in a random order, a new order each run."""
    seed1, seed2 = get_seed(seed)
    return apply_op("RandomShuffle", [convert_to_tensor(value)], name=name or "RandomShuffle", seed=seed1,
                    seed2=seed2)
