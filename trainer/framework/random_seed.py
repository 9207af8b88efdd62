"""TF's two-level seeds: a graph-level seed plus an op-level seed make every random op reproducible.

The pair is derived as TensorFlow's random_seed.get_seed does (TF 2's tf.compat.v1, whose numbers ringflow
reproduces): with only the graph seed set, the op seed counts the random ops built so far in that graph, so
the n-th unseeded random op of a program gets op seed n whatever else the graph holds.
"""
import weakref

from .graph import get_default_graph

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2 ** 31 - 1  # seeds are taken modulo this, so they fit the ops' int attributes
_OP_SEEDS_USED = weakref.WeakKeyDictionary()  # graph -> op seeds handed out, TF's per-graph count


def set_random_seed(seed):
    """Set the default graph's seed: random ops built afterwards become reproducible."""
    get_default_graph().seed = None if seed is None else int(seed)


def get_seed(op_seed):
    """The (seed, seed2) pair for a random op, as TF derives it; (None, None) means fresh entropy. (0, 0)
    would mean fresh entropy to the kernels, so it becomes (0, 2**31 - 1) as in TF."""
    graph = get_default_graph()
    if graph.seed is not None:
        if op_seed is None:
            op_seed = _OP_SEEDS_USED.get(graph, 0)
            _OP_SEEDS_USED[graph] = op_seed + 1
        seeds = int(graph.seed) % _MAXINT32, int(op_seed) % _MAXINT32
    elif op_seed is not None:
        seeds = DEFAULT_GRAPH_SEED, int(op_seed) % _MAXINT32
    else:
        return None, None
    return (0, _MAXINT32) if seeds == (0, 0) else seeds
