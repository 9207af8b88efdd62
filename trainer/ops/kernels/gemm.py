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

dot_add(a, b, out, alpha) is out += alpha * (a @ b) in one GEMM (BLAS's beta = 1), which numpy's dot cannot say: SGD's
update of a dense weight by its gradient's product then writes the variable once, with no gradient array between
(training_ops.py). It calls numpy's own OpenBLAS through its CBLAS interface, and answers None where it cannot.
"""
import ctypes
import glob
import os

import numpy as np

SHORT_ROWS, DEEP, WIDE = 64, 256, 1024  # the box where the swap won on every shape measured (module docstring)
AVX512_CORES = ("SkylakeX", "Cooperlake", "SapphireRapids")  # OpenBLAS's names of its AVX-512 kernel sets
_CORENAME_SYMBOLS = ("scipy_openblas_get_corename64_", "scipy_openblas_get_corename", "openblas_get_corename64_",
                     "openblas_get_corename")


# numpy's OpenBLAS builds name their CBLAS GEMMs by these patterns; "64_" marks 64-bit integer arguments (ILP64)
_GEMM_SYMBOLS = ("scipy_cblas_{}gemm64_", "cblas_{}gemm64_", "scipy_cblas_{}gemm", "cblas_{}gemm")
_ROW_MAJOR, _NO_TRANS, _TRANS = 101, 111, 112  # CBLAS's enum values


def _numpy_openblas():
    """The ctypes handle of numpy's bundled OpenBLAS, or None for any other BLAS."""
    here = os.path.dirname(np.__file__)
    for path in glob.glob(os.path.join(here, os.pardir, "numpy.libs", "*openblas*")) + glob.glob(
            os.path.join(here, ".libs", "*openblas*")):
        try:
            return ctypes.CDLL(path)  # numpy loaded it already: this is the same instance, not a second one
        except OSError:
            continue
    return None


def openblas_core():
    """The kernel set numpy's bundled OpenBLAS runs ("SkylakeX", "Haswell", ...), or None for any other BLAS."""
    lib = _numpy_openblas()
    for symbol in _CORENAME_SYMBOLS:
        corename = getattr(lib, symbol, None)
        if corename is not None:
            corename.restype = ctypes.c_char_p
            return (corename() or b"").decode() or None
    return None


def _cblas_gemms():
    """{dtype char: ctypes cblas_?gemm} of numpy's OpenBLAS ("f" and "d"), empty where none is found."""
    lib, found = _numpy_openblas(), {}
    for char, scalar in (("f", ctypes.c_float), ("d", ctypes.c_double)):
        for pattern in _GEMM_SYMBOLS:
            symbol = pattern.format("s" if char == "f" else "d")
            fn = getattr(lib, symbol, None)
            if fn is not None:
                size, enum, p = ctypes.c_int64 if "64_" in symbol else ctypes.c_int, ctypes.c_int, ctypes.c_void_p
                fn.argtypes = [enum, enum, enum, size, size, size, scalar, p, size, p, size, scalar, p, size]
                fn.restype = None
                found[char] = fn
                break
    return found


SWAP_PAYS = openblas_core() in AVX512_CORES
_GEMMS = _cblas_gemms()


def _operand(a):
    """(CBLAS transpose flag, leading dimension) of a 2-D array whose rows or columns are unit-stride, else None."""
    item = a.itemsize
    rows, cols = a.strides
    if cols == item and rows % item == 0 and rows // item >= max(1, a.shape[1]):
        return _NO_TRANS, rows // item
    if rows == item and cols % item == 0 and cols // item >= max(1, a.shape[0]):
        return _TRANS, cols // item
    return None


def dot_add(a, b, out, alpha=1.0):
    """out += alpha * (a @ b) as one BLAS call, out written in place; None (out untouched) where numpy's OpenBLAS
    has no GEMM for the dtype or the arrays are not host 2-D operands of one dtype that BLAS takes as they lie."""
    gemm = _GEMMS.get(out.dtype.char) if type(out) is np.ndarray else None
    if (gemm is None or type(a) is not np.ndarray or type(b) is not np.ndarray or a.ndim != 2 or b.ndim != 2
            or not a.dtype == b.dtype == out.dtype or out.shape != (a.shape[0], b.shape[1])
            or a.shape[1] != b.shape[0] or not out.flags.writeable or not out.size or not a.shape[1]
            or np.may_share_memory(out, a) or np.may_share_memory(out, b)):
        return None
    fa, fb, fc = _operand(a), _operand(b), _operand(out)
    if fa is None or fb is None or fc is None or fc[0] != _NO_TRANS:
        return None
    (m, k), n = a.shape, out.shape[1]
    gemm(_ROW_MAJOR, fa[0], fb[0], m, n, k, alpha, a.ctypes.data, fa[1], b.ctypes.data, fb[1], 1.0, out.ctypes.data,
         fc[1])
    return out


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
