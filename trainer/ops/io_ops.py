"""TF's checkpoint ops: SaveV2 writes tensors to a checkpoint (a tensor bundle), RestoreV2 reads them back.

They are what a SaverDef names (tf.train.Saver builds them, as TF1 does), so a graph TensorFlow exported restores
in ringflow by `sess.run(saver_def.restore_op_name, {saver_def.filename_tensor_name: prefix})`, and one ringflow
exported restores that way in TensorFlow. Whole tensors only: a non-empty shape_and_slices (a partitioned
variable's slice) is refused. They read and write TF's bundle only; ringflow's earlier .npz checkpoints restore
through Saver.restore.
"""
import os

import numpy as np

from ..framework.dtypes import as_dtype, string
from ..framework.tensor_bundle import BundleError, merge_bundles, read_bundle, write_bundle
from ..framework.tensor_shape import TensorShape
from ..platform.errors import DataLossError, InvalidArgumentError, NotFoundError, UnimplementedError
from .core_ops import convert_to_tensor
from .stack_ops import stack
from ..framework.graph import get_default_graph
from ..framework.registry import host_kernel, register


def _strings(array):
    return [s.decode("utf-8") if isinstance(s, bytes) else str(s) for s in np.asarray(array).ravel().tolist()]


def _names(op_type, prefix, names, slices, count):
    prefix, names, slices = _strings(prefix)[0], _strings(names), _strings(slices)
    if len(names) != count or len(slices) != count:
        raise InvalidArgumentError(f"{op_type}: {len(names)} tensor names and {len(slices)} shape_and_slices for "
                                   f"{count} tensors; give one name and one slice spec (\"\") per tensor")
    if any(slices):
        raise UnimplementedError(f"{op_type}: shape_and_slices {slices!r} name slices of partitioned variables; "
                                 "ringflow saves and restores whole tensors only (pass \"\" for each)")
    return prefix, names


def _save_kernel(op, session):
    def save(prefix, names, slices, *tensors):
        prefix, names = _names("SaveV2", session.to_host(prefix), session.to_host(names),
                               session.to_host(slices), len(tensors))
        if os.path.dirname(prefix):  # TF's bundle writer makes the prefix's directory (a sharded save's part-*)
            os.makedirs(os.path.dirname(prefix), exist_ok=True)
        write_bundle(prefix, {name: session.to_host(t) for name, t in zip(names, tensors)})
    return save


def _sharded_filename(basename, shard, num_shards):
    """TF's ShardedFilename: "<basename>-00001-of-00002"."""
    return np.array(f"{_strings(basename)[0]}-{int(shard):05d}-of-{int(num_shards):05d}".encode(), dtype=object)


def _merge_kernel(op, session):
    def merge(prefixes, destination):
        try:
            merge_bundles(_strings(session.to_host(prefixes)), _strings(session.to_host(destination))[0],
                          op.attrs.get("delete_old_dirs", True))
        except FileNotFoundError as exc:
            raise NotFoundError(None, op, f"MergeV2Checkpoints: {exc.strerror}: {exc.filename!r}: run the SaveV2 "
                                "ops of every part before merging them") from None
    return merge


def _restore_kernel(op, session):
    wanted = [np.dtype(d) if d != string else object for d in op.attrs["dtypes"]]

    def restore(prefix, names, slices):
        prefix, names = _names("RestoreV2", session.to_host(prefix), session.to_host(names),
                               session.to_host(slices), len(wanted))
        try:
            arrays = read_bundle(prefix, set(names))
        except FileNotFoundError:
            raise NotFoundError(None, op, f"Unsuccessful TensorSliceReader constructor: Failed to find any "
                                f"matching files for {prefix}: check the checkpoint prefix (the path "
                                "without .index)") from None
        except BundleError as exc:
            raise DataLossError(None, op, f"Restoring from checkpoint failed: {exc}") from None
        out = []
        for name, dtype in zip(names, wanted):
            if name not in arrays:
                raise NotFoundError(None, op, f"Key {name} not found in checkpoint {prefix!r}, which holds "
                                    f"{sorted(arrays)}: check the variable names and scopes")
            value = arrays[name]
            if value.dtype != dtype:
                raise InvalidArgumentError(None, op, f"tensor_name = {name}; expected dtype "
                                           f"{np.dtype(dtype).name} does not equal original dtype "
                                           f"{value.dtype.name} in checkpoint {prefix!r}")
            out.append(session.to_device(value))
        return out[0] if len(out) == 1 else tuple(out)
    return restore


register("SaveV2", kernel=_save_kernel, infer=lambda *inputs, **attrs: [])
register("ShardedFilename", kernel=host_kernel(_sharded_filename), infer=lambda *inputs: [((), string)])
register("MergeV2Checkpoints", kernel=_merge_kernel, infer=lambda *inputs, **attrs: [])
register("RestoreV2", kernel=_restore_kernel,
         infer=lambda prefix, names, slices, dtypes: [(TensorShape(None), as_dtype(d)) for d in dtypes])


def _strings_in(prefix, tensor_names, shape_and_slices):
    """The three string inputs, constants named under the op's own scope as TF's generated wrappers name them
    ("save/SaveV2/tensor_names")."""
    return [convert_to_tensor(v, dtype=string, name=n) for v, n in
            ((prefix, "prefix"), (tensor_names, "tensor_names"), (shape_and_slices, "shape_and_slices"))]


def save_v2(prefix, tensor_names, shape_and_slices, tensors, name=None):
    """An op writing `tensors` under `tensor_names` to the checkpoint `prefix` (TF's SaveV2)."""
    graph = get_default_graph()
    with graph.name_scope(name or "SaveV2") as scope:
        tensors = [convert_to_tensor(t) for t in tensors]
        inputs = _strings_in(prefix, tensor_names, shape_and_slices)
    return graph.create_op("SaveV2", inputs + tensors, [], name=scope[:-1], unique=False,
                           attrs={"dtypes": [t.dtype for t in tensors]})


def sharded_filename(basename, shard, num_shards, name=None):
    """"<basename>-<shard>-of-<num_shards>", five digits each (TF's ShardedFilename), a scalar string tensor."""
    graph = get_default_graph()
    with graph.name_scope(name or "ShardedFilename") as scope:
        shard = convert_to_tensor(shard, name="shard")
    return graph.create_op("ShardedFilename", [convert_to_tensor(basename, dtype=string), shard,
                                               convert_to_tensor(num_shards)], [((), string)], name=scope[:-1],
                           unique=False).outputs[0]


def merge_v2_checkpoints(checkpoint_prefixes, destination_prefix, delete_old_dirs=True, name=None):
    """An op merging the checkpoints `checkpoint_prefixes` into the shards of one, `destination_prefix` (TF's
    MergeV2Checkpoints)."""
    graph = get_default_graph()
    with graph.name_scope(name or "MergeV2Checkpoints") as scope:
        if isinstance(checkpoint_prefixes, (list, tuple)):
            checkpoint_prefixes = stack(list(checkpoint_prefixes), name="checkpoint_prefixes")
        inputs = [convert_to_tensor(checkpoint_prefixes, dtype=string), convert_to_tensor(destination_prefix,
                                                                                          dtype=string)]
    return graph.create_op("MergeV2Checkpoints", inputs, [], name=scope[:-1], unique=False,
                           attrs={"delete_old_dirs": delete_old_dirs})


def restore_v2(prefix, tensor_names, shape_and_slices, dtypes, name=None):  # noqa: A002 - TF's argument name
    """The tensors `tensor_names` of the checkpoint `prefix`, as `dtypes` (TF's RestoreV2); a list."""
    graph = get_default_graph()
    dtypes = [as_dtype(d) for d in dtypes]
    with graph.name_scope(name or "RestoreV2") as scope:
        inputs = _strings_in(prefix, tensor_names, shape_and_slices)
    return list(graph.create_op("RestoreV2", inputs, [(TensorShape(None), d) for d in dtypes], name=scope[:-1],
                                unique=False, attrs={"dtypes": dtypes}).outputs)
