"""Reading dataset files: IDX (gzipped or not) and .npz, every failure one DatasetError naming the file.

Files are told apart by their first bytes, so a .npy, a CSV, a pickle or an HTML error page given where an
archive was expected is named as what it is. The sizes headers declare are compared with the file and with
this machine's memory before anything that big is allocated, and .npz arrays are read with
allow_pickle=False: an object array is refused from its header, never unpickled.
"""
import contextlib
import gzip
import os
import struct
import zipfile
import zlib

import numpy as np

from .data_checks import DatasetError, DatasetNotFound, check_dtype
from .footprint import count, exceeds_memory, human

_SIGNATURES = (
    (b"\x1f\x8b", "gzip-compressed"),
    (b"PK\x03\x04", "a zip archive"),
    (b"\x93NUMPY", "a single .npy array"),
    (b"\x80", "a Python pickle"),
    (b"<", "an HTML/XML page (a failed download?)"),
)
_SAVE = "np.savez('train.npz', x=features, y=labels)"
_NPZ_ADVICE = {
    "empty": "write it again",
    "a single .npy array": f"npz:FILE needs an archive holding x and y: {_SAVE}",
    "gzip-compressed": "gunzip it first (np.savez_compressed writes a compressed .npz that can be read as is)",
    "a Python pickle": f"ringflow never unpickles (a pickle can run any code): save plain arrays with {_SAVE}",
    "text (a CSV?)": f"load it with np.loadtxt(FILE, delimiter=',') and save the arrays with {_SAVE}",
}
_IDX_DTYPES = {0x08: np.uint8, 0x09: np.int8, 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}


def sniff(head):
    """What a file whose first bytes are `head` looks like, in words."""
    if not head:
        return "empty"
    for magic, what in _SIGNATURES:
        if head.startswith(magic):
            return what
    if all(32 <= b < 127 or b in b"\t\r\n" for b in head):
        return "text (a CSV?)"
    return f"data starting with {head[:8]!r}"


@contextlib.contextmanager
def reading(where, path):
    """Turns what the OS and the decompressors raise into one DatasetError naming `path`."""
    try:
        yield
    except DatasetError:
        raise
    except FileNotFoundError:
        raise DatasetNotFound(f"{where}: file {path!r} does not exist; check the path") from None
    except PermissionError:
        raise DatasetError(f"{where}: permission denied reading {path!r}; make it readable (chmod a+r) or "
                           "copy it where you can read it") from None
    except IsADirectoryError:
        raise DatasetError(f"{where}: {path!r} is a directory, not a file") from None
    except EOFError:
        raise DatasetError(f"{where}: {path!r} ends in the middle of its compressed data: the file is truncated "
                           "(an interrupted download or copy?); fetch it again") from None
    except (gzip.BadGzipFile, zlib.error, zipfile.BadZipFile) as exc:
        raise DatasetError(f"{where}: {path!r} is damaged ({exc}); fetch it again") from None
    except OSError as exc:
        raise DatasetError(f"{where}: cannot read {path!r}: {exc.strerror or exc}") from None


def _check_size(where, path, what, nbytes):
    limit = exceeds_memory(nbytes)
    if limit:
        raise DatasetError(f"{where}: {path!r}: {what} would need {human(nbytes)}, more than this machine's "
                           f"{human(limit)} of memory; the header is damaged or this is not the file you meant")


def read_idx(where, path):
    """The array in an IDX file (the MNIST format), gzipped or not."""
    with reading(where, path), open(path, "rb") as raw:
        if raw.read(2) == b"\x1f\x8b":
            raw.seek(0)
            with gzip.GzipFile(fileobj=raw) as f:
                return _idx(where, path, f, None)
        raw.seek(0)
        return _idx(where, path, raw, os.fstat(raw.fileno()).st_size)


def _idx(where, path, f, size):
    magic = f.read(4)
    if len(magic) < 4 or magic[:2] != b"\0\0" or magic[2] not in _IDX_DTYPES:
        what = sniff(magic + f.read(60))
        if what == "empty":
            raise DatasetError(f"{where}: {path!r} is empty (0 bytes); fetch it again")
        raise DatasetError(f"{where}: {path!r} is not an IDX file but {what}: IDX files start with 00 00, a type "
                           "byte 08..0E and the number of dimensions. Is it the right file? MNIST's are "
                           "train-images-idx3-ubyte and train-labels-idx1-ubyte, gzipped or not")
    ndim, dtype = magic[3], np.dtype(_IDX_DTYPES[magic[2]])
    header = f.read(4 * ndim)
    if len(header) < 4 * ndim:
        raise DatasetError(f"{where}: {path!r} is truncated inside its header ({ndim} dimensions announced); "
                           "fetch it again")
    dims = struct.unpack(f">{ndim}I", header)
    nbytes = count(dims) * dtype.itemsize
    declared = f"its header says {dims!r} {dtype.name} values ({nbytes} bytes)"
    # the loader turns them into float32, so that is the memory they will take
    _check_size(where, path, declared, count(dims) * max(4, dtype.itemsize))
    have = nbytes if size is None else size - 4 - 4 * ndim
    data = f.read(nbytes) if have >= nbytes else b""
    if len(data) < nbytes:
        raise DatasetError(f"{where}: {path!r} is truncated: {declared} but it holds only "
                           f"{have if size is not None else len(data)} bytes after the header; fetch it again")
    if (size is not None and have > nbytes) or (size is None and f.read(1)):
        raise DatasetError(f"{where}: {path!r} holds more data than {declared}: the header is damaged or "
                           "files were joined; fetch it again")
    return np.frombuffer(data, dtype).reshape(dims)


def read_npz(where, path, names=("x", "y")):
    """The arrays `names` of an .npz archive, checked from their headers before they are read."""
    with reading(where, path):
        with open(path, "rb") as f:
            head = f.read(64)
        if not head.startswith(b"PK"):
            what = sniff(head)
            raise DatasetError(f"{where}: {path!r} is {what}, not an .npz archive; "
                               + _NPZ_ADVICE.get(what, f"save the arrays with {_SAVE}"))
        with zipfile.ZipFile(path) as archive:
            members = {n[:-4]: n for n in archive.namelist() if n.endswith(".npy")}
            missing = [n for n in names if n not in members]
            if missing:
                raise DatasetError(f"{where}: {path!r} has no array(s) {missing!r}; it holds {sorted(members)!r}. "
                                   f"Save features as x and labels as y: {_SAVE}")
            nbytes = sum(_npy_bytes(where, path, archive, n, members[n]) for n in names)
        _check_size(where, path, f"arrays {list(names)!r}", nbytes)
        try:
            with np.load(path, allow_pickle=False) as f:
                return tuple(f[n] for n in names)
        except ValueError as exc:
            raise DatasetError(f"{where}: {path!r} is damaged: {exc}; write it again") from None


def _npy_bytes(where, path, archive, name, member):
    """Bytes array `name` declares, after checking its dtype: nothing is read past the header."""
    with archive.open(member) as f:
        try:
            version = np.lib.format.read_magic(f)
            reader = {(1, 0): np.lib.format.read_array_header_1_0,
                      (2, 0): np.lib.format.read_array_header_2_0}.get(version)
            if reader is None:  # a newer header version: np.load checks it
                return 0
            shape, _, dtype = reader(f)
        except ValueError as exc:
            raise DatasetError(f"{where}: array {name!r} in {path!r} is damaged: {exc}; write it again") from None
    check_dtype(where, name, dtype)
    nbytes = count(shape) * dtype.itemsize
    stored = archive.getinfo(member).file_size
    if stored < nbytes:
        raise DatasetError(f"{where}: array {name!r} in {path!r} is truncated: its header says {shape!r} "
                           f"{dtype} ({nbytes} bytes) but the archive holds {stored}; write it again")
    return nbytes
