"""tg.user_ops: TF1's tf.user_ops, which holds the example of a user-defined op, my_fact (TF's "Fact" op)."""
import numpy as np

from ..framework import dtypes
from ..framework.registry import apply_op, register

register("Fact", lambda: np.array(b"0! == 1", dtype=object), infer=lambda: [(None, dtypes.string)])  # TF leaves its shape unknown


def my_fact():
    """TF's example user op: a string scalar, b"0! == 1"."""
    return apply_op("Fact", [], name="Fact")
