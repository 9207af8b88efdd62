"""The global step: an int64 variable counting applied training steps."""
import numpy as np

from ..framework.graph import get_default_graph
from ..ops.variables import Variable

GLOBAL_STEP = "global_step"


def get_global_step(graph=None):
    """The graph's global step variable, or None."""
    graph = graph or get_default_graph()
    steps = graph.get_collection(GLOBAL_STEP)
    return steps[0] if steps else None


def get_or_create_global_step(graph=None):
    """The graph's global step, created (int64, 0, not trainable, named "global_step") on first use."""
    graph = graph or get_default_graph()
    step = get_global_step(graph)
    if step is None:
        with graph.as_default(), graph.name_scope(None):
            step = Variable(np.int64(0), name=GLOBAL_STEP, trainable=False)
        graph.add_to_collection(GLOBAL_STEP, step)
    return step
