"""Embeddings of sparse ids (tf.nn.embedding_lookup_sparse, safe_embedding_lookup_sparse): each row of a
SparseTensor of ids, optionally weighted, looked up and combined by sum, mean or sqrtn, as TF1 builds them from
unique, embedding_lookup and the segment reductions."""
from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from .array_ops import cast, concat, reshape, shape as shape_of
from .core_ops import convert_to_tensor
from .division_ops import div_no_nan
from .gather_ops import gather
from .cwise_ops import logical_and
from .math_ops import greater, greater_equal, sqrt, where, zeros_like
from .nn_impl import embedding_lookup
from .reduction_ops import reduce_prod
from .segment_ops import segment_sum
from .sort_ops import unique
from .sparse_ops import sparse_fill_empty_rows, sparse_reshape, sparse_retain
from .sparse_reduction_ops import sparse_segment_mean, sparse_segment_sqrt_n, sparse_segment_sum
from .sparse_tensor import SparseTensor
from .stack_ops import stack
from .tensor_util import constant_value, static_shape

COMBINERS = ("sum", "mean", "sqrtn")


def _check(combiner, sp_ids):
    if combiner not in COMBINERS:
        raise ValueError(f"combiner must be one of 'mean', 'sqrtn' or 'sum', got {combiner!r}")
    if not isinstance(sp_ids, SparseTensor):
        raise TypeError(f"sp_ids must be SparseTensor, got {type(sp_ids).__name__}")


def embedding_lookup_sparse(params, sp_ids, sp_weights, partition_strategy="mod", name=None, combiner=None,
                            max_norm=None):
    """[rows, dim]: row r combines the embeddings of sp_ids' ids in row r (weighted by sp_weights' values unless
    sp_weights is None), by `combiner` ("mean" by default)."""
    combiner = "mean" if combiner is None else combiner
    _check(combiner, sp_ids)
    if sp_weights is not None and not isinstance(sp_weights, SparseTensor):
        raise TypeError(f"sp_weights must be either None or SparseTensor, got {type(sp_weights).__name__}")
    with name_scope(name or "embedding_lookup_sparse"):
        segment_ids = cast(sp_ids.indices[:, 0], dtypes.int32)
        ids, idx = unique(sp_ids.values)
        embeddings = embedding_lookup(params, ids, partition_strategy=partition_strategy, max_norm=max_norm)
        if sp_weights is None:
            reduce = {"sum": sparse_segment_sum, "mean": sparse_segment_mean, "sqrtn": sparse_segment_sqrt_n}
            return reduce[combiner](embeddings, idx, segment_ids)
        weights = convert_to_tensor(sp_weights.values)
        if weights.dtype != embeddings.dtype:
            weights = cast(weights, embeddings.dtype)
        embeddings = gather(embeddings, idx)
        per_row = [-1] + [1] * (_rank(embeddings) - 1)  # a weight per id, broadcast over the embedding's dims
        summed = segment_sum(embeddings * reshape(weights, per_row), segment_ids)
        if combiner == "sum":
            return summed
        if combiner == "mean":  # a row whose weights are all gone averages to 0, as in TF
            return div_no_nan(summed, reshape(segment_sum(weights, segment_ids), per_row))
        return div_no_nan(summed, reshape(sqrt(segment_sum(weights * weights, segment_ids)), per_row))


def _rank(x):
    if x.ndim is None:
        raise ValueError(f"embedding_lookup_sparse needs the embeddings' rank known while building, got {x.name!r}")
    return x.ndim


def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None, combiner="mean",
                                 default_id=None, name=None, partition_strategy="div", max_norm=None):
    """embedding_lookup_sparse made safe: ids < 0 and weights <= 0 are dropped, rows left empty get the
    embedding of default_id (zeros when None), and sparse_ids of rank > 2 keep their leading dims."""
    _check(combiner, sparse_ids)
    weights_list = list(embedding_weights) if isinstance(embedding_weights, (list, tuple)) else [embedding_weights]
    if not weights_list:
        raise ValueError("Missing embedding_weights [].")
    with name_scope(name or "embedding_lookup"):
        original = cast(sparse_ids.dense_shape, dtypes.int64)
        batch_size = reduce_prod(original[:-1])
        flat_shape = stack([batch_size, original[-1]])
        sparse_ids = sparse_reshape(sparse_ids, flat_shape)
        if sparse_weights is not None:
            sparse_weights = sparse_reshape(sparse_weights, flat_shape)
        keep = greater_equal(sparse_ids.values, 0)
        if sparse_weights is not None:
            keep = logical_and(keep, greater(sparse_weights.values, 0))
            sparse_weights = sparse_retain(sparse_weights, keep)
        sparse_ids = sparse_retain(sparse_ids, keep)
        sparse_ids, empty = sparse_fill_empty_rows(sparse_ids, default_id or 0)
        if sparse_weights is not None:
            sparse_weights, _ = sparse_fill_empty_rows(sparse_weights, 1.0)
        result = embedding_lookup_sparse(weights_list, sparse_ids, sparse_weights, combiner=combiner,
                                         partition_strategy=partition_strategy, max_norm=max_norm)
        if default_id is None:
            result = where(reshape(empty, [-1] + [1] * (_rank(result) - 1)), zeros_like(result), result)
        known, dims = constant_value(original), static_shape(result)
        if known is not None and dims is not None and None not in dims[1:]:  # TF's static shape, where it knows it
            return reshape(result, [int(d) for d in known[:-1]] + list(dims[1:]))
        out_shape = concat([original[:-1], cast(shape_of(result)[1:], dtypes.int64)], 0)
        return reshape(result, cast(out_shape, dtypes.int32))

