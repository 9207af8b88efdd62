"""Dataset.bucket_by_sequence_length, as TF builds it on group_by_window: an element's bucket is the number of
boundaries at or below its length, each bucket's window is (padded) batched by its batch size."""
import numpy as np

from ..framework import dtypes
from ..framework.graph import get_default_graph
from ..framework.tensor_shape import TensorShape
from ..ops.array_ops import cast
from ..ops.check_ops import assert_less
from ..ops.core_ops import convert_to_tensor
from ..ops.reduction_ops import reduce_sum
from .structure import flatten, flatten_up_to, pack


def bucket_by_sequence_length(dataset, element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes,
                              padding_values, pad_to_bucket_boundary, no_padding, drop_remainder):
    """Dataset.bucket_by_sequence_length of `dataset`."""
    if len(bucket_batch_sizes) != len(bucket_boundaries) + 1:
        raise ValueError(f"`len(bucket_batch_sizes)` must equal `len(bucket_boundaries) + 1` but "
                         f"`len(bucket_batch_sizes)={len(bucket_batch_sizes)}` and "
                         f"`len(bucket_boundaries)={len(bucket_boundaries)}`.")
    if list(bucket_boundaries) != sorted(bucket_boundaries):
        raise ValueError(f"`bucket_boundaries` must be sorted, got {bucket_boundaries!r}")

    def bucket(*element):
        length = cast(element_length_func(*element), dtypes.int64)
        return reduce_sum(cast(convert_to_tensor(list(bucket_boundaries), dtype=dtypes.int64) <= length,
                               dtypes.int64))

    def batch(bucket_id, window):
        size = convert_to_tensor(list(bucket_batch_sizes), dtype=dtypes.int64)[bucket_id]
        if no_padding:
            return window.batch(size, drop_remainder)
        shapes = padded_shapes if padded_shapes is not None else window.output_shapes
        if pad_to_bucket_boundary:  # the unknown dimensions padded to the bucket's boundary - 1, as TF does
            check = assert_less(bucket_id, np.int64(len(bucket_batch_sizes) - 1), message=(
                "When pad_to_bucket_boundary=True, elements must have length < max(bucket_boundaries)."))
            with get_default_graph().control_dependencies([check]):
                filler = convert_to_tensor(list(bucket_boundaries), dtype=dtypes.int64)[bucket_id] - 1
            structure = flatten(window.output_types)[1]
            shapes = pack(structure, [[filler if d is None else d for d in TensorShape(s).as_list()]
                                      for s in flatten_up_to(structure, shapes, "padded_shapes")])
        return window.padded_batch(size, shapes, padding_values, drop_remainder)
    return dataset.group_by_window(bucket, batch, window_size_func=lambda bucket_id: convert_to_tensor(
        list(bucket_batch_sizes), dtype=dtypes.int64)[bucket_id])
