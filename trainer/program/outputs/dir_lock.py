"""One job per checkpoint directory.

Two jobs writing one --checkpoint-dir delete each other's old checkpoints and rewrite each other's state file
(one then dies with FileNotFoundError). The chief holds `DIR/.ringflow.lock` for the whole run: an flock(2)
on it, which the kernel drops when the holder dies however it dies, so a lock left by a killed job is simply
taken over; the file's text names the holder (host, pid, start time) for the message a second job prints.
"""
import fcntl
import json
import os
import socket
import time

from ..config_checks import ConfigError

LOCK_NAME = ".ringflow.lock"


class DirectoryLock:
    """An exclusive lock on `directory`, named by `flag` in errors; `acquire()` it, `release()` it."""

    def __init__(self, directory, flag="--checkpoint-dir"):
        self.directory, self.flag = directory, flag
        self.path = os.path.join(directory, LOCK_NAME)
        self._fd = None

    def acquire(self):
        """Take the lock or raise ConfigError naming its holder; returns the holder a dead job left in the
        file (a dict) when its lock was taken over, else None."""
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _read(fd)
                os.close(fd)
                raise ConfigError(f"{self.flag} {self.directory!r} is in use by another job ({describe(holder)}, "
                                  f"holding {self.path!r}): two jobs in one directory would delete each other's "
                                  f"checkpoints; wait for it to end, or use another {self.flag}") from None
            if _same_file(fd, self.path):
                break
            os.close(fd)  # the holder released (and removed) it between our open and our flock: try again
        previous = _read(fd)
        record = {"host": socket.gethostname(), "pid": os.getpid(),
                  "since": time.strftime("%Y-%m-%d %H:%M:%S %z")}
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(record).encode(), 0)
        self._fd = fd
        return previous

    def release(self):
        if self._fd is None:
            return
        try:
            os.remove(self.path)  # while still holding it: whoever opens the path next creates a fresh file
        except OSError:
            pass
        os.close(self._fd)
        self._fd = None

    def __enter__(self):
        self.acquire()
        return self

    def __exit__(self, *exc):
        self.release()


def describe(holder):
    if not holder:
        return "holder unknown"
    return f"pid {holder.get('pid')!r} on host {holder.get('host')!r} since {holder.get('since')}"


def _read(fd):
    try:
        text = os.pread(fd, 4096, 0).decode(errors="replace")
        return json.loads(text) if text.strip() else None
    except (OSError, ValueError):
        return {"pid": "?", "host": "?", "since": "?"}


def _same_file(fd, path):
    try:
        return os.fstat(fd).st_ino == os.stat(path).st_ino
    except FileNotFoundError:
        return False
