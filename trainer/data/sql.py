"""tf.data.experimental.SqlDataset: the rows a SQL query returns from a SQLite database, through Python's sqlite3
(TF's only driver is "sqlite" too)."""
import numpy as np

from ..framework import dtypes
from ..platform.errors import InvalidArgumentError, UnknownError
from ..ops.core_ops import as_string_array
from .dataset import Dataset
from .stage import Stage
from .structure import Spec, flatten_types, normalize

try:
    import sqlite3
except ImportError:  # a Python built without SQLite: SqlDataset says so when it runs
    sqlite3 = None


class SqlStage(Stage):
    """One element per row of the query's result, each column converted to its output type."""

    def __init__(self, driver_name, data_source_name, query, output_types):
        types, structure = flatten_types(output_types)
        self.tensors = normalize((driver_name, data_source_name, query), "SqlDataset")[0]
        self.spec = Spec(structure, [()] * len(types), types)

    def iterate(self, context):
        driver, source, query = (context.to_host(context.value(t))[()].decode() for t in self.tensors)
        if driver != "sqlite":
            raise InvalidArgumentError(f"The database type, {driver}, is not supported by SqlDataset. The set of "
                                       "supported databases is: {'sqlite'}.")
        if sqlite3 is None:
            raise UnknownError(None, None, "SqlDataset needs Python's sqlite3 module, which this Python lacks")
        try:
            with sqlite3.connect(f"file:{source}?mode=ro", uri=True) as db:
                rows = db.execute(query).fetchall()
        except sqlite3.Error as error:
            raise UnknownError(None, None, f"Failed to execute query {query!r} on {source!r}: {error}") from None
        for row in rows:
            if len(row) != len(self.spec.types):
                raise InvalidArgumentError(f"The number of columns in query ({len(row)}) must be the same as the "
                                           f"number of columns in output_types ({len(self.spec.types)}).")
            yield [as_string_array(str(v).encode() if not isinstance(v, bytes) else v) if t == dtypes.string
                   else context.to_device(np.array(v, dtype=np.dtype(t))) for v, t in zip(row, self.spec.types)]


class SqlDataset(Dataset):
    """The rows `query` returns from the SQLite database at data_source_name, typed by output_types (a tuple)."""

    def __init__(self, driver_name, data_source_name, query, output_types):
        super().__init__(SqlStage(driver_name, data_source_name, query, output_types))
