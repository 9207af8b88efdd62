"""TF's SparseTensorsMap ops: SparseTensors put away in a session under int64 handles, so that a queue (which holds
dense tensors) can carry them, and taken back as one SparseTensor of a batch (tf.train.batch of parse_single_example's
VarLenFeatures, as TF1's training/input.py does it).

AddSparseToTensorsMap stores one SparseTensor and gives its handle; AddManySparseToTensorsMap stores each row of a
minibatch (rank R) as a SparseTensor of rank R - 1, one handle per row; TakeManySparseFromTensorsMap takes N handles
out of the map and gives the SparseTensor of rank R + 1 whose row i is the i-th, its dense shape the largest of
theirs. The map is a resource of the session, named by the ops' shared_name (an Add op's own name when empty, as
TF's use_node_name_sharing).
"""
import itertools
import threading

import numpy as np

from ..framework import dtypes
from ..framework.graph import get_default_graph
from ..framework.registry import register
from ..platform.errors import InvalidArgumentError
from .sparse_tensor import SparseTensor

MAPS = "sparse_tensors_map"  # the container of session.resources


class SparseTensorsMap:
    """One map: handle -> (indices, values, dense_shape), handles counting from 1 as TF's."""

    def __init__(self):
        self.entries, self.handles, self.lock = {}, itertools.count(1), threading.Lock()

    def add(self, parts):
        with self.lock:
            handle = next(self.handles)
            self.entries[handle] = parts
            return handle

    def take(self, handle, name):
        with self.lock:
            try:
                return self.entries.pop(handle)
            except KeyError:
                raise InvalidArgumentError(f"Unable to find SparseTensor: {handle} in map: {name}") from None


def _map(op, session):
    name = op.attrs.get("shared_name") or op.name
    return name, session.resources.lookup_or_create(MAPS, name, SparseTensorsMap)


def _add_kernel(op, session):
    def run(indices, values, shape):
        _, store = _map(op, session)
        parts = [session.to_host(x) for x in (indices, values, shape)]
        return np.array(store.add(parts), dtype=np.int64)
    return run


def _add_many_kernel(op, session):
    def run(indices, values, shape):
        _, store = _map(op, session)
        indices, values, shape = (session.to_host(x) for x in (indices, values, shape))
        if shape.size < 2:
            raise InvalidArgumentError(f"{op.name}: a minibatch SparseTensor has rank at least 2, got dense shape "
                                       f"{shape.tolist()}")
        rows = indices[:, 0]
        return np.array([store.add([indices[rows == i, 1:], values[rows == i], shape[1:]])
                         for i in range(int(shape[0]))], dtype=np.int64)
    return run


def _take_many_kernel(op, session):
    def run(handles):
        name, store = _map(op, session)
        taken = [store.take(int(h), name) for h in session.to_host(handles).ravel()]
        ranks = {len(shape) for _, _, shape in taken}
        if len(ranks) > 1:
            raise InvalidArgumentError(f"{op.name}: the SparseTensors taken have ranks {sorted(ranks)}; a batch "
                                       "holds SparseTensors of one rank")
        rank = ranks.pop() if ranks else (op.attrs.get("_rank") or 1) - 1
        indices = [np.concatenate([np.full((len(i), 1), row, np.int64), i.reshape(len(i), rank)], axis=1)
                   for row, (i, _, _) in enumerate(taken)]
        shape = np.max([s for _, _, s in taken], axis=0) if taken else np.zeros(rank, np.int64)
        values = [v for _, v, _ in taken]
        dtype = dtypes.as_dtype(op.attrs["dtype"])
        return (np.concatenate(indices).astype(np.int64) if indices else np.zeros((0, rank + 1), np.int64),
                np.concatenate(values).astype(dtype) if values else np.zeros(0, dtype),
                np.concatenate([[len(taken)], shape]).astype(np.int64))
    return run


def _handle_infer(indices, values, shape, **attrs):
    return [((), dtypes.int64)]


def _handles_infer(indices, values, shape, **attrs):
    return [((None,), dtypes.int64)]


def _take_infer(handles, **attrs):
    rank = attrs.get("_rank")  # ringflow's note of the static rank (TF's op has no such attr; "_" attrs it ignores)
    return [((None, rank), dtypes.int64), ((None,), dtypes.as_dtype(attrs["dtype"])), ((rank,), dtypes.int64)]


register("AddSparseToTensorsMap", kernel=_add_kernel, infer=_handle_infer)
register("AddManySparseToTensorsMap", kernel=_add_many_kernel, infer=_handles_infer)
register("TakeManySparseFromTensorsMap", kernel=_take_many_kernel, infer=_take_infer)


def add_sparse_to_tensors_map(sparse_input, container=None, shared_name=None, name=None, many=False):
    """The int64 handle of `sparse_input` stored in the session's map (many=True: one handle per row of a
    minibatch, each row a SparseTensor of one rank less)."""
    op_type = "AddManySparseToTensorsMap" if many else "AddSparseToTensorsMap"
    parts = [sparse_input.indices, sparse_input.values, sparse_input.dense_shape]
    specs = _handles_infer(*parts) if many else _handle_infer(*parts)
    return parts[0].graph.create_op(op_type, parts, specs, name=name or op_type,
                                    attrs={"container": container or "", "shared_name": shared_name or ""}).outputs[0]


def take_many_sparse_from_tensors_map(sparse_map_op, sparse_handles, dtype, rank=None, name=None):
    """The SparseTensor whose row i is the one `sparse_handles[i]` names in the map `sparse_map_op` (an Add op)
    filled; they leave the map. `rank` is the result's (each stored one's plus one), None when unknown."""
    shared_name = sparse_map_op.attrs.get("shared_name") or sparse_map_op.name
    attrs = {"dtype": dtypes.as_dtype(dtype), "container": "", "shared_name": shared_name}
    if rank is not None:
        attrs["_rank"] = rank
    graph = get_default_graph()
    op = graph.create_op("TakeManySparseFromTensorsMap", [sparse_handles], _take_infer(sparse_handles, **attrs),
                         name=name or "TakeManySparseFromTensorsMap", attrs=attrs)
    return SparseTensor(*op.outputs)
