"""tg.sparse: TF1's tf.sparse namespace, the SparseTensor and the ops on it (ops/sparse_ops.py, sparse_math_ops.py)."""
from .ops.sparse_math_ops import (sparse_add as add, sparse_reduce_sum as reduce_sum,
                                  sparse_tensor_dense_matmul as matmul,
                                  sparse_tensor_dense_matmul as sparse_dense_matmul)
from .ops.sparse_ops import (from_dense, sparse_concat as concat, sparse_fill_empty_rows as fill_empty_rows,
                             sparse_reorder as reorder, sparse_reshape as reshape, sparse_retain as retain,
                             sparse_tensor_to_dense as to_dense, sparse_transpose as transpose)
from .ops.sparse_tensor import SparseTensor, sparse_placeholder as placeholder
from .unsupported import missing_names

__all__ = ["SparseTensor", "add", "concat", "fill_empty_rows", "from_dense", "matmul", "placeholder", "reduce_sum",
           "reorder", "reshape", "retain", "sparse_dense_matmul", "to_dense", "transpose"]

# the rest of tf.sparse (cross, segment sums, softmax, slice, split, maximum, ...) is not implemented yet
__getattr__ = missing_names(__name__, have="tf.sparse has " + ", ".join(__all__) + "; tf.sparse.to_dense then the "
                            "dense ops does the rest")
