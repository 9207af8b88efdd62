"""tg.sets: TF1's tf.sets namespace, set operations along the last dimension (ops/set_ops.py)."""
from .ops.set_ops import set_difference, set_intersection, set_size, set_union
from .ops.set_ops import (set_difference as difference, set_intersection as intersection, set_size as size,
                          set_union as union)

__all__ = ["difference", "intersection", "set_difference", "set_intersection", "set_size", "set_union", "size",
           "union"]
