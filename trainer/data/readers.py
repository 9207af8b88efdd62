"""tf.data's file readers: TextLineDataset (a file's lines), TFRecordDataset (its records) and
FixedLengthRecordDataset (fixed-size records between a header and a footer), each a tf.string scalar per element.
Files are read in order; with num_parallel_reads, round robin over that many files at a time, the deterministic
order of TF's parallel interleave."""
import gzip
import zlib

import numpy as np

from ..framework import dtypes
from ..platform import gfile
from ..platform.errors import DataLossError, InvalidArgumentError, NotFoundError
from ..platform.tfrecord import read_records
from .dataset import Dataset
from .stage import Stage, scalar
from .structure import Spec, to_tensor

COMPRESSIONS = {None: None, "": None, "GZIP": gzip.decompress, "ZLIB": zlib.decompress}


class FileStage(Stage):
    """The items `reader(filename)` yields for each file of the string tensor `filenames`, as tf.string scalars."""

    def __init__(self, filenames, reader, num_parallel_reads=None):
        names = to_tensor(filenames, dtype=dtypes.string, name="filenames")
        if names.shape.ndims not in (None, 0, 1):
            raise TypeError(f"`filenames` must be a scalar or vector of strings, got shape {names.shape}")
        self.tensors = [names] + ([] if num_parallel_reads is None else
                                  [scalar(num_parallel_reads, dtypes.int64, "num_parallel_reads")])
        self.reader = reader
        self.spec = Spec(None, [()], [dtypes.string])

    def iterate(self, context):
        names = [n.decode("utf-8") for n in np.asarray(context.to_host(context.value(self.tensors[0]))).reshape(-1)]
        cycle = context.scalar(self.tensors[1]) if len(self.tensors) > 1 else 1
        if cycle < 1:
            raise InvalidArgumentError(f"num_parallel_reads must be positive, got {cycle}")
        pending, active = iter(names), []
        while True:
            while len(active) < cycle and (name := next(pending, None)) is not None:
                active.append(iter(self.reader(name)))
            if not active:
                return
            for items in list(active):
                item = next(items, None)
                if item is None:
                    active.remove(items)
                    continue
                element = np.empty((), dtype=object)
                element[()] = item
                yield [element]


def _read(name, compression_type=None):
    if not gfile.Exists(name):
        raise NotFoundError(f"{name}; No such file or directory")
    with gfile.GFile(name, "rb") as f:
        raw = f.read()
    decompress = COMPRESSIONS[compression_type]
    try:
        return decompress(raw) if decompress else raw
    except (OSError, EOFError, zlib.error) as error:
        raise DataLossError(f"{name} is not a {compression_type} file ({error})") from None


def _compression(compression_type):
    if compression_type not in COMPRESSIONS:
        raise ValueError(f"Unsupported compression_type {compression_type!r}: give '', 'GZIP' or 'ZLIB'")
    return compression_type


def _lines(compression_type):
    def read(name):
        lines = _read(name, compression_type).split(b"\n")
        if lines[-1] == b"":  # the end of the last line, not an empty line after it
            lines.pop()
        return [line[:-1] if line.endswith(b"\r") else line for line in lines]
    return read


def _fixed_records(record_bytes, header_bytes, footer_bytes, compression_type):
    def read(name):
        raw = _read(name, compression_type)
        body = raw[header_bytes:len(raw) - footer_bytes]
        if len(raw) < header_bytes + footer_bytes or len(body) % record_bytes:
            raise InvalidArgumentError(f"Excluding the header ({header_bytes} bytes) and footer ({footer_bytes} "
                                       f"bytes), input file \"{name}\" has body length {len(body)} bytes, which is "
                                       f"not an exact multiple of the record length ({record_bytes} bytes).")
        return [body[i:i + record_bytes] for i in range(0, len(body), record_bytes)]
    return read


class TextLineDataset(Dataset):
    """The lines of text files (without their line ends), one tf.string element each."""

    def __init__(self, filenames, compression_type=None, buffer_size=None, num_parallel_reads=None, name=None):
        super().__init__(FileStage(filenames, _lines(_compression(compression_type)), num_parallel_reads))


class TFRecordDataset(Dataset):
    """The records of TFRecord files (each checked against its CRC32C; GZIP or ZLIB compressed as the files are),
    one tf.string element each."""

    def __init__(self, filenames, compression_type=None, buffer_size=None, num_parallel_reads=None, name=None):
        compression = _compression(compression_type) or ""
        super().__init__(FileStage(filenames, lambda name: (data for _, data in read_records(name, compression)),
                                   num_parallel_reads))


class FixedLengthRecordDataset(Dataset):
    """Records of `record_bytes` bytes from files that hold header_bytes before them and footer_bytes after."""

    def __init__(self, filenames, record_bytes, header_bytes=None, footer_bytes=None, buffer_size=None,
                 compression_type=None, num_parallel_reads=None, name=None):
        sizes = [int(v or 0) for v in (record_bytes, header_bytes, footer_bytes)]
        if sizes[0] <= 0 or min(sizes) < 0:
            raise ValueError(f"record_bytes must be positive and header_bytes, footer_bytes not negative, got "
                             f"{sizes}")
        super().__init__(FileStage(filenames, _fixed_records(*sizes, _compression(compression_type)),
                                   num_parallel_reads))
