"""TF1's two-level seeds: a graph-level seed plus an op-level seed make every random op reproducible."""
from .graph import get_default_graph

DEFAULT_GRAPH_SEED = 87654321


def set_random_seed(seed):
    """Set the default graph's seed: random ops built afterwards become reproducible."""
    get_default_graph().seed = None if seed is None else int(seed)


def get_seed(op_seed):
    """The (seed, seed2) pair for a random op, as TF1 derives it; (None, None) means fresh entropy."""
    graph = get_default_graph()
    if graph.seed is not None:
        return graph.seed, len(graph.operations) if op_seed is None else int(op_seed)
    if op_seed is not None:
        return DEFAULT_GRAPH_SEED, int(op_seed)
    return None, None
