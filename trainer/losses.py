"""tg.losses: reduced losses."""
from .ops.math_ops import binary_operands, square
from .ops.reduction_ops import reduce_mean


def mean_squared_error(labels, predictions, name=None):
    """The mean over all elements of (labels - predictions) ** 2."""
    labels, predictions = binary_operands("mean_squared_error", labels, predictions)
    return reduce_mean(square(predictions - labels), name=name or "mean_squared_error")
