"""tg.manip: TF1's tf.manip namespace, aliases of the array manipulations."""
from .ops.array_ops import reshape
from .ops.depth_space_ops import batch_to_space_nd, space_to_batch_nd
from .ops.gather_nd_ops import gather_nd, scatter_nd
from .ops.index_ops import roll
from .ops.pad_ops import tile
from .ops.reverse_ops import reverse

__all__ = ["batch_to_space_nd", "gather_nd", "reshape", "reverse", "roll", "scatter_nd", "space_to_batch_nd", "tile"]
