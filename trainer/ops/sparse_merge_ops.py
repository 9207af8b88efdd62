"""tf.sparse.merge (TF1's sparse_merge): ids and values given as two SparseTensors of the same indices become one
SparseTensor whose last axis is the id, as TF1 builds it from concat and sparse_reorder."""
from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from .array_ops import cast, concat
from .core_ops import convert_to_tensor
from .shape_ops import expand_dims
from .sparse_ops import as_sparse, sparse_reorder
from .sparse_tensor import SparseTensor
from .stack_ops import stack


def sparse_merge(sp_ids, sp_values, vocab_size, name=None, already_sorted=False):
    """sp_ids' last index replaced by its ids: a SparseTensor [..., vocab_size] of sp_values' values (a list of
    sp_ids and of vocab sizes adds one axis each), sorted unless already_sorted."""
    ids = list(sp_ids) if isinstance(sp_ids, (list, tuple)) else [sp_ids]
    sizes = list(vocab_size) if isinstance(vocab_size, (list, tuple)) else [vocab_size]
    if len(ids) != len(sizes):
        raise ValueError(f"sp_ids and vocab_size have to have equal lengths, got {len(ids)} and {len(sizes)}")
    ids = [as_sparse(sp, "sparse_merge") for sp in ids]
    values = as_sparse(sp_values, "sparse_merge")
    with name_scope(name or "SparseMerge"):
        indices = concat([ids[0].indices[:, :-1]] + [cast(expand_dims(sp.values, 1), dtypes.int64) for sp in ids], 1)
        shape = concat([ids[0].dense_shape[:-1], cast(stack([convert_to_tensor(v) for v in sizes]), dtypes.int64)],
                       0)
        merged = SparseTensor(indices, values.values, shape)
        if already_sorted:
            return merged
        ordered = sparse_reorder(merged)
        return SparseTensor(ordered.indices, ordered.values, shape)
