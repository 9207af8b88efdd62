"""Files that appear whole or not at all: write a temporary file, fsync it, rename it into place.

The temporary name ends in `.tmp-<pid>` so that a later run can tell a dead writer's leftover from a live
one's (trainer/program/outputs/output_paths.py removes the dead ones); a failed write removes its own.
"""
import contextlib
import os


@contextlib.contextmanager
def atomic_write(path, mode="w", encoding=None):
    """Open a temporary file beside `path`; on a clean exit it replaces `path`, on an error it is removed."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    tmp = f"{path}.tmp-{os.getpid()}"
    try:
        with open(tmp, mode, encoding=encoding) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
    _fsync_dir(directory)


def _fsync_dir(directory):
    """Make the rename itself durable (not every file system lets a directory be fsynced)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
