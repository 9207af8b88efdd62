"""tg.gfile (also tg.io.gfile): TF1's file API, TF1's CamelCase names and tf.io.gfile's snake_case ones.

Local paths only (plain or file://); a remote scheme (gs://, hdfs://, s3://, ...) raises UnimplementedError
naming it. OS failures become TF1's errors: NotFoundError, AlreadyExistsError, PermissionDeniedError, ...
"""
import contextlib
import errno
import glob as _glob
import os
import posixpath
import shutil

from . import errors

_ERRORS = {errno.ENOENT: errors.NotFoundError, errno.EEXIST: errors.AlreadyExistsError,
           errno.EACCES: errors.PermissionDeniedError, errno.EPERM: errors.PermissionDeniedError,
           errno.ENOTDIR: errors.FailedPreconditionError, errno.EISDIR: errors.FailedPreconditionError,
           errno.ENOTEMPTY: errors.FailedPreconditionError, errno.ENOSPC: errors.ResourceExhaustedError}
_MODES = ("r", "w", "a")


def _local(path):
    path = os.fsdecode(path)
    scheme, sep, rest = path.partition("://")
    if sep and scheme == "file":
        return rest
    if sep and scheme.isidentifier():
        raise errors.UnimplementedError(
            None, None, f"File system scheme {scheme + '://'!r} is not implemented in ringflow (path {path!r}): "
            "ringflow reads and writes local paths only; copy the data to a local directory")
    return path


def _error(exc, path):
    kind = _ERRORS.get(exc.errno, errors.UnknownError)
    return kind(None, None, f"{os.fsdecode(path)!r}: {exc.strerror or exc}")


@contextlib.contextmanager
def _os_errors(path):
    try:
        yield
    except OSError as exc:
        raise _error(exc, path) from None


def Exists(filename):  # noqa: N802  (TF1's CamelCase names)
    """True if a file or directory exists at filename."""
    return os.path.exists(_local(filename))


def IsDirectory(dirname):  # noqa: N802
    return os.path.isdir(_local(dirname))


def MakeDirs(dirname):  # noqa: N802
    """Create dirname and its missing parents; an existing directory is fine."""
    with _os_errors(dirname):
        os.makedirs(_local(dirname), exist_ok=True)


def MkDir(dirname):  # noqa: N802
    """Create one directory; AlreadyExistsError if it exists."""
    with _os_errors(dirname):
        os.mkdir(_local(dirname))


def DeleteRecursively(dirname):  # noqa: N802
    """Delete a directory tree (or a single file)."""
    path = _local(dirname)
    with _os_errors(dirname):
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        else:
            os.remove(path)


def Remove(filename):  # noqa: N802
    with _os_errors(filename):
        os.remove(_local(filename))


def _refuse_overwrite(newname, overwrite):
    if not overwrite and os.path.exists(_local(newname)):
        raise errors.AlreadyExistsError(
            None, None, f"{os.fsdecode(newname)!r} already exists: pass overwrite=True to replace it")


def Rename(oldname, newname, overwrite=False):  # noqa: N802
    _refuse_overwrite(newname, overwrite)
    with _os_errors(oldname):
        os.replace(_local(oldname), _local(newname))


def Copy(oldpath, newpath, overwrite=False):  # noqa: N802
    _refuse_overwrite(newpath, overwrite)
    with _os_errors(oldpath):
        shutil.copyfile(_local(oldpath), _local(newpath))


def ListDirectory(dirname):  # noqa: N802
    """The names (not paths) of dirname's entries; NotFoundError if it is not a directory."""
    path = _local(dirname)
    if not os.path.isdir(path):
        raise errors.NotFoundError(None, None, f"Could not find directory {os.fsdecode(dirname)!r}")
    with _os_errors(dirname):
        return os.listdir(path)


def Glob(filename):  # noqa: N802
    """Sorted paths matching a pattern (or any of a list of patterns); hidden files match too, as in TF1."""
    patterns = [filename] if isinstance(filename, (str, bytes, os.PathLike)) else list(filename)
    return sorted({match for pattern in patterns for match in _glob.glob(_local(pattern), include_hidden=True)})


def Walk(top, in_order=True):  # noqa: N802
    """Yield (dirname, subdirectory names, file names) for top and below; nothing if top does not exist."""
    return walk(top, topdown=in_order)


class FileStatistics:
    """What Stat returns: length in bytes, mtime_nsec, is_directory."""

    def __init__(self, length=None, mtime_nsec=None, is_directory=None):
        self.length, self.mtime_nsec, self.is_directory = length, mtime_nsec, is_directory

    def __repr__(self):
        return (f"FileStatistics(length={self.length}, mtime_nsec={self.mtime_nsec}, "
                f"is_directory={self.is_directory})")


def Stat(filename):  # noqa: N802
    with _os_errors(filename):
        st = os.stat(_local(filename))
    return FileStatistics(st.st_size, st.st_mtime_ns, os.path.isdir(_local(filename)))


def join(path, *paths):
    """tf.io.gfile.join: a path with a scheme ("gs://b") joins with "/" as a URL, any other as os.path.join."""
    return (posixpath.join if "://" in os.fsdecode(path)[1:] else os.path.join)(path, *paths)


def get_registered_schemes():
    """The schemes this file API reads: "" (plain local paths) and "file"."""
    return ["", "file"]


def walk(top, topdown=True, onerror=None):
    """tf.io.gfile.walk: os.walk on a local path; onerror receives TF1 errors."""
    def report(exc):
        if onerror is not None:
            onerror(_error(exc, getattr(exc, "filename", None) or top))
    yield from os.walk(_local(top), topdown=topdown, onerror=report)


class GFile:
    """A file object as TF1's: mode "r"/"w"/"a" (+"b" for bytes, "+" for both ways); opened on first use."""

    def __init__(self, name, mode="r"):
        if not mode or mode[0] not in _MODES or set(mode[1:]) - set("b+") or len(set(mode)) != len(mode):
            raise errors.InvalidArgumentError(
                None, None, f"mode {mode!r} for {os.fsdecode(name)!r} is not a file mode: use r, w or a, "
                "with b for bytes and + to read and write")
        self.name, self.mode, self._path = name, mode, _local(name)
        self._binary, self._file = "b" in mode, None

    def _handle(self, reading):
        if not ("+" in self.mode or (self.mode[0] == "r") == reading):
            need = "reading" if reading else "writing"
            raise errors.PermissionDeniedError(
                None, None, f"{self.name!r} is open with mode {self.mode!r}, which does not allow {need}")
        if self._file is None:
            with _os_errors(self.name):
                self._file = open(self._path, self.mode.replace("b", "") + "b")
        return self._file

    def _out(self, data):
        return data if self._binary else data.decode("utf-8")

    def read(self, n=-1):
        """Up to n bytes (all when n < 0): str in text mode, bytes in binary mode."""
        return self._out(self._handle(True).read(n if n is not None and n >= 0 else -1))

    def readline(self):
        return self._out(self._handle(True).readline())

    def readlines(self):
        return [self._out(line) for line in self._handle(True).readlines()]

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    next = __next__

    def write(self, file_content):
        """Append str (as UTF-8) or bytes, in either mode, as TF1 does."""
        data = file_content.encode("utf-8") if isinstance(file_content, str) else bytes(file_content)
        self._handle(False).write(data)

    def seek(self, offset=None, whence=0, position=None):
        """Move to offset (position is TF1's older name for it) relative to whence (0 start, 1 here, 2 end)."""
        offset = position if offset is None else offset
        handle = self._file or self._handle(self.mode[0] == "r")
        return handle.seek(offset, whence)

    def tell(self):
        return self._file.tell() if self._file is not None else 0

    def size(self):
        """The file's length in bytes (pending writes flushed first)."""
        self.flush()
        return Stat(self.name).length

    def seekable(self):
        return True

    def flush(self):
        if self._file is not None:
            self._file.flush()

    def close(self):
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()


Open = FastGFile = GFile
copy, exists, glob, isdir, listdir = Copy, Exists, Glob, IsDirectory, ListDirectory
makedirs, mkdir, remove, rename, rmtree, stat = MakeDirs, MkDir, Remove, Rename, DeleteRecursively, Stat
