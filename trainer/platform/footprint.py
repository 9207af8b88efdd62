"""Bytes, counted before they are allocated.

A mistyped number (`--batch-size 100000000000`, a label of 1e8, a damaged file header that claims 2**31
images) should be refused in a millisecond with the arithmetic shown, not by a MemoryError after the
machine has spent its memory and its swap. Every estimate here is a lower bound, so a refusal is never wrong.
"""
import math
import os


def physical_memory():
    """Bytes of RAM on this machine; None where the OS does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def human(nbytes):
    """1536 -> '1.5 KiB'."""
    nbytes = float(nbytes)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if abs(nbytes) < 1024 or unit == "PiB":
            return f"{nbytes:.0f} {unit}" if unit == "B" else f"{nbytes:.1f} {unit}"
        nbytes /= 1024


def exceeds_memory(nbytes, limit=None):
    """The limit (bytes) that `nbytes` exceeds, else None; limit None means this machine's RAM."""
    limit = physical_memory() if limit is None else limit
    return limit if limit is not None and nbytes > limit else None


def count(shape):
    """Number of elements in `shape`, as an exact Python int (numpy's prod would overflow int64)."""
    return math.prod(int(d) for d in shape)
