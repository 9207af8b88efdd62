"""The global step: an int64 variable counting applied training steps."""
import numpy as np

from ..framework.graph import get_default_graph
from ..framework.tensor import Tensor
from ..ops.variables import Variable

GLOBAL_STEP = "global_step"


def get_global_step(graph=None):
    """The graph's global step variable, or None."""
    graph = graph or get_default_graph()
    steps = graph.get_collection(GLOBAL_STEP)
    return steps[0] if steps else None


def create_global_step(graph=None):
    """A new global step (int64, 0, not trainable, named "global_step"); ValueError where the graph has one."""
    graph = graph or get_default_graph()
    if get_global_step(graph) is not None:
        raise ValueError('"global_step" already exists: use tf.train.get_or_create_global_step() to reuse it')
    with graph.as_default(), graph.name_scope(None):
        step = Variable(np.int64(0), name=GLOBAL_STEP, trainable=False)
    graph.add_to_collection(GLOBAL_STEP, step)
    return step


def get_or_create_global_step(graph=None):
    """The graph's global step, created (int64, 0, not trainable, named "global_step") on first use."""
    graph = graph or get_default_graph()
    step = get_global_step(graph)
    return create_global_step(graph) if step is None else step


def global_step(sess, global_step_tensor):
    """The global step's value in `sess`, as a Python int."""
    return int(sess.run(global_step_tensor))


def assert_global_step(global_step_tensor):
    """TypeError unless `global_step_tensor` is a Tensor (or Variable) of an integer dtype and scalar (or of
    unknown shape), as TF checks an existing global step."""
    if not isinstance(global_step_tensor, Tensor):
        raise TypeError(f'Existing "global_step" must be a Variable or Tensor: {global_step_tensor!r}.')
    if global_step_tensor.dtype.kind not in "iu":
        raise TypeError(f'Existing "global_step" does not have integer type: {global_step_tensor.dtype.name}')
    shape = global_step_tensor.shape
    if shape.ndims != 0 and shape.is_fully_defined():
        raise TypeError(f'Existing "global_step" is not scalar: {shape}')
