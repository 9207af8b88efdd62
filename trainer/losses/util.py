"""The loss collections: add_loss, get_losses, the regularization losses and the total loss (tf.losses)."""
import re

from ..framework.tensor import Tensor
from ..framework.graph import get_default_graph
from ..framework.graph_keys import GraphKeys
from ..ops.core_ops import constant
from ..ops.math_ops import add_n


def add_loss(loss, loss_collection=GraphKeys.LOSSES):
    """Add `loss` to the `loss_collection` of its graph (nothing when loss_collection is None or empty)."""
    if loss_collection:
        graph = loss.graph if isinstance(loss, Tensor) else get_default_graph()
        graph.add_to_collection(loss_collection, loss)


def _collection(key, scope):
    items = get_default_graph().get_collection(key)
    if scope is None:
        return items
    return [item for item in items if re.match(scope, getattr(item, "name", ""))]


def get_losses(scope=None, loss_collection=GraphKeys.LOSSES):
    """The losses in `loss_collection`, filtered to names that `scope` (a regex) matches from the start."""
    return _collection(loss_collection, scope)


def get_regularization_losses(scope=None):
    """The layers' and variables' regularization losses (GraphKeys.REGULARIZATION_LOSSES), filtered by `scope`."""
    return _collection(GraphKeys.REGULARIZATION_LOSSES, scope)


def get_regularization_loss(scope=None, name="total_regularization_loss"):
    """The sum of the regularization losses, or a 0.0 constant when there are none."""
    losses = get_regularization_losses(scope)
    if losses:
        return add_n(losses, name=name)
    return constant(0.0, name=name)


def get_total_loss(add_regularization_losses=True, name="total_loss", scope=None):
    """The sum of the collected losses, plus the regularization losses unless add_regularization_losses=False."""
    losses = get_losses(scope)
    if add_regularization_losses:
        losses += get_regularization_losses(scope)
    if not losses:
        raise ValueError(f"No losses to sum: the {GraphKeys.LOSSES!r} collection (scope={scope!r}) is empty. "
                         "Build a tg.losses loss or call tg.losses.add_loss(loss) first")
    return add_n(losses, name=name)
