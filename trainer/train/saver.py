"""tf.train.Saver: save variables in TF's checkpoint format and restore them by name, as TF1 does.

Checkpoint names are TF1's: a variable is stored under its op name ("dense/kernel") unless var_list is a dict
giving other names, and a checkpoint is named by its prefix ("dir/model.ckpt-10": "<prefix>.index",
"<prefix>.data-00000-of-00001" and the graph in "<prefix>.meta"), which real TensorFlow reads and writes too;
ringflow's earlier one-file "<prefix>.npz" checkpoints still restore. The Saver builds TF1's save and restore ops
(SaveV2, RestoreV2 and an Assign per variable, io_ops.py) and names them in its SaverDef, so TF1 programs that run
`saver_def.restore_op_name` by name work, in ringflow and in TensorFlow. save() and restore() themselves read and
write the files in Python (the record, .npz files, shape and dtype checks) and restore by feeding RestoreV2's
outputs to the same Assign ops, so they work through any session-like object with `run`, on CPU and GPU alike.
"""
import json
import numbers
import os
import threading
import time
import uuid

import numpy as np

from . import checkpoint as npz
from .meta_graph import export_scoped_meta_graph, import_scoped_meta_graph, read_meta_graph_file
from ..framework.graph_io import write_graph
from ..framework.tensor_bundle import BundleError
from ..framework.meta_graph import MetaGraphDef, SaverDef
from ..platform.atomic_file import atomic_write
from ..platform.errors import DataLossError, InvalidArgumentError, NotFoundError
from ..framework.tensor import format_shape
from ..framework.graph import get_default_graph
from ..framework.dtypes import string
from ..framework.graph_wrappers import control_dependencies
from ..ops.core_ops import constant, group, identity, placeholder_with_default
from ..ops.io_ops import merge_v2_checkpoints, restore_v2, save_v2, sharded_filename
from ..ops.math_ops import where
from ..ops.string_ops import regex_full_match, string_join
from ..framework.tensor_shape import TensorShape
from ..ops.saveable_object import SaveableObject
from ..ops.variables import GLOBAL_VARIABLES, Variable
from ..framework.graph_keys import GraphKeys
from .checkpoint_management import (PROGRAM_META, checkpoint_exists, data_path, describe_directory,
                                    get_checkpoint_mtimes, meta_graph_filename, remove_checkpoint,
                                    update_checkpoint_state)


class Saver:
    """Saves and restores variables; keeps the newest `max_to_keep` checkpoints (TF1's tf.train.Saver).

    sharded=True writes one data file per device the variables are on, "<prefix>.data-0000i-of-0000N" in the
    order of the device names, with one index for them all, as TF1's sharded Saver does (one file when they share
    a device); Saver.save and the graph's own save op (save_tensor_name, which TF1 programs run by name) both
    write them, the latter through TF's ShardedFilename, per-device SaveV2 and MergeV2Checkpoints. Accepted and
    ignored: restore_sequentially, write_version (always V2), builder, and save_relative_paths (paths inside the
    checkpoint directory are always stored relative to it). filename is the default of the filename tensor.
    saver_def (import_meta_graph's Saver) gives max_to_keep and keep_checkpoint_every_n_hours, and the Saver
    uses the ops it names when the graph has them as TF1 builds them (else it builds its own).
    save_format (a ringflow extension, the name tf.keras uses): "tf", TF's .index and .data files, or "npz",
    the one .npz file earlier ringflow wrote.
    """

    def __init__(self, var_list=None, reshape=False, sharded=False, max_to_keep=5,
                 keep_checkpoint_every_n_hours=10000.0, name=None, restore_sequentially=False, saver_def=None,
                 builder=None, defer_build=False, allow_empty=False, write_version=2, pad_step_number=False,
                 save_relative_paths=False, filename=None, save_format="tf"):
        if save_format not in ("tf", "npz"):
            raise ValueError(f"Saver(save_format={save_format!r}): use 'tf' (TF's checkpoint files) or 'npz'")
        if saver_def is not None:
            max_to_keep = saver_def.max_to_keep
            keep_checkpoint_every_n_hours = saver_def.keep_checkpoint_every_n_hours or keep_checkpoint_every_n_hours
        self._save_format, self._sharded = save_format, sharded
        self._var_list, self._reshape, self._name, self._allow_empty = var_list, reshape, name, allow_empty
        self._max_to_keep, self._pad_step_number = max_to_keep, pad_step_number
        self._keep_every_s = keep_checkpoint_every_n_hours * 3600
        self._next_checkpoint_time = time.time() + self._keep_every_s
        self._last_checkpoints = []  # [(prefix, time saved)], oldest first
        self._to_delete = []
        # Supervisor's timer thread and the program's own sv.saver.save() share one Saver (the seeds do this):
        # one save at a time, or a state file may name a checkpoint the other save just pruned.
        self._lock = threading.RLock()
        self._variables, self._saver_def, self._filename_arg = None, saver_def, filename
        self._meta_graph = None  # (what the graph looked like, its serialized MetaGraphDef)
        if not defer_build:
            self.build()

    def build(self):
        """Build TF1's save and restore ops (done by the constructor unless defer_build=True)."""
        if self._variables is not None:
            return
        if self._saver_def is not None and self._bind(self._saver_def):
            return
        variables, self._saveables = _named_variables(self._var_list)
        if not variables and not self._saveables and not self._allow_empty:
            raise ValueError("No variables to save: the graph has no global variables and var_list is empty "
                             "(pass allow_empty=True to allow an empty Saver)")
        self._filename = self._save_tensor = self._restore_op = None
        self._restored = {}
        self._graph = _graph_of(variables, self._saveables)
        if self._graph is not None:
            graph = self._graph
            with graph.as_default(), graph.control_dependencies(None), graph.name_scope(None), \
                    graph.name_scope(self._name or "save"):
                self._build_ops(variables)
        self._variables = variables

    def _build_ops(self, variables):
        """TF1's Saver graph, by TF1's names: save/Const (the filename, "model" unless fed), save/SaveV2 and
        save/control_dependency (the filename once saved), save/RestoreV2, one save/Assign_N per variable and
        save/restore_all. Saver.restore feeds RestoreV2's outputs with the values it read and checked, so both
        restore paths run the same Assign ops."""
        graph = self._graph
        with graph.name_scope("filename") as scope:
            default = constant(self._filename_arg or "model", dtype=string, name="input")
        filename = graph.create_op("PlaceholderWithDefault", [default], [((), string)], name=scope[:-1],
                                   attrs={"shape": TensorShape(())}, unique=False).outputs[0]
        self._filename = placeholder_with_default(filename, (), name="Const")
        specs = {spec.name: spec.tensor for saveable in self._saveables for spec in saveable.specs}
        tensors = {**variables, **specs}
        groups = _by_device(tensors) if self._sharded else [list(tensors)]
        if self._sharded:
            self._save_tensor = self._sharded_save(tensors, groups)
        else:
            save_op = save_v2(self._filename, groups[0], [""] * len(tensors), list(tensors.values()))
            with control_dependencies([save_op]):
                self._save_tensor = identity(self._filename, name="control_dependency")
        self._restored, restores = {}, []
        for names in groups:
            restored = restore_v2(self._filename, names, [""] * len(names), [tensors[n].dtype for n in names])
            self._restored.update(zip(names, restored))
            restores.append([variables[key].assign(self._restored[key]) for key in names if key in variables])
        for saveable in self._saveables:
            shard = next(i for i, names in enumerate(groups) if saveable.specs[0].name in names)
            restores[shard].append(saveable.restore([self._restored[spec.name] for spec in saveable.specs],
                                                    [None] * len(saveable.specs)))
        if self._sharded:
            restores = [[group(*ops, name="restore_shard")] for ops in restores]
        self._restore_op = group(*[op for ops in restores for op in ops], name="restore_all")

    def _sharded_save(self, tensors, groups):
        """TF1's sharded save: each device's tensors to a part "<prefix>_temp_<uuid>/part-0000i-of-0000N" (SaveV2),
        then MergeV2Checkpoints makes the parts the data files "<prefix>.data-0000i-of-0000N" of one index; the
        save tensor ("save/Identity") is the prefix once merged. An s3:// prefix takes its parts beside it, as TF
        does, since S3 has no directories to remove."""
        is_s3 = regex_full_match(self._filename, "^s3://.*")
        suffix = where(is_s3, constant(".part"), constant(f"_temp_{uuid.uuid4().hex}/part"))
        parts_prefix = string_join([self._filename, suffix])
        num_shards = constant(len(groups), name="num_shards")
        parts, saved = [], []
        for shard, names in enumerate(groups):
            parts.append(sharded_filename(parts_prefix, shard, num_shards))
            save_op = save_v2(parts[-1], names, [""] * len(names), [tensors[n] for n in names])
            with control_dependencies([save_op]):
                saved.append(identity(parts[-1], name="control_dependency"))
        with control_dependencies([t.op for t in saved]):
            merge = merge_v2_checkpoints(parts, self._filename)
            with control_dependencies([merge]):
                return identity(self._filename, name="Identity")

    def _bind(self, saver_def):
        """Use the ops a SaverDef names (an imported graph's Saver, as TF1's Saver(saver_def=...) does);
        False when the graph lacks them or they are not SaveV2 -> Assign(RestoreV2) as TF1 builds them."""
        graph = get_default_graph()
        try:
            filename = graph.get_tensor_by_name(saver_def.filename_tensor_name)
            save_tensor = graph.get_tensor_by_name(saver_def.save_tensor_name)
            restore_op = graph.get_operation_by_name(saver_def.restore_op_name)
        except (KeyError, ValueError):
            return False
        saves = _saves(save_tensor.op)
        assigns = _assigns(restore_op)
        if not saves or not assigns:
            return False
        names = [_const_strings(save.inputs[1]) for save in saves]
        names = None if None in names else [name for part in names for name in part]
        restored, variables = {}, {}
        for assign in assigns:
            value = assign.inputs[1]
            keys = _const_strings(value.op.inputs[1]) if value.op.type == "RestoreV2" else None
            if keys is None or not isinstance(assign.inputs[0], Variable):
                return False
            restored[keys[value.value_index]], variables[keys[value.value_index]] = value, assign.inputs[0]
        if names is None or sorted(names) != sorted(variables):
            return False
        self._filename, self._save_tensor, self._restore_op = filename, save_tensor, restore_op
        self._restored, self._variables = restored, {key: variables[key] for key in names}
        self._saveables, self._graph = [], graph
        self._sharded = self._sharded or bool(saver_def.sharded)
        return True

    def save(self, sess, save_path, global_step=None, latest_filename=None, meta_graph_suffix="meta",
             write_meta_graph=True, write_state=True, strip_default_attrs=False, save_debug_info=False, meta=None):
        """Write every variable to the checkpoint "<save_path>-<global_step>" and return that prefix (None when
        empty); with write_meta_graph, the graph goes to "<prefix>.meta" (a MetaGraphDef, as TF1 writes).

        `meta` (a ringflow extension) is any JSON-able value kept in the checkpoint, read back with
        tg.train.checkpoint_meta(prefix): a data position, a run's configuration.
        """
        with self._lock:
            prefix = self._save(sess, save_path, global_step, latest_filename, write_state, meta)
            if prefix is not None and write_meta_graph:
                self._write_meta_graph(meta_graph_filename(prefix, meta_graph_suffix), strip_default_attrs)
            return prefix

    def _write_meta_graph(self, filename, strip_default_attrs):
        """Write the graph's MetaGraphDef, serialized again only when the graph changed since the last save (new
        ops, collections or static shapes): a training loop's saves would otherwise spend most of their time
        re-serializing the same graph."""
        graph = self._graph
        shapes = [t.shape.as_list() if t.shape.ndims is not None else None
                  for op in graph.get_operations() for t in op.outputs]
        collections = [(key, [id(item) for item in graph.get_collection(key)])
                       for key in graph.get_all_collection_keys()]
        key = (graph.version, shapes, collections, strip_default_attrs)
        if self._meta_graph is None or self._meta_graph[0] != key:
            meta = self.export_meta_graph(graph=graph, strip_default_attrs=strip_default_attrs)
            self._meta_graph = (key, meta.SerializeToString())
        with atomic_write(filename, "wb") as f:
            f.write(self._meta_graph[1])

    def _save(self, sess, save_path, global_step, latest_filename, write_state, meta):
        if self._variables is None:
            raise RuntimeError("`build()` should be called before save if defer_build==True")
        if self._graph is None:
            return None
        if global_step is not None:
            if isinstance(global_step, np.ndarray) and global_step.ndim == 0:
                global_step = global_step[()]  # a 0-d array, as Session.run returns a scalar
            if not isinstance(global_step, (numbers.Integral, np.integer)):
                global_step = sess.run(global_step)
            step = int(global_step)
            prefix = f"{save_path}-{step:08d}" if self._pad_step_number else f"{save_path}-{step}"
        else:
            step, prefix = None, save_path
        parent = os.path.dirname(save_path)
        if parent and not os.path.isdir(parent):  # TF1's checkpoint writer makes the last directory level
            if not os.path.isdir(os.path.dirname(os.path.abspath(parent))):
                raise ValueError(f"Parent directory of {save_path} doesn't exist, can't save.")
            os.makedirs(parent, exist_ok=True)
        try:
            json.dumps(meta)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"Saver.save(meta=...) must be JSON-serializable, got {meta!r}: {exc}") from None
        tensors = self._tensors()
        names = list(tensors)
        values = sess.run([tensors[n] for n in names])
        record = {"saver": "tf.train.Saver", "global_step": step, PROGRAM_META: meta}
        if self._save_format == "tf" and meta is None:
            record = None  # a checkpoint as TF writes it, without ringflow's record
        npz.write(prefix, dict(zip(names, values)), record, self._save_format, self._shards())
        if write_state:
            self._record(prefix)
            update_checkpoint_state(parent, prefix, self.last_checkpoints, latest_filename)
            self._delete_old()
        return prefix

    def _shards(self):
        """The checkpoint names of each device's variables, devices by name (TF1's sharded Saver), or None."""
        return _by_device(self._tensors()) if self._sharded else None

    def _tensors(self):
        """{checkpoint name: tensor saved}: the variables, then the SaveableObjects' specs."""
        specs = {spec.name: spec.tensor for saveable in self._saveables for spec in saveable.specs}
        return {**self._variables, **specs}

    def restore(self, sess, save_path):
        """Load every variable of var_list (and SaveableObject) from the checkpoint `save_path` (a prefix)."""
        if self._variables is None:
            raise RuntimeError("`build()` should be called before restore if defer_build==True")
        if self._graph is None:
            return
        if save_path is None:
            raise ValueError("Can't load save_path when it is None.")
        path = data_path(save_path)
        if not checkpoint_exists(save_path):
            raise ValueError(f"The passed save_path is not a valid checkpoint: {save_path} (no file "
                             f"{path!r} nor {save_path + npz.NPZ!r}{describe_directory(path)})")
        try:
            arrays, _ = npz.read(path)
        except BundleError as exc:  # a failed checksum or a cut file: TF1 raises DataLossError there
            raise DataLossError(None, None, f"Restoring from checkpoint failed: {exc}") from None
        except FileNotFoundError as exc:  # a data shard is missing beside its index
            raise NotFoundError(None, None, f"Restoring from checkpoint failed: {exc.strerror}: {exc.filename!r}: "
                                "copy every file of the checkpoint (.index and each .data-*-of-*)") from None
        feed = {}
        for key, var in self._variables.items():
            if key not in arrays:
                raise NotFoundError(
                    f"Restoring from checkpoint failed: Key {key} not found in checkpoint {path!r} (wanted by "
                    f"variable {var.name!r}; the checkpoint holds {sorted(arrays)}). The graph has a variable the "
                    "checkpoint lacks: check variable names and scopes, or give var_list to restore a subset")
            feed[self._restored[key]] = self._fit(key, var, arrays[key], path)
        for saveable in self._saveables:
            for spec in saveable.specs:
                if spec.name not in arrays:
                    raise NotFoundError(
                        f"Restoring from checkpoint failed: Key {spec.name} not found in checkpoint {path!r} (wanted "
                        f"by {saveable.name!r}; the checkpoint holds {sorted(arrays)}). It was saved without this "
                        "state: give var_list to restore a subset")
                feed[self._restored[spec.name]] = arrays[spec.name]
        sess.run(self._restore_op, feed)

    def _fit(self, key, var, value, path):
        """The checkpoint's value converted to var's dtype (same kind, or int to float) and shape (reshape=True)."""
        shape = TensorShape(var.shape)
        if not shape.is_compatible_with(value.shape):
            if not (self._reshape and shape.num_elements() == value.size):
                raise InvalidArgumentError(
                    f"Restoring from checkpoint failed: variable {var.name!r} has shape {format_shape(shape)} "
                    f"but checkpoint entry {key!r} in {path!r} has shape {format_shape(value.shape)}; the graph "
                    "differs from the one saved (pass reshape=True to restore a value of the same size)")
            value = value.reshape(shape.as_list())
        if value.dtype != var.dtype:
            if not (np.can_cast(value.dtype, var.dtype, "same_kind") or value.dtype.kind in "biu"
                    and var.dtype.kind == "f"):
                raise InvalidArgumentError(
                    f"Restoring from checkpoint failed: variable {var.name!r} is {var.dtype.name} but checkpoint "
                    f"entry {key!r} in {path!r} is {value.dtype.name}, which does not convert to it")
            value = value.astype(var.dtype)
        return value

    # --- the list of kept checkpoints ----------------------------------------------------------------
    @property
    def last_checkpoints(self):
        """The prefixes of the checkpoints still kept, oldest first."""
        return [prefix for prefix, _ in self._last_checkpoints]

    def set_last_checkpoints(self, last_checkpoints):
        """Take over a list of checkpoint prefixes (kept regardless of keep_checkpoint_every_n_hours)."""
        self._last_checkpoints = [(prefix, np.inf) for prefix in last_checkpoints]

    def set_last_checkpoints_with_time(self, last_checkpoints_with_time):
        """Take over a list of (prefix, timestamp) pairs, oldest first."""
        self._last_checkpoints = list(last_checkpoints_with_time)

    def recover_last_checkpoints(self, checkpoint_paths):
        """Take over the checkpoints that exist among checkpoint_paths, stamped with their files' mtimes."""
        found = [(p, get_checkpoint_mtimes([p])) for p in checkpoint_paths]
        self.set_last_checkpoints_with_time([(p, mtime[0]) for p, mtime in found if mtime])

    def _record(self, prefix):
        if not self._max_to_keep:
            return
        self._last_checkpoints = [(p, t) for p, t in self._last_checkpoints if p != prefix]
        self._last_checkpoints.append((prefix, time.time()))
        if len(self._last_checkpoints) > self._max_to_keep:
            self._to_delete.append(self._last_checkpoints.pop(0))

    def _delete_old(self):
        if not self._to_delete:
            return
        prefix, saved_at = self._to_delete.pop(0)
        if saved_at > self._next_checkpoint_time:  # one checkpoint per keep_checkpoint_every_n_hours survives
            self._next_checkpoint_time += self._keep_every_s
            return
        remove_checkpoint(prefix)

    def as_saver_def(self):
        """This Saver as TF's SaverDef: its filename tensor, save tensor and restore op by name, how many
        checkpoints it keeps, format V2; None for an empty Saver, which has no ops (as TF1's has none)."""
        if self._variables is None:
            raise RuntimeError("`build()` should be called before as_saver_def if defer_build==True")
        if self._restore_op is None:
            return None
        return SaverDef(filename_tensor_name=self._filename.name, save_tensor_name=self._save_tensor.name,
                        restore_op_name=self._restore_op.name, max_to_keep=self._max_to_keep, sharded=self._sharded,
                        keep_checkpoint_every_n_hours=self._keep_every_s / 3600, version=2)

    @property
    def saver_def(self):
        """The SaverDef of this Saver (as_saver_def())."""
        return self.as_saver_def()

    def to_proto(self, export_scope=None):
        """The SaverDef (what a MetaGraphDef's "savers" collection holds)."""
        return self.as_saver_def()

    def export_meta_graph(self, filename=None, collection_list=None, as_text=False, export_scope=None,
                          clear_devices=False, clear_extraneous_savers=False, strip_default_attrs=False,
                          save_debug_info=False, graph=None):
        """Write (when filename is given) and return the MetaGraphDef of the graph, with this Saver's SaverDef,
        which TensorFlow's import_meta_graph and SavedModel loader restore through."""
        return export_meta_graph(filename, graph=graph, saver_def=self.as_saver_def(),
                                 collection_list=collection_list, as_text=as_text, export_scope=export_scope,
                                 clear_devices=clear_devices, strip_default_attrs=strip_default_attrs)


def _saves(op):
    """The SaveV2 ops a save tensor waits for (through a sharded Saver's per-part control_dependency)."""
    found = []
    for control in op.control_inputs:
        found += [control] if control.type == "SaveV2" else _saves(control) if control.type == "Identity" else []
    return found


def _assigns(op):
    """The Assign ops a restore op groups (through the NoOps of a sharded Saver's restore_shard)."""
    found = []
    for control in op.control_inputs:
        found += [control] if control.type == "Assign" else _assigns(control) if control.type == "NoOp" else []
    return found


def _const_strings(tensor):
    """The strings of a Const tensor (a SaveV2's or RestoreV2's tensor_names), None when it is no Const."""
    if tensor.op.type != "Const":
        return None
    return [s.decode("utf-8") if isinstance(s, bytes) else str(s)
            for s in np.asarray(tensor.op.attrs["value"]).ravel().tolist()]


def _named_variables(var_list):
    """({checkpoint name: Variable}, [SaveableObject]): TF1's naming (op names, or the keys of a dict); without
    var_list, the global variables and the SAVEABLE_OBJECTS collection, as TF1's Saver takes."""
    if var_list is None:
        graph = get_default_graph()
        var_list = graph.get_collection(GLOBAL_VARIABLES) + graph.get_collection(GraphKeys.SAVEABLE_OBJECTS)
    if isinstance(var_list, dict):
        pairs = list(var_list.items())
    else:
        pairs = [(v.name if isinstance(v, SaveableObject) else getattr(v, "op", None) and v.op.name, v)
                 for v in var_list]
    saveables = [var for _, var in pairs if isinstance(var, SaveableObject)]
    named = {}
    for key, var in pairs:
        if isinstance(var, SaveableObject):
            continue
        if not isinstance(var, Variable):
            raise TypeError(f"Variable to save is not a Variable: {var!r} (under the name {key!r})")
        if not isinstance(key, str) or not key:
            raise TypeError(f"Checkpoint names are non-empty strings, got {key!r} for {var.name!r}")
        if key in named:
            raise ValueError(f"At least two variables have the same name: {key}")
        if key == npz.META:
            raise ValueError(f"The checkpoint name {key!r} is reserved for the file's record; rename {var.name!r}")
        named[key] = var
    names = set(named) | {npz.META}
    for spec in [spec for saveable in saveables for spec in saveable.specs]:
        if spec.name in names:
            raise ValueError(f"At least two variables have the same name: {spec.name}")
        names.add(spec.name)
    return named, saveables


def _by_device(tensors):
    """The names of {name: tensor} grouped by the tensors' devices, devices by name: a sharded Saver's shards."""
    by_device = {}
    for key, tensor in tensors.items():
        by_device.setdefault(tensor.device, []).append(key)
    return [by_device[device] for device in sorted(by_device)]


def _graph_of(variables, saveables):
    """The graph of what a Saver saves, None when it saves nothing."""
    for item in list(variables.values()) + [saveable.op for saveable in saveables]:
        return item.graph
    return None


def export_meta_graph(filename=None, meta_info_def=None, graph_def=None, saver_def=None, collection_list=None,
                      as_text=False, graph=None, export_scope=None, clear_devices=False,
                      clear_extraneous_savers=False, strip_default_attrs=False, save_debug_info=False, **kwargs):
    """The MetaGraphDef of the graph (default: the default graph), also written to `filename` when given
    (binary, or protobuf text with as_text=True), as TF1's tf.train.export_meta_graph."""
    if graph_def is not None or export_scope is not None:
        raise NotImplementedError("export_meta_graph(graph_def=..., export_scope=...): ringflow exports the whole "
                                  "graph it is given; pass graph= instead")
    meta = export_scoped_meta_graph(graph, saver_def, collection_list, clear_devices, meta_info_def,
                                    strip_default_attrs)
    if filename:
        write_graph(meta, os.path.dirname(filename) or ".", os.path.basename(filename), as_text)
    return meta


def import_meta_graph(meta_graph_or_file, clear_devices=False, import_scope=None, **kwargs):
    """Rebuild a MetaGraphDef's graph (a `.meta` file or the message) in the default graph, its variables and
    collections included, and return a Saver for its variables (None when it has none), as TF1 does; then
    `saver.restore(sess, prefix)` and fetch its tensors by name ("loss:0", "train_op")."""
    meta = meta_graph_or_file
    if not isinstance(meta, MetaGraphDef):
        meta = read_meta_graph_file(meta)
    variables = import_scoped_meta_graph(meta, clear_devices=clear_devices, import_scope=import_scope)
    if not variables:
        return None
    saver_def = meta.saver_def if meta.HasField("saver_def") else None
    return Saver(saver_def=saver_def, var_list=None if import_scope is None else list(variables.values()))
