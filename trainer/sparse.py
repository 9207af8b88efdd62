"""tg.sparse: TF1's tf.sparse namespace, the SparseTensor and the ops on it (ops/sparse_*.py)."""
from .ops.sparse_math_ops import (sparse_add as add, sparse_maximum as maximum, sparse_minimum as minimum,
                                  sparse_softmax as softmax, sparse_tensor_dense_matmul as matmul,
                                  sparse_tensor_dense_matmul as sparse_dense_matmul)
from .ops.sparse_reduction_ops import (sparse_reduce_max as reduce_max, sparse_reduce_max_sparse as reduce_max_sparse,
                                       sparse_reduce_sum as reduce_sum, sparse_reduce_sum_sparse as reduce_sum_sparse,
                                       sparse_segment_mean as segment_mean, sparse_segment_sqrt_n as segment_sqrt_n,
                                       sparse_segment_sum as segment_sum)
from .ops.sparse_slice_ops import (sparse_expand_dims as expand_dims, sparse_eye as eye,  # noqa: A004 (slice)
                                   sparse_reset_shape as reset_shape, sparse_slice as slice, sparse_split as split,
                                   sparse_to_indicator as to_indicator)
from .ops.sparse_ops import (from_dense, sparse_concat as concat, sparse_fill_empty_rows as fill_empty_rows,
                             sparse_reorder as reorder, sparse_reshape as reshape, sparse_retain as retain,
                             sparse_tensor_to_dense as to_dense, sparse_transpose as transpose)
from .ops.sparse_tensor import SparseTensor, sparse_placeholder as placeholder
from .unsupported import missing_names

__all__ = ["SparseTensor", "add", "concat", "expand_dims", "eye", "fill_empty_rows", "from_dense", "matmul",
           "maximum", "minimum", "placeholder", "reduce_max", "reduce_max_sparse", "reduce_sum",
           "reduce_sum_sparse", "reorder", "reset_shape", "reshape", "retain",
           "segment_mean", "segment_sqrt_n", "segment_sum", "slice", "softmax", "sparse_dense_matmul", "split",
           "to_dense", "to_indicator", "transpose"]

from .ops.sparse_merge_ops import sparse_merge as merge  # noqa: E402

__all__ += ["merge"]

# the rest of tf.sparse (cross, bincount, mask, ...) is not implemented
__getattr__ = missing_names(__name__, have="tf.sparse has " + ", ".join(__all__) + "; tf.sparse.to_dense then the "
                            "dense ops does the rest")
