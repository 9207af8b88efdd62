"""tf.train.init_from_checkpoint: variables whose initializers read their values from a checkpoint (TF1's); and
checkpoints_iterator, the newest checkpoints of a directory as training writes them (an evaluator's loop)."""
import time

from .checkpoint_management import latest_checkpoint, load_checkpoint
from ..framework.graph import get_default_graph
from ..framework.graph_wrappers import device
from ..framework.tensor_shape import TensorShape
from ..ops.core_ops import constant
from ..ops.io_ops import restore_v2
from ..ops.variables import GLOBAL_VARIABLES, Variable
from ..platform import tf_logging as logging


def init_from_checkpoint(ckpt_dir_or_file, assignment_map):
    """Make the initializers of the variables `assignment_map` names restore them from the checkpoint (a prefix,
    or a directory's latest), as TF1 does; run it before global_variables_initializer() is built.

    assignment_map maps checkpoint names to variables: "ckpt/name": "scope/name" or a Variable, and
    "ckpt_scope/": "scope/" (every variable under scope/ from the same names under ckpt_scope/; "/" is the root
    on either side). Variables are found by name among the default graph's global variables.
    """
    prefix = latest_checkpoint(ckpt_dir_or_file) or ckpt_dir_or_file
    shapes = load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map()
    graph = get_default_graph()
    variables = {v.op.name: v for v in graph.get_collection(GLOBAL_VARIABLES)}
    for ckpt_name, current in sorted(assignment_map.items(), key=lambda item: item[0]):
        var = current if isinstance(current, Variable) else variables.get(current)
        if var is not None:
            _initialize_from(var, prefix, _found(ckpt_name, shapes, ckpt_dir_or_file), shapes)
            continue
        if not ckpt_name.endswith("/"):
            raise ValueError(f"Assignment map with scope only name {current!r} should map to scope only "
                             f"{ckpt_name!r}. Should be 'scope/': 'other_scope/'.")
        scope = current[:current.rindex("/")] if "/" in current else ""
        for name in sorted(n for n in variables if not scope or n.startswith(scope + "/")):
            tail = name[len(scope):] if current == "/" else name[len(scope):].lstrip("/")
            wanted = (tail if ckpt_name == "/" else ckpt_name + tail).rstrip("/")
            _initialize_from(variables[name], prefix, _found(wanted, shapes, ckpt_dir_or_file), shapes)


def _found(name, shapes, where):
    if name not in shapes:
        raise ValueError(f"Tensor {name} is not found in {where} checkpoint {shapes}: check the assignment_map's "
                         "names against tf.train.list_variables of the checkpoint")
    return name


def _initialize_from(var, prefix, name, shapes):
    if not TensorShape(var.shape).is_compatible_with(shapes[name]):
        raise ValueError(f"Shape of variable {var.name} ({TensorShape(var.shape)}) doesn't match with shape of "
                         f"tensor {name} ({shapes[name]}) from checkpoint reader.")
    graph = var.graph
    with graph.as_default(), device(var.device):
        value = restore_v2(constant(prefix), [name], [""], [var.dtype], name="checkpoint_initializer")[0]
        var.initializer, var.initial_value = var.assign(value).op, value


def _wait_for_new_checkpoint(checkpoint_dir, last, timeout, seconds_to_sleep=1):
    """The directory's latest checkpoint once it is not `last`; None when `timeout` seconds pass first."""
    logging.info("Waiting for new checkpoint at %s", checkpoint_dir)
    stop = None if timeout is None else time.time() + timeout
    while True:
        path = latest_checkpoint(checkpoint_dir)
        if path is not None and path != last:
            logging.info("Found new checkpoint at %s", path)
            return path
        if stop is not None and time.time() + seconds_to_sleep > stop:
            return None
        time.sleep(seconds_to_sleep)


def checkpoints_iterator(checkpoint_dir, min_interval_secs=0, timeout=None, timeout_fn=None):
    """Yield each new latest checkpoint of `checkpoint_dir`, at most one per min_interval_secs. After `timeout`
    seconds without one it ends, unless timeout_fn() (where given) answers False, which waits again."""
    path = None
    while True:
        found = _wait_for_new_checkpoint(checkpoint_dir, path, timeout)
        if found is None:
            if timeout_fn is None:
                logging.info("Timed-out waiting for a checkpoint.")
                return
            if timeout_fn():
                return
            continue
        start, path = time.time(), found
        yield path
        time.sleep(max(0.0, start + min_interval_secs - time.time()))
