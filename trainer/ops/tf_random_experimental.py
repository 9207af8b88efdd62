"""tg.random.experimental: TF's tf.random.experimental namespace, the stateless seed helpers and the algorithms (TF's
stateful tf.random.Generator is not in ringflow: its graph-mode state is a resource variable)."""
from .stateless_random_ops import Algorithm, create_rng_state, stateless_fold_in, stateless_shuffle, stateless_split

__all__ = ["Algorithm", "create_rng_state", "stateless_fold_in", "stateless_shuffle", "stateless_split"]
