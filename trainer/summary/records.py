"""TFRecord framing of event files: each record is its length, data and masked CRC32C checksums."""
import struct

from ..platform.errors import DataLossError
from .protos import Event


def _crc32c_table():
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            # 0x82F63B78 is the Castagnoli polynomial, bit-reversed: TFRecord's checksum is CRC-32C
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
        table.append(crc)
    return table


_TABLE = _crc32c_table()


def crc32c(data):
    """CRC-32C of `data` (a byte at a time: records are small)."""
    crc = 0xFFFFFFFF
    table = _TABLE
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc32c(data):
    """TFRecord stores CRCs rotated and offset, so a CRC of CRC-bearing data is not itself trivial."""
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def encode_record(data):
    """One TFRecord: uint64 length, masked CRC of the length, data, masked CRC of the data (little-endian)."""
    header = struct.pack("<Q", len(data))
    return header + struct.pack("<I", masked_crc32c(header)) + data + struct.pack("<I", masked_crc32c(data))


def read_records(path):
    """Yield the data of each record in a TFRecord file, checking both checksums."""
    with open(path, "rb") as f:
        raw = f.read()
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
        yield data
        pos = end + 4


def summary_iterator(path):
    """tf.train.summary_iterator: the Event protos of an event file, in order."""
    for data in read_records(path):
        yield Event.FromString(data)
