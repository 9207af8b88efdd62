"""a @ bᵀ on numpy's BLAS, in the orientation that is faster on the kernels it runs.

A dense layer's input gradient is g @ Wᵀ, W's transposed view: a short, wide product. OpenBLAS's AVX-512 sgemm
kernels (SkylakeX and its successors) run it 1.2-2.4x faster as W @ gᵀ with the [N, M] result copied back to C
order; with its AVX2 kernels (Haswell, also what OPENBLAS_CORETYPE=Haswell pins) the two GEMMs tie and the copy
costs up to 45%, and on tall products the swap loses on every kernel (up to 4.5x at 256-512 rows). Measured on
an AVX-512 EPYC, one thread, float32, bᵀ a Fortran view, CPU-time medians over a grid of 16-512 rows, 64-8192
deep and 64-8192 wide, both kernels, ratio swapped / as is:

    rows <= 64, deep >= 256, wide >= 1024   SkylakeX 0.42-0.93   Haswell 0.89-1.45
    rows <= 64, shallower or narrower       SkylakeX 0.42-1.47   Haswell 0.89-1.59
    rows 128                                SkylakeX 0.85-1.18   Haswell 1.01-1.27
    rows 256-512                            SkylakeX 0.94-4.55   Haswell 0.95-3.36

So the swap is taken only inside the first row's box, only on AVX-512 kernels, only in float32 (where it was
measured). The sums are BLAS's in another order: equal within float32 rounding, not to the bit.
"""
import ctypes
import glob
import os

import numpy as np

SHORT_ROWS, DEEP, WIDE = 64, 256, 1024  # the box where the swap won on every shape measured (module docstring)
AVX512_CORES = ("SkylakeX", "Cooperlake", "SapphireRapids")  # OpenBLAS's names of its AVX-512 kernel sets
_CORENAME_SYMBOLS = ("scipy_openblas_get_corename64_", "scipy_openblas_get_corename", "openblas_get_corename64_",
                     "openblas_get_corename")


def openblas_core():
    """The kernel set numpy's bundled OpenBLAS runs ("SkylakeX", "Haswell", ...), or None for any other BLAS."""
    here = os.path.dirname(np.__file__)
    for path in glob.glob(os.path.join(here, os.pardir, "numpy.libs", "*openblas*")) + glob.glob(
            os.path.join(here, ".libs", "*openblas*")):
        try:
            lib = ctypes.CDLL(path)  # numpy loaded it already: this is the same instance, not a second one
        except OSError:
            continue
        for symbol in _CORENAME_SYMBOLS:
            corename = getattr(lib, symbol, None)
            if corename is not None:
                corename.restype = ctypes.c_char_p
                return (corename() or b"").decode() or None
    return None


SWAP_PAYS = openblas_core() in AVX512_CORES


def dot_nt(a, b):
    """a @ bᵀ as W @ gᵀ copied back to C order where that pays (module docstring), else as BLAS takes it."""
    if (type(a) is np.ndarray and a.shape[0] <= SHORT_ROWS and a.shape[1] >= DEEP and b.shape[0] >= WIDE
            and a.dtype.char == "f" and b.flags.c_contiguous):
        return np.dot(b, a.T).T.copy()
    return np.dot(a, b.T)


def dot_nt_for(b_shape):
    """The kernel computing a @ bᵀ for a b of static shape `b_shape` (None or None dims where unknown): dot_nt
    where the swap may pay, else the plain product, so that small layers pay for no test."""
    known = b_shape is not None and len(b_shape) == 2
    narrow = known and b_shape[0] is not None and b_shape[0] < WIDE
    shallow = known and b_shape[1] is not None and b_shape[1] < DEEP
    if not SWAP_PAYS or narrow or shallow:
        dot = np.dot
        return lambda a, b: dot(a, b.T)
    return dot_nt
