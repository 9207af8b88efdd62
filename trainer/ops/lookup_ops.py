"""TF1's lookup tables (tf.lookup, tf.contrib.lookup): a table maps keys to values, filled once by its initializer
(from tensors or a text file) when tf.tables_initializer() runs, then looked up elementwise.

A table is state of the session that runs it, as TF1 keeps it in the session's ResourceMgr: the table op outputs its
handle (the table's shared name), and the initialize, find and size ops find the table by it in
`session.resources`. Two sessions on one graph each fill their own table.
"""
import numpy as np

from ..framework import dtypes
from ..framework.graph_keys import GraphKeys
from ..framework.graph_wrappers import add_to_collection, get_collection, name_scope
from ..framework.registry import apply_op, host_kernel, register
from ..platform import gfile
from ..platform.errors import FailedPreconditionError, InvalidArgumentError
from .core_ops import constant, convert_to_tensor, group, no_op
from .fill_ops import range  # noqa: A004 - TF1's name
from .shape_ops import size
from .math_ops import not_equal, where
from .sparse_tensor import SparseTensor, is_sparse
from .string_ops import as_string, string_to_hash_bucket_fast

TABLES = "lookup_table"  # the container of session.resources that holds the tables, by handle


class TextFileIndex:
    """Which part of a vocabulary file's line a key or value is: a column index, or one of these."""
    WHOLE_LINE = -2
    LINE_NUMBER = -1


class Table(dict):
    """One table's contents in one session; `initialized` until then False (its lookups fail)."""
    initialized = False


def session_table(session, handle):
    """The Table of `session` that the table op's output `handle` names (made empty on first use)."""
    name = handle.item() if isinstance(handle, np.ndarray) else handle
    return session.resources.lookup_or_create(TABLES, name, Table)


def _initialize_kernel(op, session):
    def run(handle, keys, values):
        table = session_table(session, session.to_host(handle))
        if not table.initialized:  # TF1 keeps the first contents when an initializer runs again
            keys, values = np.asarray(session.to_host(keys)).reshape(-1), np.asarray(session.to_host(values))
            if values.reshape(-1).shape != keys.shape:
                raise InvalidArgumentError(f"Table {op.name!r}: {keys.size} keys but {values.size} values: give one "
                                           "value per key")
            table.update(zip(keys.tolist(), values.reshape(-1).tolist()))
            table.initialized = True
    return run


def _initialize(table, keys, values):
    return table.resource_handle.graph.create_op("InitializeTableV2", [table.resource_handle, keys, values], [],
                                                 name="table_init")


def _find_kernel(op, session):
    value_dtype = op.attrs["value_dtype"]

    def run(handle, keys, default):
        table = session_table(session, session.to_host(handle))
        if not table.initialized:
            raise FailedPreconditionError(None, op, f"Table not initialized: run tf.tables_initializer() (or the "
                                                    f"table's initializer) before {op.name!r}")
        keys, default = np.asarray(session.to_host(keys)), np.asarray(session.to_host(default)).item()
        out = np.array([table.get(k, default) for k in keys.reshape(-1).tolist()], dtype=value_dtype.dtype)
        return session.to_device(out.reshape(keys.shape))
    return run


def _size_kernel(op, session):
    def run(handle):
        table = session_table(session, session.to_host(handle))
        return session.to_device(np.int64(len(table)))
    return run


register("HashTableV2", kernel=host_kernel(lambda shared_name: np.array(shared_name, dtype=object)),
         infer=lambda shared_name: [((), dtypes.string)])
register("InitializeTableV2", kernel=_initialize_kernel, infer=lambda h, k, v: [])
register("LookupTableFindV2", kernel=_find_kernel,
         infer=lambda h, keys, default, value_dtype: [(keys.shape, value_dtype)])
register("LookupTableSizeV2", kernel=_size_kernel, infer=lambda h: [((), dtypes.int64)])


def _read_vocabulary(filename, key_index, value_index, delimiter, vocab_size, key_dtype, value_dtype):
    keys, values = [], []
    with gfile.GFile(filename.item().decode() if isinstance(filename, np.ndarray) else filename, "rb") as f:
        for number, line in enumerate(f.read().splitlines()):
            if vocab_size is not None and number >= vocab_size:
                break
            columns = line.split(delimiter)
            pick = [number if i == TextFileIndex.LINE_NUMBER else line if i == TextFileIndex.WHOLE_LINE
                    else _column(columns, i, filename, number) for i in (key_index, value_index)]
            keys.append(pick[0])
            values.append(pick[1])
    if vocab_size is not None and len(keys) < vocab_size:
        raise InvalidArgumentError(f"Invalid vocab_size in {filename!r}: expected {vocab_size} lines, the file has "
                                   f"{len(keys)}")
    return _typed(keys, key_dtype), _typed(values, value_dtype)


def _column(columns, index, filename, number):
    if index >= len(columns):
        raise InvalidArgumentError(f"Invalid line {number} of {filename!r}: it has {len(columns)} columns, column "
                                   f"{index} was asked for")
    return columns[index]


def _typed(items, dtype):
    if dtype == dtypes.string:
        return np.array([i if isinstance(i, bytes) else str(i).encode() for i in items] + [None], dtype=object)[:-1]
    return np.array([int(i) if dtype.kind == "i" else float(i) for i in items], dtype=dtype.dtype)


register("ReadVocabulary", kernel=host_kernel(_read_vocabulary),
         infer=lambda f, key_index, value_index, delimiter, vocab_size, key_dtype, value_dtype: [
             ((None,), key_dtype), ((None,), value_dtype)])


class KeyValueTensorInitializer:
    """Fills a table with `keys` and `values` (1-D tensors or lists of one length)."""

    def __init__(self, keys, values, key_dtype=None, value_dtype=None, name=None):
        with name_scope(name or "key_value_init"):
            self._keys = convert_to_tensor(keys, dtype=key_dtype, name="keys")
            self._values = convert_to_tensor(values, dtype=value_dtype, name="values")
        self.key_dtype, self.value_dtype = self._keys.dtype, self._values.dtype

    def initialize(self, table):
        """The op that fills `table` (run once per session by tf.tables_initializer())."""
        return _initialize(table, self._keys, self._values)


class TextFileInitializer:
    """Fills a table from a text file: per line, the key and the value are a `delimiter`-separated column
    (key_index/value_index), the line number (TextFileIndex.LINE_NUMBER) or the whole line (WHOLE_LINE)."""

    def __init__(self, filename, key_dtype, key_index, value_dtype, value_index, vocab_size=None, delimiter="\t",
                 name=None):
        self.key_dtype, self.value_dtype = dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype)
        for what, index, dtype in (("key", key_index, self.key_dtype), ("value", value_index, self.value_dtype)):
            if index < TextFileIndex.WHOLE_LINE:
                raise ValueError(f"Invalid {what} index {index}: use a column >= 0, TextFileIndex.LINE_NUMBER or "
                                 "TextFileIndex.WHOLE_LINE")
            if index == TextFileIndex.LINE_NUMBER and dtype not in (dtypes.int64, dtypes.int32):
                raise ValueError(f"Signature mismatch. Keys must be dtype int64, got {dtype.name}: a line number "
                                 f"{what} is an integer")
            if index == TextFileIndex.WHOLE_LINE and dtype != dtypes.string:
                raise ValueError(f"Signature mismatch. Keys must be dtype string, got {dtype.name}: a whole-line "
                                 f"{what} is a string")
        if vocab_size is not None and vocab_size <= 0:
            raise ValueError(f"Invalid vocab_size value {vocab_size}: it must be positive")
        self._attrs = dict(key_index=int(key_index), value_index=int(value_index), delimiter=delimiter.encode(),
                           vocab_size=vocab_size, key_dtype=self.key_dtype, value_dtype=self.value_dtype)
        self._filename, self._name = filename, name

    def initialize(self, table):
        with name_scope(self._name or "text_file_init"):
            filename = convert_to_tensor(self._filename, dtype=dtypes.string, name="filename")
            keys, values = apply_op("ReadVocabulary", [filename], **self._attrs)
            return _initialize(table, keys, values)


class StaticHashTable:
    """A table of fixed contents: `initializer` fills it, keys it lacks map to `default_value`."""

    def __init__(self, initializer, default_value, name=None):
        self._initializer = initializer
        self.key_dtype, self.value_dtype = initializer.key_dtype, initializer.value_dtype
        with name_scope(name or "hash_table") as scope:
            self._name = scope.rstrip("/")
            self.resource_handle = apply_op("HashTableV2", [], name="hash_table" if name is None else "Const",
                                            shared_name=self._name)
            self._default = convert_to_tensor(default_value, dtype=self.value_dtype, name="Const")
            self._init_op = initializer.initialize(self)
        add_to_collection(GraphKeys.TABLE_INITIALIZERS, self._init_op)

    name = property(lambda self: self._name)
    initializer = property(lambda self: self._init_op, doc="the op that fills the table")
    init = initializer
    default_value = property(lambda self: self._default)

    def lookup(self, keys, name=None):
        """The value of each key (a Tensor or SparseTensor of key_dtype), default_value where the table has none."""
        sparse = keys if is_sparse(keys) else None
        keys = sparse.values if sparse is not None else convert_to_tensor(keys, dtype=self.key_dtype)
        if keys.dtype != self.key_dtype:
            raise TypeError(f"Signature mismatch. Keys must be dtype {self.key_dtype.name}, got {keys.dtype.name}.")
        with name_scope(name or f"{self._name}_Lookup"):
            found = apply_op("LookupTableFindV2", [self.resource_handle, keys, self._default],
                             value_dtype=self.value_dtype)
        return SparseTensor(sparse.indices, found, sparse.dense_shape) if sparse is not None else found

    def size(self, name=None):
        """The number of entries (int64)."""
        with name_scope(name or f"{self._name}_Size"):
            return apply_op("LookupTableSizeV2", [self.resource_handle])


class StaticVocabularyTable:
    """A vocabulary table (its initializer maps words to ids) whose other words go to one of `num_oov_buckets`
    ids after the vocabulary's, by FarmHash Fingerprint64 of the word as TF buckets them."""

    def __init__(self, initializer, num_oov_buckets, lookup_key_dtype=None, name=None):
        if num_oov_buckets <= 0:
            raise ValueError(f"num_oov_buckets must be > 0, got {num_oov_buckets}: use StaticHashTable for a "
                             "vocabulary without out-of-vocabulary ids")
        if initializer is not None and initializer.value_dtype != dtypes.int64:
            raise TypeError(f"Invalid `value_dtype`, expected {dtypes.int64!r} but got "
                            f"{initializer.value_dtype!r}: a vocabulary maps words to int64 ids")
        self._table = None if initializer is None else StaticHashTable(initializer, -1, name=name)
        self._num_oov_buckets = int(num_oov_buckets)
        self.key_dtype = dtypes.as_dtype(lookup_key_dtype) if lookup_key_dtype is not None else (
            initializer.key_dtype if initializer is not None else dtypes.string)
        self.value_dtype = dtypes.int64

    initializer = property(lambda self: self._table.initializer if self._table else no_op())
    resource_handle = property(lambda self: self._table.resource_handle if self._table else None)

    def size(self, name=None):
        """The number of ids: the vocabulary's plus the buckets."""
        base = self._table.size(name) if self._table else constant(np.int64(0))
        return base + self._num_oov_buckets

    def lookup(self, keys, name=None):
        """Each key's id: its vocabulary id, else vocabulary size + its Fingerprint64 bucket."""
        sparse = keys if is_sparse(keys) else None
        values = sparse.values if sparse is not None else convert_to_tensor(keys)
        text = values if values.dtype == dtypes.string else as_string(values)
        ids = string_to_hash_bucket_fast(text, self._num_oov_buckets, name="hash_bucket")
        if self._table is not None:
            found = self._table.lookup(values)
            ids = where(not_equal(found, -1), found, ids + self._table.size())
        return SparseTensor(sparse.indices, ids, sparse.dense_shape) if sparse is not None else ids


def tables_initializer(name="init_all_tables"):
    """The op that fills every table of the graph (GraphKeys.TABLE_INITIALIZERS)."""
    found = get_collection(GraphKeys.TABLE_INITIALIZERS)
    return group(*found, name=name) if found else no_op(name=name)


def index_table_from_tensor(vocabulary_list, num_oov_buckets=0, default_value=-1, hasher_spec=None,
                            dtype=dtypes.string, name=None):
    """A table from each word of `vocabulary_list` to its position (int64); other words map to default_value."""
    _known_hasher(hasher_spec)
    with name_scope(name or "string_to_index"):
        keys = convert_to_tensor(vocabulary_list, dtype=dtypes.as_dtype(dtype), name="vocabulary_list")
        init = KeyValueTensorInitializer(keys, _positions(keys))
        if num_oov_buckets:
            return StaticVocabularyTable(init, num_oov_buckets, name="hash_table")
        return StaticHashTable(init, default_value, name="hash_table")


def index_table_from_file(vocabulary_file=None, num_oov_buckets=0, vocab_size=None, default_value=-1,
                          hasher_spec=None, key_dtype=dtypes.string, name=None, key_column_index=-2,
                          value_column_index=-1, delimiter="\t"):
    """A table from each line of `vocabulary_file` (or the column key_column_index) to its line number (int64)."""
    _known_hasher(hasher_spec)
    if vocabulary_file is None or isinstance(vocabulary_file, str) and not vocabulary_file:
        raise ValueError("vocabulary_file must be specified and must not be empty.")
    with name_scope(name or "string_to_index"):
        init = TextFileInitializer(vocabulary_file, key_dtype, key_column_index, dtypes.int64, value_column_index,
                                   vocab_size=vocab_size, delimiter=delimiter)
        if num_oov_buckets:
            return StaticVocabularyTable(init, num_oov_buckets, name="hash_table")
        return StaticHashTable(init, default_value, name="hash_table")


def index_to_string_table_from_tensor(vocabulary_list, default_value="UNK", name=None):
    """A table from each position (int64) to the word of `vocabulary_list` there; others map to default_value."""
    with name_scope(name or "index_to_string"):
        values = convert_to_tensor(vocabulary_list, dtype=dtypes.string, name="vocabulary_list")
        return StaticHashTable(KeyValueTensorInitializer(_positions(values), values), default_value,
                               name="hash_table")


def index_to_string_table_from_file(vocabulary_file, vocab_size=None, default_value="UNK", name=None,
                                    key_column_index=-1, value_column_index=-2, delimiter="\t"):
    """A table from each line number (int64) of `vocabulary_file` to that line (or its column value_column_index)."""
    with name_scope(name or "index_to_string"):
        init = TextFileInitializer(vocabulary_file, dtypes.int64, key_column_index, dtypes.string,
                                   value_column_index, vocab_size=vocab_size, delimiter=delimiter)
        return StaticHashTable(init, default_value, name="hash_table")


def _positions(words):
    return range(0, size(words, out_type=dtypes.int64), dtype=dtypes.int64)


def _known_hasher(hasher_spec):
    if hasher_spec is not None and type(hasher_spec).__name__ != "FastHashSpec":
        raise NotImplementedError(f"hasher_spec={hasher_spec!r} is not available in ringflow: out-of-vocabulary "
                                  "words are bucketed by FarmHash Fingerprint64 (TF's FastHashSpec, the default)")
