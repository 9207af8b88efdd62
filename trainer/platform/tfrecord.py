"""TFRecord files: each record is its length (uint64), the length's masked CRC-32C, the data and the data's masked
CRC-32C, little-endian; a whole file may be GZIP or ZLIB compressed (TFRecordOptions). Event files, tf.python_io and
TFRecordReader all read and write records here.
"""
import gzip
import struct
import zlib

from .crc32c import crc32c, mask
from .errors import DataLossError, InvalidArgumentError, NotFoundError

COMPRESSIONS = ("", "ZLIB", "GZIP")  # TF1's TFRecordCompressionType NONE, ZLIB, GZIP, by their option strings


def masked_crc32c(data):
    return mask(crc32c(data))


def encode_record(data):
    """One TFRecord: uint64 length, masked CRC of the length, data, masked CRC of the data (little-endian)."""
    header = struct.pack("<Q", len(data))
    return header + struct.pack("<I", masked_crc32c(header)) + data + struct.pack("<I", masked_crc32c(data))


def compression_of(options):
    """"", "ZLIB" or "GZIP" from a TFRecordOptions, a compression type string or None."""
    kind = getattr(options, "compression_type", options) or ""
    kind = {0: "", 1: "ZLIB", 2: "GZIP"}.get(kind, kind)
    if kind not in COMPRESSIONS:
        raise InvalidArgumentError(f"Unknown TFRecord compression type {kind!r}: use one of {COMPRESSIONS}")
    return kind


def compress(raw, compression):
    if compression == "GZIP":
        return gzip.compress(raw)
    return zlib.compress(raw) if compression == "ZLIB" else raw


def read_records(path, compression=""):
    """Yield (offset, data) of each record of a TFRecord file, checking both checksums; offset is where the record
    starts in the uncompressed stream (TFRecordReader's keys)."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:  # TF1 says NotFoundError for a file it cannot open, naming it
        raise NotFoundError(f"{path}; {e.strerror}") from None
    if compression == "GZIP":
        raw = gzip.decompress(raw)
    elif compression == "ZLIB":
        raw = zlib.decompress(raw)
    pos = 0
    while pos < len(raw):
        if pos + 12 > len(raw):
            raise DataLossError(f"Truncated record header at byte {pos} of {path!r} ({len(raw)} bytes)")
        header = raw[pos:pos + 8]
        (length,), (header_crc,) = struct.unpack("<Q", header), struct.unpack("<I", raw[pos + 8:pos + 12])
        if header_crc != masked_crc32c(header):
            raise DataLossError(f"Corrupted record length at byte {pos} of {path!r}: its checksum does not match")
        end = pos + 12 + length
        if end + 4 > len(raw):
            raise DataLossError(f"Truncated record at byte {pos} of {path!r}: needs {length} data bytes")
        data = raw[pos + 12:end]
        if struct.unpack("<I", raw[end:end + 4])[0] != masked_crc32c(data):
            raise DataLossError(f"Corrupted record data at byte {pos} of {path!r}: its checksum does not match")
        yield pos, data
        pos = end + 4


class TFRecordCompressionType:
    """tf.python_io.TFRecordCompressionType: how a whole TFRecord file is compressed."""
    NONE, ZLIB, GZIP = 0, 1, 2


class TFRecordOptions:
    """tf.python_io.TFRecordOptions: the compression of a TFRecord file (a TFRecordCompressionType or its name)."""
    compression_type_map = {TFRecordCompressionType.NONE: "", TFRecordCompressionType.ZLIB: "ZLIB",
                            TFRecordCompressionType.GZIP: "GZIP"}

    def __init__(self, compression_type=None, **zlib_options):
        self.compression_type = compression_of(compression_type)

    @classmethod
    def get_compression_type_string(cls, options):
        return compression_of(options)


class TFRecordWriter:
    """tf.python_io.TFRecordWriter: writes records (bytes) to a TFRecord file; a context manager."""

    def __init__(self, path, options=None):
        self._path, self._compression = path, compression_of(options)
        self._file = open(path, "wb")
        self._pending = []  # a compressed file is written as one stream, at close

    def write(self, record):
        if self._file is None:
            raise ValueError(f"TFRecordWriter for {self._path!r} is closed")
        framed = encode_record(record.encode() if isinstance(record, str) else bytes(record))
        if self._compression:
            self._pending.append(framed)
        else:
            self._file.write(framed)

    def flush(self):
        if self._file is not None and not self._compression:
            self._file.flush()

    def close(self):
        if self._file is not None:
            if self._compression:
                self._file.write(compress(b"".join(self._pending), self._compression))
            self._file.close()
            self._file = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def tf_record_iterator(path, options=None):
    """tf.python_io.tf_record_iterator: the records (bytes) of a TFRecord file, in order."""
    for _, data in read_records(path, compression_of(options)):
        yield data
