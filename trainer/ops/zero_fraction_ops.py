"""tf.nn.zero_fraction: the share of zeros in a tensor (TF1 summaries use it for ReLU sparsity)."""
from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from .array_ops import cast
from .core_ops import convert_to_tensor, identity
from .reduction_ops import count_nonzero
from .shape_ops import size


def zero_fraction(value, name=None):
    """The fraction of elements of `value` equal to zero, as a float32 scalar (NaN for an empty tensor)."""
    with name_scope(name or "zero_fraction"):
        value = convert_to_tensor(value, name="value")
        total = size(value, out_type=dtypes.int64)
        nonzero = count_nonzero(value, dtype=dtypes.int64)
        with name_scope("counts_to_fraction"):
            fraction = cast(total - nonzero, dtypes.float32) / cast(total, dtypes.float32)
        return identity(fraction, name="fraction")
