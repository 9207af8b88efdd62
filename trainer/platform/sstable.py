"""The sorted-string table TensorFlow's checkpoint index is (LevelDB's table format, tensorflow/core/lib/io/table):
data blocks of sorted keys, an empty meta-index block, an index block and a 48-byte footer.

    block   := entry* restart_offset:u32* num_restarts:u32     entry := shared:varint unshared:varint
    trailer := type:u8 masked_crc32c:u32 (after every block)            value_len:varint key[shared:] value
    footer  := metaindex_handle index_handle (varints, zero-padded to 40 bytes) magic:u64

TF writes the index uncompressed (BundleWriter sets kNoCompression), so a block of type 1 (Snappy) is refused.
"""
import struct

from .protobuf_wire import decode_varint, encode_varint
from .crc32c import crc32c, mask

MAGIC = 0xdb4775248b80fb57  # LevelDB's table magic number, TF's too
FOOTER_BYTES = 48  # two block handles of at most 20 bytes each, padded, then the magic
BLOCK_BYTES = 256 * 1024  # TF's table_options.h block_size for the checkpoint index
RESTART_INTERVAL = 16  # LevelDB's default: a full key every 16 entries
NO_COMPRESSION, SNAPPY = 0, 1


class TableError(ValueError):
    """A table file that cannot be read: its name and what is wrong with it."""


def _block(entries):
    out, restarts, last = bytearray(), [], b""
    for i, (key, value) in enumerate(entries):
        shared = 0
        if i % RESTART_INTERVAL:
            while shared < min(len(key), len(last)) and key[shared] == last[shared]:
                shared += 1
        else:
            restarts.append(len(out))
        out += encode_varint(shared) + encode_varint(len(key) - shared) + encode_varint(len(value))
        out += key[shared:] + value
        last = key
    restarts = restarts or [0]
    out += b"".join(struct.pack("<I", r) for r in restarts) + struct.pack("<I", len(restarts))
    return bytes(out)


def _separator(start, limit):
    """LevelDB's FindShortestSeparator: a short key >= start and < limit, for the index entry between blocks."""
    common = 0
    while common < min(len(start), len(limit)) and start[common] == limit[common]:
        common += 1
    if common < min(len(start), len(limit)) and start[common] < 0xFF and start[common] + 1 < limit[common]:
        return start[:common] + bytes([start[common] + 1])
    return start


def _successor(key):
    """LevelDB's FindShortSuccessor: a short key >= key, for the index entry of the last block."""
    for i, byte in enumerate(key):
        if byte != 0xFF:
            return key[:i] + bytes([byte + 1])
    return key


def _handle(offset, size):
    return encode_varint(offset) + encode_varint(size)


def build_table(items):
    """The bytes of a table holding items ({bytes key: bytes value}), keys in byte order."""
    out, index = bytearray(), []

    def flush(entries):
        block = _block(entries)
        handle = _handle(len(out), len(block))
        trailer = bytes([NO_COMPRESSION])
        out.extend(block + trailer + struct.pack("<I", mask(crc32c(trailer, crc32c(block)))))
        return handle

    pending, size = [], 0
    for key in sorted(items):
        if size >= BLOCK_BYTES:
            index.append((_separator(pending[-1][0], key), flush(pending)))
            pending, size = [], 0
        pending.append((key, items[key]))
        size += len(key) + len(items[key])
    if pending or not index:
        index.append((_successor(pending[-1][0]) if pending else b"", flush(pending)))
    metaindex = flush([])
    index_handle = flush(index)
    footer = (metaindex + index_handle).ljust(FOOTER_BYTES - 8, b"\0") + struct.pack("<II", MAGIC & 0xFFFFFFFF,
                                                                                    MAGIC >> 32)
    return bytes(out + footer)


def _read_block(data, handle, where):
    offset, pos = decode_varint(handle, 0)
    size, _ = decode_varint(handle, pos)
    end = offset + size + 5
    if end > len(data):
        raise TableError(f"{where}: a block at bytes {offset}..{end} runs past the file's end ({len(data)} bytes): "
                         "the file is truncated")
    block, kind = data[offset:offset + size], data[offset + size]
    (stored,) = struct.unpack_from("<I", data, offset + size + 1)
    if mask(crc32c(bytes([kind]), crc32c(block))) != stored:
        raise TableError(f"{where}: the block at byte {offset} fails its crc32c check: the file is damaged")
    if kind != NO_COMPRESSION:
        raise TableError(f"{where}: the block at byte {offset} is compressed (type {kind}; TF writes checkpoint "
                         "indexes uncompressed): ringflow reads uncompressed tables only")
    return block


def _entries(block):
    (count,) = struct.unpack_from("<I", block, len(block) - 4)
    end, pos, key = len(block) - 4 - 4 * count, 0, b""
    while pos < end:
        shared, pos = decode_varint(block, pos)
        unshared, pos = decode_varint(block, pos)
        length, pos = decode_varint(block, pos)
        key = key[:shared] + block[pos:pos + unshared]
        pos += unshared
        yield key, block[pos:pos + length]
        pos += length


def read_table(data, where="table"):
    """{bytes key: bytes value} of a table's bytes; TableError names `where` and what is wrong."""
    data = bytes(data)
    if len(data) < FOOTER_BYTES:
        raise TableError(f"{where}: {len(data)} bytes is shorter than a table's footer: the file is truncated")
    low, high = struct.unpack_from("<II", data, len(data) - 8)
    if (high << 32 | low) != MAGIC:
        raise TableError(f"{where}: no table magic number at its end: not a TF checkpoint index, or truncated")
    footer = data[len(data) - FOOTER_BYTES:]
    try:
        _, pos = decode_varint(footer, decode_varint(footer, 0)[1])
        items = {}
        for _, handle in _entries(_read_block(data, footer[pos:], where)):
            items.update(_entries(_read_block(data, handle, where)))
    except (IndexError, struct.error) as exc:
        raise TableError(f"{where}: a block's entries are malformed ({exc}): the file is damaged") from None
    return items
