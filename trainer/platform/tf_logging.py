"""tg.logging: TF1's tf.logging on the Python logger "ringflow" (lines read "INFO:ringflow:message").

As TF1 does, the logger gets its own stderr handler only when the root logger has none (so a program that calls
logging.basicConfig sees no duplicates), and the threshold starts at WARN (INFO in an interactive shell).
Exported as tg.logging; the module is not called logging.py so it never shadows the standard library.
"""
import logging
import sys
import threading
from logging import DEBUG, ERROR, FATAL, INFO, WARN, WARNING  # noqa: F401  (TF1's level constants)

_counts = {}
_lock = threading.Lock()
_logger = None


class _CurrentStream(logging.StreamHandler):
    """Writes to whatever sys.stderr/sys.stdout is now (a test's capture, a notebook's redirect)."""

    def __init__(self, name):
        self._stream_name = name
        super().__init__()

    @property
    def stream(self):
        return getattr(sys, self._stream_name)

    @stream.setter
    def stream(self, _):
        pass


def get_logger():
    """The "ringflow" logging.Logger behind tg.logging."""
    global _logger
    with _lock:
        if _logger is None:
            logger = logging.getLogger("ringflow")
            if not logging.getLogger().handlers and not logger.handlers:
                interactive = hasattr(sys, "ps1") or bool(sys.flags.interactive)
                if interactive and logger.level == logging.NOTSET:
                    logger.setLevel(INFO)
                handler = _CurrentStream("stdout" if interactive else "stderr")
                handler.setFormatter(logging.Formatter(logging.BASIC_FORMAT))
                logger.addHandler(handler)
            _logger = logger
    return _logger


def set_verbosity(v):
    """Log messages at level v and above (tg.logging.INFO, WARN, ...)."""
    get_logger().setLevel(v)


def get_verbosity():
    """The current threshold (WARN == 30 unless set)."""
    return get_logger().getEffectiveLevel()


def log(level, msg, *args, **kwargs):
    get_logger().log(level, msg, *args, **kwargs)


def debug(msg, *args, **kwargs):
    get_logger().debug(msg, *args, **kwargs)


def info(msg, *args, **kwargs):
    get_logger().info(msg, *args, **kwargs)


def warning(msg, *args, **kwargs):
    get_logger().warning(msg, *args, **kwargs)


warn = warning


def error(msg, *args, **kwargs):
    get_logger().error(msg, *args, **kwargs)


def fatal(msg, *args, **kwargs):
    """Logs at FATAL; like TF1's it does not exit."""
    get_logger().critical(msg, *args, **kwargs)


def vlog(level, msg, *args, **kwargs):
    get_logger().log(level, msg, *args, **kwargs)


def log_if(level, msg, condition, *args):
    """Log 'msg % args' at level only when condition is true."""
    if condition:
        vlog(level, msg, *args)


def _next_count(n):
    if n < 1:
        raise ValueError(f"n must be a positive count of calls, got {n!r}")
    frame = sys._getframe(2)  # the caller of log_every_n / log_first_n
    site = (frame.f_code.co_filename, frame.f_lineno)
    with _lock:
        count = _counts.get(site, 0)
        _counts[site] = count + 1
    return count


def log_every_n(level, msg, n, *args):
    """Log 'msg % args' at level on this call site's 1st, (n+1)th, (2n+1)th... call."""
    log_if(level, msg, _next_count(n) % n == 0, *args)


def log_first_n(level, msg, n, *args):
    """Log 'msg % args' at level on this call site's first n calls only."""
    log_if(level, msg, _next_count(n) < n, *args)


def TaskLevelStatusMessage(msg):  # noqa: N802  (TF1's name)
    """TF1 logs task status messages as errors."""
    error(msg)


def flush():
    """Flush every handler of the ringflow logger (TF1 1.15 raises NotImplementedError here)."""
    for handler in get_logger().handlers:
        handler.flush()
