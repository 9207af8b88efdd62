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

StepProducts sums a[t] @ b[t]ᵀ over steps through cblas_?gemm with beta = 1, each step added where its operands
are in cache (the host LSTM's weight gradient, one step at a time inside its backward loop).
dot_add(a, b, out, alpha) is out += alpha * (a @ b) in one GEMM (beta = 1 again), which numpy's dot cannot say: SGD's
update of a dense weight by its gradient's product then writes the variable once, with no gradient array between
(training_ops.py); it answers None where BLAS cannot take the operands as they lie. product_adder is the same GEMM
on addresses, unchecked, for a loop over buffers it owns (the row-window convolution's filter rows, conv.py).
transpose_into(a, out, alpha) is out = alpha * aᵀ by OpenBLAS's transposing copy (the host LSTM's weights, gate by
gate, each with its scale).

step_dot(a, b, out) is out[t] = a @ b[t] for a loop over steps (the host LSTM's recurrent GEMMs) through OpenBLAS's
sgemm_direct, its AVX-512 kernel that multiplies without packing either operand first; cblas_sgemm packs both on every
call, the weights the same each step. numpy's OpenBLAS exports it but does not route cblas_sgemm to it, so it is
called where it was measured faster, and only on AVX-512 kernels (it is SkylakeX code). Its time over numpy's dot,
float32, one thread, an AVX-512 EPYC, where sgemm_direct_performant allows it at all (M·N·K < 28·512²):

    N = 64, M·K >= 32K    0.85-0.93 (the LSTM's [4n, depth + n + 1] @ [., batch] at n = 128, batch 64: 0.89-0.91;
                                     its [n, 4n] @ [4n, batch]: 0.85-0.86)
    N = 32, M·K >= 128K   0.88-0.93
    N = 16, 48, 80, 96    0.88-2.7 (mostly slower); N <= 8: 2.5-8x slower

so only the first two boxes take it. It sums in another order than the packed kernel: equal within float32
rounding, not to the bit.

direct_product(dtype, m, n, k) is the same kernel on addresses, for the loops of convolution kernels over buffers they
own (conv.py) and for dot_nt. Past sgemm_direct_performant's size limit it is taken in the same boxes where OpenBLAS
runs one thread (openblas_threads(); with more, a threaded packed GEMM may win) and B, K·N values, is at most
DIRECT_PANEL_BYTES: each 4 rows of A stream all of B. Time over numpy's dot there (same machine, one thread, operands
in cache), M x K: N = 64 at 1344-2560 x 96-160 (LeNet's and the CNN's row windows) 0.84-0.86, 96-160 x 1344-2560
(their filter gradients, A gathered transposed) 0.78-0.82, 512-2048 x 1024-8192 0.82-0.92, 3136 x 1024 (fc1's W @ gᵀ,
with its copies, over dot_nt's swap) 0.85; N = 32 at 25 x 10192-32768 (LeNet's first filter gradient) 0.78-0.85,
672-1280 x 192-320 (the row windows of the input gradients) 0.88-0.92, 512 x 4096 0.72.
"""
import ctypes
import glob
import os

import numpy as np

SHORT_ROWS, DEEP, WIDE = 64, 256, 1024  # the box where the swap won on every shape measured (module docstring)
AVX512_CORES = ("SkylakeX", "Cooperlake", "SapphireRapids")  # OpenBLAS's names of its AVX-512 kernel sets
_CORENAME_SYMBOLS = ("scipy_openblas_get_corename64_", "scipy_openblas_get_corename", "openblas_get_corename64_",
                     "openblas_get_corename")
_THREADS_SYMBOLS = ("scipy_openblas_get_num_threads64_", "scipy_openblas_get_num_threads",
                    "openblas_get_num_threads64_", "openblas_get_num_threads")


def _openblas():
    """numpy's bundled OpenBLAS (loaded already: the same instance, not a second one), or None for any other BLAS."""
    here = os.path.dirname(np.__file__)
    for path in glob.glob(os.path.join(here, os.pardir, "numpy.libs", "*openblas*")) + glob.glob(
            os.path.join(here, ".libs", "*openblas*")):
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        if any(getattr(lib, symbol, None) is not None for symbol in _CORENAME_SYMBOLS):
            return lib
    return None


def _symbol(lib, names):
    return next((getattr(lib, name) for name in names if getattr(lib, name, None) is not None), None)


def openblas_core():
    """The kernel set numpy's bundled OpenBLAS runs ("SkylakeX", "Haswell", ...), or None for any other BLAS."""
    corename = None if OPENBLAS is None else _symbol(OPENBLAS, _CORENAME_SYMBOLS)
    if corename is None:
        return None
    corename.restype = ctypes.c_char_p
    return (corename() or b"").decode() or None


def _threads_getter():
    getter = None if OPENBLAS is None else _symbol(OPENBLAS, _THREADS_SYMBOLS)
    if getter is not None:
        getter.argtypes, getter.restype = [], ctypes.c_int
    return getter


def openblas_threads():
    """The threads numpy's OpenBLAS runs a GEMM on now (OPENBLAS_NUM_THREADS at load, openblas_set_num_threads or
    threadpoolctl after), or None for any other BLAS."""
    return None if _GET_THREADS is None else _GET_THREADS()


def _cblas(routine, arguments):
    """cblas_<routine> ("sgemm", "domatcopy", ...) of numpy's OpenBLAS taking arguments(size) (size: its integer type,
    64-bit for the "64_" names of ILP64 builds), or None."""
    for pattern in ("scipy_cblas_{}64_", "cblas_{}64_", "scipy_cblas_{}", "cblas_{}"):
        name = pattern.format(routine)
        fn = None if OPENBLAS is None else getattr(OPENBLAS, name, None)
        if fn is not None:
            fn.argtypes, fn.restype = arguments(ctypes.c_int64 if "64_" in name else ctypes.c_int), None
            return fn
    return None


def _cblas_gemm(char, real):
    """cblas_?gemm: c = alpha * op(a) @ op(b) + beta * c."""
    pointer = ctypes.c_void_p
    return _cblas(char + "gemm", lambda size: [ctypes.c_int] * 3 + [size] * 3 + [real, pointer, size, pointer, size,
                                                                                   real, pointer, size])


def _cblas_omatcopy(char, real):
    """cblas_?omatcopy: b = alpha * aᵀ, out of place."""
    pointer = ctypes.c_void_p
    return _cblas(char + "omatcopy", lambda size: [ctypes.c_int] * 2 + [size] * 2 + [real, pointer, size, pointer, size])


OPENBLAS = _openblas()
_GET_THREADS = _threads_getter()
# layout and transposition flags of the CBLAS interface, and the double and single precision GEMMs
ROW_MAJOR, NO_TRANS, TRANS = 101, 111, 112
CBLAS_GEMM = {np.dtype(np.float32): _cblas_gemm("s", ctypes.c_float),
              np.dtype(np.float64): _cblas_gemm("d", ctypes.c_double)}
CBLAS_OMATCOPY = {np.dtype(np.float32): _cblas_omatcopy("s", ctypes.c_float),
                  np.dtype(np.float64): _cblas_omatcopy("d", ctypes.c_double)}


class StepProducts:
    """out = the sum of a[t] @ b[t]ᵀ over the steps t given to add(t), for C-contiguous [T, M, K] a and [T, N, K] b.

    BLAS adds each step's product into out (beta = 1), so a loop over the steps can add one while its operands are
    still in cache, and neither operand is copied into one [M, T·K] @ [T·K, N] GEMM (at K = 64 the steps together
    are as fast as that GEMM). Without numpy's OpenBLAS, or on another dtype, numpy's dot and an add. An operand of
    one step ([1, M, K] or [1, N, K]) serves every step of the other: a loop that writes each step into it before
    add(t) keeps it in cache (the host LSTM's gates' gradient where no output needs all of its steps)."""

    def __init__(self, a, b):
        (steps, m, k), n = a.shape, b.shape[1]
        self.steps = max(steps, len(b)) if min(steps, len(b)) == 1 else min(steps, len(b))
        self.a, self.b, self.out = a, b, np.zeros((m, n), a.dtype)
        usable = a.dtype == b.dtype and a.flags.c_contiguous and b.flags.c_contiguous and m * n * k > 0
        self.gemm = CBLAS_GEMM.get(a.dtype) if usable else None
        # pointers by arithmetic: a step's view and its address cost about a microsecond each
        self.at = (a.ctypes.data, b.ctypes.data)
        self.step_bytes = (0 if steps == 1 else m * k * a.itemsize, 0 if len(b) == 1 else n * k * b.itemsize)
        if self.gemm is not None:  # all but the operands' addresses converted once: ctypes takes ~0.5 us a call less
            kinds = self.gemm.argtypes
            self.head = tuple(kind(v) for kind, v in zip(kinds, (ROW_MAJOR, NO_TRANS, TRANS, m, n, k, 1.0)))
            self.ld, self.tail = kinds[8](k), tuple(kind(v) for kind, v in zip(kinds[11:], (1.0, self.out.ctypes.data,
                                                                                            n)))

    def operands(self, t):
        """Step t's (a, b)."""
        return self.a[0 if len(self.a) == 1 else t], self.b[0 if len(self.b) == 1 else t]

    def add(self, t):
        """out += a[t] @ b[t]ᵀ."""
        if not 0 <= t < self.steps:  # BLAS would read past the operands
            raise IndexError(f"StepProducts.add({t!r}): a step in [0, {self.steps}) of a {self.a.shape} and b "
                             f"{self.b.shape}")
        if self.gemm is None:
            a, b = self.operands(t)
            self.out += np.dot(a, b.T)
            return
        (a_at, b_at), (a_step, b_step), ld = self.at, self.step_bytes, self.ld
        self.gemm(*self.head, a_at + t * a_step, ld, b_at + t * b_step, ld, *self.tail)


SWAP_PAYS = openblas_core() in AVX512_CORES
DIRECT_BOXES = {64: 32 * 1024, 32: 128 * 1024}  # N: the least M·K where sgemm_direct was faster (module docstring)
_direct = []


def _direct_sgemm():
    """(sgemm_direct, sgemm_direct_performant) of OpenBLAS's SkylakeX kernels when it runs an AVX-512 kernel set and
    the pair gives numpy's product on a small case, else None; looked up once."""
    if not _direct:
        names = ("sgemm_direct_SKYLAKEX", "sgemm_direct_performant_SKYLAKEX")
        fns = [None if OPENBLAS is None or not SWAP_PAYS else getattr(OPENBLAS, name, None) for name in names]
        if None in fns:
            _direct.append(None)
            return None
        size, pointer = ctypes.c_int64, ctypes.c_void_p  # BLASLONG: 64 bits on every 64-bit platform
        fns[0].argtypes, fns[0].restype = [size, size, size, pointer, size, pointer, size, pointer, size], None
        fns[1].argtypes, fns[1].restype = [size] * 3, ctypes.c_int
        a, b = (np.random.default_rng(0).standard_normal(shape).astype(np.float32) for shape in ((37, 19), (19, 21)))
        got = np.full((37, 21), np.nan, np.float32)
        fns[0](37, 21, 19, a.ctypes.data, 19, b.ctypes.data, 21, got.ctypes.data, 21)
        _direct.append(tuple(fns) if np.allclose(got, a @ b, rtol=1e-5, atol=1e-5) else None)
    return _direct[0]


def _rows(a):
    """The row stride in elements of a 2-D array (or of each step of a 3-D one) whose rows are unit-stride, else
    None."""
    rows, cols = a.strides[-2:]
    return rows // a.itemsize if cols == a.itemsize and rows % a.itemsize == 0 and rows >= a.shape[-1] * a.itemsize \
        else None


DIRECT_PANEL_BYTES = 4 << 20  # the largest B measured (25 x 32768 x 32): still 15 % faster than numpy's dot


def direct_taken(m, n, k):
    """Whether a float32 [m, k] @ [k, n] product goes through sgemm_direct here: OpenBLAS runs an AVX-512 kernel set
    that exports it, the shape is in a measured box (DIRECT_BOXES), and OpenBLAS's own sgemm_direct_performant agrees,
    or, past its size limit, OpenBLAS runs one thread (with more, a threaded packed GEMM may win) and B, k·n values,
    is at most DIRECT_PANEL_BYTES."""
    fns = _direct_sgemm()
    return fns is not None and m * k >= DIRECT_BOXES.get(n, m * k + 1) and bool(
        fns[1](m, n, k) or (openblas_threads() == 1 and k * n * 4 <= DIRECT_PANEL_BYTES))


def step_dot(a, b, out):
    """A function of (t, t_out) writing out[t_out] = a @ b[t] for a 2-D a, a [steps, K, N] b and a [steps', M, N] out,
    float32 host arrays with unit-stride rows, through sgemm_direct where direct_taken says so; else None (the caller
    uses numpy's dot). Nothing is checked per call: t and t_out must be steps of b and out."""
    if not all(type(x) is np.ndarray and x.dtype == np.float32 for x in (a, b, out)) or \
            (a.ndim, b.ndim, out.ndim) != (2, 3, 3):
        return None
    (m, k), n = a.shape, b.shape[2]
    if b.shape[1] != k or out.shape[1:] != (m, n) or not direct_taken(m, n, k):
        return None
    lda, ldb, ldo = _rows(a), _rows(b), _rows(out)
    if None in (lda, ldb, ldo) or np.may_share_memory(out, a) or np.may_share_memory(out, b):
        return None
    direct = _direct_sgemm()[0]
    kinds = direct.argtypes
    head = tuple(kind(v) for kind, v in zip(kinds, (m, n, k, a.ctypes.data, lda)))
    b_at, b_step, ldb, out_at, out_step, ldo = b.ctypes.data, b.strides[0], kinds[6](ldb), out.ctypes.data, \
        out.strides[0], kinds[8](ldo)

    def product(t, t_out, _operands=(a, b, out)):  # the default keeps the arrays alive as long as the function
        direct(*head, b_at + t * b_step, ldb, out_at + t_out * out_step, ldo)
    return product


def direct_product(dtype, m, n, k):
    """mul(rows, depth, a_at, lda, b_at, ldb, out_at, ldo): out = a @ b for row-major [rows, depth], [depth, n] and
    [rows, n] operands of `dtype` at those addresses, rows lda, ldb and ldo elements apart, out over neither operand,
    through sgemm_direct, where direct_taken says so of the largest product of the caller's loop, [m, k] @ [k, n]
    (module docstring); else None (the caller keeps numpy's dot). Unchecked, as product_adder: a loop's products are its
    largest's or a few rows or a little depth short of it (a convolution's taps by the padding)."""
    if np.dtype(dtype) != np.float32 or not direct_taken(m, n, k):
        return None
    direct = _direct_sgemm()[0]

    def mul(rows, depth, a_at, lda, b_at, ldb, out_at, ldo):
        direct(rows, n, depth, a_at, lda, b_at, ldb, out_at, ldo)
    return mul


def _operand(a):
    """(CBLAS transpose flag, leading dimension) of a 2-D array whose rows or columns are unit-stride, else None."""
    item = a.itemsize
    rows, cols = a.strides
    if cols == item and rows % item == 0 and rows // item >= max(1, a.shape[1]):
        return NO_TRANS, rows // item
    if rows == item and cols % item == 0 and cols // item >= max(1, a.shape[0]):
        return TRANS, cols // item
    return None


def transpose_into(a, out, alpha=1.0):
    """out[...] = alpha * aᵀ for 2-D host arrays of one dtype, each product rounded once as numpy's multiply rounds
    it: OpenBLAS's blocked transposing copy where it takes the arrays as they lie (20-25% faster than numpy's strided
    one with its multiply after, on the LSTM's [depth + units, 4 * units] weights), else numpy (also for alpha 0,
    which OpenBLAS writes as zeros where numpy keeps a NaN or an infinity's NaN)."""
    omatcopy = CBLAS_OMATCOPY.get(out.dtype) if type(out) is np.ndarray and type(a) is np.ndarray else None
    fa, fc = (None, None) if omatcopy is None else (_operand(a), _operand(out))
    if (fa is None or fc is None or fa[0] != NO_TRANS or fc[0] != NO_TRANS or a.dtype != out.dtype
            or out.shape != a.shape[::-1] or not a.size or np.may_share_memory(a, out) or alpha == 0):
        np.multiply(a.T, alpha, out=out)
        return out
    omatcopy(ROW_MAJOR, TRANS, a.shape[0], a.shape[1], alpha, a.ctypes.data, fa[1], out.ctypes.data, fc[1])
    return out


def dot_add(a, b, out, alpha=1.0):
    """out += alpha * (a @ b) as one BLAS call, out written in place; None (out untouched) where numpy's OpenBLAS
    has no GEMM for the dtype or the arrays are not host 2-D operands of one dtype that BLAS takes as they lie."""
    gemm = CBLAS_GEMM.get(out.dtype) if type(out) is np.ndarray else None
    if (gemm is None or type(a) is not np.ndarray or type(b) is not np.ndarray or a.ndim != 2 or b.ndim != 2
            or not a.dtype == b.dtype == out.dtype or out.shape != (a.shape[0], b.shape[1])
            or a.shape[1] != b.shape[0] or not out.flags.writeable or not out.size or not a.shape[1]
            or np.may_share_memory(out, a) or np.may_share_memory(out, b)):
        return None
    fa, fb, fc = _operand(a), _operand(b), _operand(out)
    if fa is None or fb is None or fc is None or fc[0] != NO_TRANS:
        return None
    (m, k), n = a.shape, out.shape[1]
    gemm(ROW_MAJOR, fa[0], fb[0], m, n, k, alpha, a.ctypes.data, fa[1], b.ctypes.data, fb[1], 1.0, out.ctypes.data,
         fc[1])
    return out


def product_adder(dtype):
    """add(m, n, k, a_at, b_at, out_at): out += a @ b for C-contiguous [m, k], [k, n] and [m, n] operands of `dtype`
    at those addresses, one GEMM with beta = 1; None without numpy's OpenBLAS GEMM for `dtype`. For loops of small
    products over buffers whose layout the caller owns: dot_add's checks and `.ctypes.data` cost 6 µs a call, the
    GEMM of a row-window tap some 30-60 µs."""
    gemm = CBLAS_GEMM.get(np.dtype(dtype))
    if gemm is None:
        return None

    def add(m, n, k, a_at, b_at, out_at):
        gemm(ROW_MAJOR, NO_TRANS, NO_TRANS, m, n, k, 1.0, a_at, k, b_at, n, 1.0, out_at, n)
    return add


def dot_nt(a, b):
    """a @ bᵀ as W @ gᵀ copied back to C order where that pays (module docstring), else as BLAS takes it. In
    sgemm_direct's box (direct_product) W @ gᵀ goes through it, gᵀ and the result copied by OpenBLAS's transposing
    copy: LeNet's fc1 input gradient 2.1 -> 1.7 ms, the CNN's dense one ([32, 256] @ [4096, 256]ᵀ) 0.40 -> 0.32."""
    if (type(a) is np.ndarray and a.shape[0] <= SHORT_ROWS and a.shape[1] >= DEEP and b.shape[0] >= WIDE
            and a.dtype.char == "f" and b.flags.c_contiguous):
        (m, k), n = b.shape, a.shape[0]
        mul = direct_product(a.dtype, m, n, k) if type(b) is np.ndarray and b.dtype == a.dtype else None
        if mul is None:
            return np.dot(b, a.T).T.copy()
        a_t, product = transpose_into(a, np.empty((k, n), a.dtype)), np.empty((m, n), a.dtype)
        mul(m, k, b.ctypes.data, k, a_t.ctypes.data, n, product.ctypes.data, n)
        return transpose_into(product, np.empty((n, m), a.dtype))
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
