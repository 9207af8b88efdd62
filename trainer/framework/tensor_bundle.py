"""TensorFlow's checkpoint format (V2, "tensor bundle"): `<prefix>.index` and `<prefix>.data-00000-of-00001`,
or with N shards (a sharded Saver: one per device) `<prefix>.data-0000i-of-0000N` and one index for them all.

The index is a table (sstable.py) from tensor name to BundleEntryProto (dtype, shape, shard, offset and size in the
data file, the masked crc32c of those bytes); its first key, "", holds the BundleHeaderProto. A data file is its
tensors' bytes back to back in name order, little-endian; a string tensor is its elements' lengths (varint64), the
crc32c of those length bytes, then the elements. The messages carry tensor_bundle.proto's field numbers.
Every file is written atomically, the data files first: an index names complete data files.
"""
import os
import struct

import numpy as np

from .dtypes import as_dtype
from .node_def import VersionDef
from .tensor_shape import TensorShapeProto
from ..platform.atomic_file import atomic_write
from ..platform.protobuf import Field, Message
from ..platform.protobuf_wire import decode_varint, encode_varint
from ..platform.crc32c import crc32c, mask
from ..platform.sstable import TableError, build_table, read_table

INDEX = ".index"
DATA = ".data-00000-of-00001"  # one shard, what an unsharded Saver writes
STRING = as_dtype("string").as_datatype_enum
VERSION = 1  # kTensorBundleVersion


class BundleHeaderProto(Message):
    """The header entry: how many data shards, their byte order (0: little-endian), the format's version."""
    FIELDS = {"num_shards": Field(1, "int32"), "endianness": Field(2, "enum"),
              "version": Field(3, "message", VersionDef)}


class BundleEntryProto(Message):
    """Where one tensor lies: dtype, shape, shard, offset, size, masked crc32c; slices for a partitioned one."""
    FIELDS = {"dtype": Field(1, "enum"), "shape": Field(2, "message", TensorShapeProto),
              "shard_id": Field(3, "int32"), "offset": Field(4, "int64"), "size": Field(5, "int64"),
              "crc32c": Field(6, "fixed32"), "slices": Field(7, "bytes", repeated=True)}


class BundleError(ValueError):
    """A checkpoint whose files cannot be read: the file and what is wrong with it."""


def _tensor_bytes(array):
    """(the bytes TF stores for array, their checksum as the entry holds it)."""
    if array.dtype == object or array.dtype.kind in "SU":
        items = [x.encode("utf-8") if isinstance(x, str) else bytes(x) for x in array.ravel().tolist()]
        lengths = b"".join(encode_varint(len(x)) for x in items)
        lengths_sum, checksum = _string_checksum(items)
        return lengths + lengths_sum + b"".join(items), checksum
    raw = np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<"), copy=False).tobytes()
    return raw, mask(crc32c(raw))


def _string_checksum(items):
    """(the 4 bytes after a string tensor's lengths, the entry's checksum): TF checksums each length as a uint32
    (a uint64 past 4 GiB), not as the varint it writes, then those 4 bytes and the elements."""
    sums = b"".join(struct.pack("<I" if len(x) <= 0xFFFFFFFF else "<Q", len(x)) for x in items)
    lengths_sum = struct.pack("<I", mask(crc32c(sums)))
    crc = crc32c(lengths_sum, crc32c(sums))
    for item in items:
        crc = crc32c(item, crc)
    return lengths_sum, mask(crc)


def data_file(prefix, shard=0, num_shards=1):
    """The path of a checkpoint's data shard: "<prefix>.data-00001-of-00002"."""
    return f"{prefix}.data-{shard:05d}-of-{num_shards:05d}"


def write_bundle(prefix, arrays, shards=None):
    """Write arrays ({name: array}) as the checkpoint `prefix` in TF's format; returns the index's path.
    `shards` (lists of names, one per data file, as a sharded Saver groups them by device) defaults to one."""
    shards = [list(arrays)] if shards is None else [list(names) for names in shards]
    if sorted(n for names in shards for n in names) != sorted(arrays):
        raise ValueError(f"write_bundle(shards=...) must name each of {sorted(arrays)} once, got {shards}")
    entries = {}
    for shard, names in enumerate(shards):
        offset = 0
        with atomic_write(data_file(prefix, shard, len(shards)), "wb") as f:
            for name in sorted(names):
                array = np.asarray(arrays[name])
                dtype = as_dtype("string" if array.dtype.kind in "SUO" else array.dtype)
                raw, checksum = _tensor_bytes(array)
                f.write(raw)
                entry = BundleEntryProto(dtype=dtype.as_datatype_enum, shape=_shape(array.shape), shard_id=shard,
                                         offset=offset, size=len(raw), crc32c=checksum)
                entries[name.encode("utf-8")] = entry.SerializeToString()
                offset += len(raw)
    return _write_index(prefix, entries, len(shards))


def _write_index(prefix, entries, num_shards):
    header = BundleHeaderProto(num_shards=num_shards, endianness=0, version=VersionDef(producer=VERSION))
    entries[b""] = header.SerializeToString()
    with atomic_write(prefix + INDEX, "wb") as f:
        f.write(build_table(entries))
    return prefix + INDEX


def merge_bundles(prefixes, destination, delete_old_dirs=True):
    """TF's MergeV2Checkpoints: the checkpoints `prefixes`, one data file each, become the shards of `destination`
    in their order (their data files renamed, one index for all); with delete_old_dirs, their emptied directories
    go too, as a sharded Saver's temporary "<prefix>_temp_<uuid>/part-*" ones do in TF."""
    entries = {}
    for shard, prefix in enumerate(prefixes):
        header, part = read_index(prefix)
        if max(header.num_shards, 1) != 1:
            raise BundleError(f"MergeV2Checkpoints: checkpoint {prefix!r} has {header.num_shards} data files; each "
                              "part to merge has one (SaveV2 writes one)")
        for name, entry in part.items():
            if name.encode("utf-8") in entries:
                raise BundleError(f"MergeV2Checkpoints: tensor {name!r} is in two of the parts {prefixes!r}")
            entry.shard_id = shard
            entries[name.encode("utf-8")] = entry.SerializeToString()
    for shard, prefix in enumerate(prefixes):
        os.replace(data_file(prefix), data_file(destination, shard, len(prefixes)))
    index = _write_index(destination, entries, len(prefixes))
    for prefix in prefixes:
        os.remove(prefix + INDEX)
    for directory in dict.fromkeys(os.path.dirname(p) for p in prefixes) if delete_old_dirs else ():
        try:
            os.rmdir(directory)
        except OSError:  # not empty (it holds more than the parts) or already gone: TF leaves it too
            pass
    return index


def _shape(dims):
    return TensorShapeProto(dim=[TensorShapeProto.Dim(size=int(d)) for d in dims])


def read_index(prefix):
    """(header, {name: BundleEntryProto}) of the checkpoint `prefix`; BundleError names a damaged index."""
    path = prefix + INDEX
    with open(path, "rb") as f:
        raw = f.read()
    try:
        items = read_table(raw, where=f"checkpoint index {path!r}")
        header = BundleHeaderProto.FromString(items.pop(b"", b""))
        entries = {key.decode("utf-8"): BundleEntryProto.FromString(value) for key, value in items.items()}
    except TableError as exc:
        raise BundleError(str(exc)) from None
    except (ValueError, TypeError, UnicodeDecodeError) as exc:
        raise BundleError(f"checkpoint index {path!r}: an entry does not parse ({exc}): the file is damaged") \
            from None
    bad = [(name, e.shard_id) for name, e in entries.items() if not 0 <= e.shard_id < max(header.num_shards, 1)]
    if bad:
        raise BundleError(f"checkpoint index {path!r} has {header.num_shards} data shard(s), but tensor "
                          f"{bad[0][0]!r} lies in shard {bad[0][1]}: the file is damaged")
    if header.endianness != 0:
        raise BundleError(f"checkpoint {prefix!r} was written big-endian; ringflow reads little-endian bundles")
    return header, entries


def data_files(prefix):
    """The data files of the checkpoint `prefix`, as its index counts them (BundleError if it is damaged)."""
    header, _ = read_index(prefix)
    count = max(header.num_shards, 1)
    return [data_file(prefix, shard, count) for shard in range(count)]


def read_bundle(prefix, names=None):
    """{name: array} of the checkpoint `prefix` (only `names` when given); each tensor's crc32c is checked."""
    header, entries = read_index(prefix)
    arrays, by_shard = {}, {}
    for name, entry in sorted(entries.items()):
        if names is None or name in names:
            by_shard.setdefault(entry.shard_id, []).append((name, entry))
    for shard, items in sorted(by_shard.items()):
        path = data_file(prefix, shard, max(header.num_shards, 1))
        with open(path, "rb") as f:
            arrays.update(_read_shard(f, path, prefix, items))
    return arrays


def _read_shard(f, path, prefix, items):
    """{name: array} of the [(name, entry)] that lie in the open data file f, each checked."""
    size = os.fstat(f.fileno()).st_size
    arrays = {}
    for name, entry in items:
        if entry.slices:
            raise BundleError(f"checkpoint {prefix!r}: tensor {name!r} is saved in slices (a partitioned "
                              "variable); ringflow restores whole tensors only")
        if entry.offset + entry.size > size:
            raise BundleError(f"checkpoint data {path!r} holds {size} bytes, but tensor {name!r} lies at "
                              f"bytes {entry.offset}..{entry.offset + entry.size}: the file is truncated")
        f.seek(entry.offset)
        where = f"checkpoint data {path!r}: tensor {name!r}"
        array, checksum = _array(entry, f.read(entry.size), where)
        if checksum != entry.crc32c:
            raise BundleError(f"{where} fails its crc32c check: the file is damaged (restore an older "
                              "checkpoint)")
        arrays[name] = array
    return arrays


def _array(entry, raw, where):
    """(the array an entry's bytes hold, their checksum as the entry should hold it)."""
    shape = [d.size for d in entry.shape.dim]
    if entry.dtype == STRING:
        pos, lengths, items = 0, [], []
        try:
            for _ in range(int(np.prod(shape))):
                length, pos = decode_varint(raw, pos)
                lengths.append(length)
        except ValueError:
            raise BundleError(f"{where}: its element lengths are cut short: the file is damaged") from None
        pos += 4  # the lengths' own checksum, which the entry's checksum covers
        for length in lengths:
            items.append(raw[pos:pos + length])
            pos += length
        return np.array(items, dtype=object).reshape(shape), _string_checksum(items)[1]
    try:
        dtype = as_dtype(entry.dtype).as_numpy_dtype
    except (TypeError, KeyError):
        raise BundleError(f"{where} has DataType {entry.dtype}, which ringflow has no numpy dtype for") from None
    array = np.frombuffer(raw, dtype=np.dtype(dtype).newbyteorder("<")).astype(dtype)
    return array.reshape(shape), mask(crc32c(raw))


def bundle_problem(prefix):
    """Why the checkpoint `prefix` cannot be restored (missing file, truncated, a failed checksum), or None."""
    if not os.path.isfile(prefix + INDEX):
        return f"its file {prefix + INDEX!r} does not exist"
    try:
        for path in data_files(prefix):
            if not os.path.isfile(path):
                return f"its file {path!r} does not exist"
        read_bundle(prefix)
    except (OSError, BundleError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return None
