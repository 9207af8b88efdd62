"""tensorflow.python.framework.random_seed: the graph-level seed and TF's seed rules, ringflow's own module's."""
# ruff: noqa: F401
from ...framework.random_seed import DEFAULT_GRAPH_SEED, get_seed, set_random_seed
