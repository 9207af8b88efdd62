"""Keep freed array memory in the process, so that every training step does not page-fault its arrays back in.

The executor allocates each op's output afresh and frees it when no later op needs it. glibc's malloc serves
blocks from 128 KiB up (a (64, 512) float32 array is 128 KiB) with mmap and gives the heap's top back to the
system whenever more than 128 KiB of it is free; its dynamic thresholds rise only as mmapped blocks are freed.
A step then faults its memory back in page by page: an LSTM training step alone in its process measured 6,000
page faults and half of its 26 ms of CPU time in the kernel (11 ms with the thresholds below, 0 faults). Fixing
the thresholds at the ceiling glibc's own dynamic rule would reach (mmap from 32 MiB, trim above twice that)
keeps one step's memory for the next, as TensorFlow's and PyTorch's caching allocators do.
"""
import ctypes
import ctypes.util

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's malloc.h
MMAP_THRESHOLD = 32 * 1024 * 1024  # glibc's DEFAULT_MMAP_THRESHOLD_MAX on 64-bit systems
TRIM_THRESHOLD = 2 * MMAP_THRESHOLD  # what glibc's dynamic rule pairs with it

_done = []


def keep_freed_memory():
    """Set glibc's malloc thresholds once per process (a no-op elsewhere: other C libraries lack mallopt).

    Returns whether they are set."""
    if not _done:
        _done.append(_set_thresholds())
    return _done[0]


def _set_thresholds():
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
