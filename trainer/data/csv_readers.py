"""tf.data.experimental's CSV readers: CsvDataset (each line of CSV files decoded into typed columns) and
make_csv_dataset (batches of {column name: values} from files matching a pattern, types inferred from the data).

A CSV file is a TextLineDataset whose lines decode_csv parses, the same kernel tf.decode_csv runs; a header line is
skipped in each file.
"""
import csv
import itertools

import numpy as np

from ..framework import dtypes
from ..ops.parsing_ops import decode_csv
from ..platform import gfile
from .dataset import Dataset, stage_of
from .readers import TextLineDataset

INFERRED = (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64, dtypes.string)  # TF's order of trial


class CsvDataset(Dataset):
    """The records of CSV files, one tuple of scalars per line, typed and defaulted by record_defaults (one per
    column read: [value] for its default, [] or an empty tensor for a required column)."""

    def __init__(self, filenames, record_defaults, compression_type=None, buffer_size=None, header=False,
                 field_delim=",", use_quote_delim=True, na_value="", select_cols=None, exclude_cols=None):
        if exclude_cols is not None:
            raise NotImplementedError("CsvDataset(exclude_cols=...) is TF2's: give select_cols, the columns to keep")
        skip = 1 if header else 0

        def lines(filename):
            return TextLineDataset(filename, compression_type).skip(skip)

        def parse(line):
            return tuple(decode_csv(line, record_defaults, field_delim, use_quote_delim, na_value=na_value,
                                    select_cols=select_cols))
        files = Dataset.from_tensor_slices(filenames) if isinstance(filenames, (list, tuple)) else \
            Dataset.from_tensors(filenames).unbatch() if _is_vector(filenames) else Dataset.from_tensors(filenames)
        super().__init__(stage_of(files.flat_map(lines).map(parse), "CsvDataset"))


def _is_vector(value):
    shape = getattr(value, "shape", ())
    return len(shape) == 1


def _header(filename, field_delim):
    with gfile.GFile(filename, "r") as f:
        return next(csv.reader([f.readline()], delimiter=field_delim))


def _infer(files, columns, field_delim, na_value, header, rows):
    """Each column's dtype: the first of INFERRED that every value of the first `rows` rows parses as."""
    kinds = [0] * len(columns)
    with gfile.GFile(files[0], "r") as f:
        lines = itertools.islice(csv.reader(f, delimiter=field_delim), int(header), int(header) + rows)
        for line in lines:
            for i, c in enumerate(columns):
                if c < len(line) and line[c] != na_value:
                    kinds[i] = max(kinds[i], _kind(line[c]))
    return [INFERRED[k] for k in kinds]


def _kind(text):
    try:
        value = int(text)
        return 0 if -2 ** 31 <= value < 2 ** 31 else 1
    except ValueError:
        pass
    try:
        return 2 if abs(float(text)) < 3.4e38 else 3
    except ValueError:
        return 4


def make_csv_dataset(file_pattern, batch_size, column_names=None, column_defaults=None, label_name=None,
                     select_columns=None, field_delim=",", use_quote_delim=True, na_value="", header=True,
                     num_epochs=None, shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                     prefetch_buffer_size=None, num_parallel_reads=None, sloppy=False, num_rows_for_inference=100,
                     compression_type=None, ignore_errors=False):
    """Batches of ({column name: a [batch] tensor}, label) from the CSV files matching file_pattern (only the dict
    without label_name), shuffled and repeated num_epochs times (None: forever, dropping a short last batch)."""
    patterns = [file_pattern] if isinstance(file_pattern, (str, bytes)) else list(file_pattern)
    files = sorted(name for p in patterns for name in gfile.Glob(p.decode() if isinstance(p, bytes) else p))
    if not files:
        raise ValueError(f"No files match `file_pattern` {file_pattern!r}.")
    if column_names is None:
        if not header:
            raise ValueError("Expected `column_names` or `header` to be set: without a header line, name the "
                             "columns with column_names")
        column_names = _header(files[0], field_delim)
    if len(set(column_names)) != len(column_names):
        raise ValueError(f"Expected `column_names` to be unique, got {column_names!r}")
    columns = list(range(len(column_names)))
    if select_columns is not None:
        columns = sorted(column_names.index(c) if isinstance(c, str) else c for c in select_columns)
        column_names = [column_names[c] for c in columns]
    if label_name is not None and label_name not in column_names:
        raise ValueError(f"`label_name` provided must be one of the columns: {column_names}. Received: "
                         f"{label_name}.")
    if column_defaults is None:
        types = _infer(files, columns, field_delim, na_value, header, num_rows_for_inference)
        column_defaults = [[b"" if t == dtypes.string else np.dtype(t).type(0)] for t in types]
    else:
        column_defaults = [d if isinstance(d, list) else [d] for d in column_defaults]
    names = Dataset.from_tensor_slices(files)
    if shuffle:
        names = names.shuffle(len(files), shuffle_seed)
    dataset = names.interleave(lambda f: CsvDataset(f, column_defaults, compression_type, header=header,
                                                    field_delim=field_delim, use_quote_delim=use_quote_delim,
                                                    na_value=na_value, select_cols=columns),
                               cycle_length=num_parallel_reads or 1)
    if ignore_errors:
        dataset = dataset.ignore_errors()
    if num_epochs != 1:
        dataset = dataset.repeat(num_epochs) if not shuffle else \
            dataset.shuffle(shuffle_buffer_size, shuffle_seed).repeat(num_epochs)
    elif shuffle:
        dataset = dataset.shuffle(shuffle_buffer_size, shuffle_seed)
    dataset = dataset.batch(batch_size, drop_remainder=num_epochs is None)

    def to_dict(*values):
        features = dict(zip(column_names, values))
        return features if label_name is None else (features, features.pop(label_name))
    return dataset.map(to_dict).prefetch(prefetch_buffer_size)
