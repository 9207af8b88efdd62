"""tf.lookup.experimental's mutable tables: MutableHashTable, and DenseHashTable (TF's open-addressing table, whose
empty_key and deleted_key mark free buckets and so may never be keys). Each session keeps its own contents in its
ResourceMgr, as lookup_ops.py's static tables do, and looks them up with the same find and size ops; insert and
remove change them while the graph runs. Scalar values only (TF's MutableHashTableOfTensors is not here), and the
contents are not written to checkpoints."""
import numpy as np

from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from ..framework.tensor import Tensor
from ..framework.registry import apply_op, op_def, register
from ..platform.errors import InvalidArgumentError
from .core_ops import convert_to_tensor
from .lookup_ops import session_table as table_of


def _create_kernel(op, session):
    def run():
        if "empty_key" in op.attrs and op.attrs["empty_key"] == op.attrs.get("deleted_key"):
            raise InvalidArgumentError(None, op, f"Empty and deleted keys must differ, both are "
                                                 f"{op.attrs['empty_key']!r}")
        table_of(session, op.attrs["shared_name"]).initialized = True  # a mutable table starts empty, ready
        return np.array(op.attrs["shared_name"], dtype=object)
    return run


def _reserved(op, keys):
    reserved = {k: op.attrs.get(k) for k in ("empty_key", "deleted_key") if op.attrs.get(k) is not None}
    for label, key in reserved.items():
        if np.any(np.asarray(keys, dtype=object) == key):
            raise InvalidArgumentError(None, op, f"Using the {label} ({key!r}) as a table key is not allowed: a "
                                                 "DenseHashTable keeps it to mark its buckets")


def _insert_kernel(op, session):
    def run(handle, keys, values):
        keys, values = np.asarray(session.to_host(keys)), np.asarray(session.to_host(values))
        if keys.shape != values.shape:
            raise InvalidArgumentError(None, op, f"Expected shape {list(keys.shape)} for value, got "
                                                 f"{list(values.shape)}: give one value per key")
        _reserved(op, keys)
        table_of(session, session.to_host(handle)).update(zip(keys.ravel().tolist(), values.ravel().tolist()))
    return run


def _remove_kernel(op, session):
    def run(handle, keys):
        keys = np.asarray(session.to_host(keys))
        _reserved(op, keys)
        table = table_of(session, session.to_host(handle))
        for key in keys.ravel().tolist():
            table.pop(key, None)
    return run


def _export_kernel(op, session):
    def run(handle):
        table = table_of(session, session.to_host(handle))
        keys = np.array(list(table), dtype=op.attrs["key_dtype"].dtype)
        values = np.array(list(table.values()), dtype=op.attrs["value_dtype"].dtype)
        return [session.to_device(keys), session.to_device(values)]
    return run


register("MutableHashTableV2", kernel=_create_kernel, infer=lambda **attrs: [((), dtypes.string)])
register("LookupTableInsertV2", kernel=_insert_kernel, infer=lambda h, k, v, **attrs: [])
register("LookupTableRemoveV2", kernel=_remove_kernel, infer=lambda h, k, **attrs: [])
register("LookupTableExportV2", kernel=_export_kernel,
         infer=lambda h, key_dtype, value_dtype: [((None,), key_dtype), ((None,), value_dtype)])


def _operation(op_type, inputs, **attrs):
    """An op with no outputs (an update), as an Operation."""
    specs = op_def(op_type).infer(*inputs, **attrs)
    return inputs[0].graph.create_op(op_type, inputs, specs, name=op_type, attrs=attrs)


class MutableHashTable:
    """A table that the graph fills as it runs: insert, remove, lookup (default_value for absent keys), size and
    export. No initializer: a session's table starts empty."""

    def __init__(self, key_dtype, value_dtype, default_value, name="MutableHashTable", checkpoint=True,
                 empty_key=None, deleted_key=None):
        self.key_dtype, self.value_dtype = dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype)
        self._reserved = {"empty_key": empty_key, "deleted_key": deleted_key}
        with name_scope(name) as scope:
            self._name = scope.rstrip("/")
            self._default = convert_to_tensor(default_value, dtype=self.value_dtype, name="default_value")
            if self._default.shape.ndims != 0:
                raise NotImplementedError(f"{type(self).__name__} {self._name!r} holds scalar values; a value of "
                                          f"shape {self._default.shape} needs TF's MutableHashTableOfTensors, which "
                                          "ringflow lacks")
            self.resource_handle = apply_op("MutableHashTableV2", [], name="table", shared_name=self._name,
                                            **self._attrs())

    name = property(lambda self: self._name)

    def _keys(self, keys):
        if isinstance(keys, Tensor) and keys.dtype != self.key_dtype:  # TF's conversion raises ValueError here
            raise ValueError(f"keys: Tensor conversion requested dtype {self.key_dtype.name} for Tensor with dtype "
                             f"{keys.dtype.name}: {keys.name!r}; table {self._name!r} has {self.key_dtype.name} keys")
        return convert_to_tensor(keys, dtype=self.key_dtype)

    def _attrs(self):
        return {k: v for k, v in self._reserved.items() if v is not None}

    def insert(self, keys, values, name=None):
        """An op setting each key's value (keys and values of one shape)."""
        with name_scope(name or f"{self._name}_lookup_table_insert"):
            values = convert_to_tensor(values, dtype=self.value_dtype)
            return _operation("LookupTableInsertV2", [self.resource_handle, self._keys(keys), values],
                              **self._attrs())

    def remove(self, keys, name=None):
        """An op removing the keys (absent ones are ignored)."""
        with name_scope(name or f"{self._name}_lookup_table_remove"):
            return _operation("LookupTableRemoveV2", [self.resource_handle, self._keys(keys)], **self._attrs())

    def lookup(self, keys, dynamic_default_values=None, name=None):
        """Each key's value, default_value (or dynamic_default_values') where the table has none."""
        if dynamic_default_values is not None:
            raise NotImplementedError("dynamic_default_values (a default per key) is not in ringflow: look up with "
                                      "the table's default_value and tf.where on tf.equal(keys, ...) instead")
        with name_scope(name or f"{self._name}_lookup_table_find"):
            return apply_op("LookupTableFindV2", [self.resource_handle, self._keys(keys), self._default],
                            value_dtype=self.value_dtype)

    def size(self, name=None):
        """The number of entries (int64)."""
        with name_scope(name or f"{self._name}_Size"):
            return apply_op("LookupTableSizeV2", [self.resource_handle])

    def export(self, name=None):
        """(keys, values): two vectors holding every entry, in no set order."""
        with name_scope(name or f"{self._name}_lookup_table_export_values"):
            return tuple(apply_op("LookupTableExportV2", [self.resource_handle], key_dtype=self.key_dtype,
                                  value_dtype=self.value_dtype))


class DenseHashTable(MutableHashTable):
    """MutableHashTable's behaviour with TF's DenseHashTable's signature: empty_key and deleted_key (which must
    differ) may never be inserted or removed (InvalidArgumentError when run); initial_num_buckets sizes TF's
    storage and changes nothing here."""

    def __init__(self, key_dtype, value_dtype, default_value, empty_key, deleted_key, initial_num_buckets=None,
                 name="MutableDenseHashTable", checkpoint=True):
        del initial_num_buckets
        super().__init__(key_dtype, value_dtype, default_value, name=name, checkpoint=checkpoint,
                         empty_key=empty_key, deleted_key=deleted_key)

    def export(self, name=None):
        raise NotImplementedError("DenseHashTable.export: TF exports its buckets, free ones included, which "
                                  "ringflow does not lay out; use a MutableHashTable to export entries")
