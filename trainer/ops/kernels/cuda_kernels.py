"""Fused CuPy kernels for the training step's hot ops, which is otherwise bound by kernel-launch overhead.

Each kernel replaces a chain of CuPy calls (one launch each) by one launch, and runs only on CuPy arrays:
`on_cupy(fused)` wraps an op's array-module kernel and hands CuPy inputs to `fused`, so numpy and other array
modules (the tests' strict stand-in) keep the plain path. A fused kernel returns NotImplemented for what it
does not cover (dtypes other than float32/float64, mismatched shapes), which falls back to the plain path too.
CuPy is imported and the kernels compiled on first use; CuPy caches the compiled binaries.

Sparse cross-entropy labels outside [0, classes) give NaN as the row's loss and gradient on the GPU, as TF1's
GPU kernel does (its CPU kernel raises InvalidArgumentError; the numpy path raises IndexError).
"""
import functools
import importlib.util

import numpy as np

from ...framework.registry import get_array_module

FLOATS = {"f": ("float", "expf", "logf", "__int_as_float(0x7fc00000)"),
           "d": ("double", "exp", "log", "__longlong_as_double(0x7ff8000000000000LL)")}
_LABELS = {"i": "int", "l": "long long", "q": "long long"}
_MAX_BLOCK = 256  # threads per row: 1000 classes take 4 elements per thread; wider gains nothing at these sizes
# Without CuPy no array can take the fused path: the plain kernels then run unwrapped (the wrapper's test and
# argument forwarding cost ~0.1 us a call, a dozen calls in an MLP's step). Looked up, not imported.
CUPY_INSTALLED = importlib.util.find_spec("cupy") is not None


def is_cupy(array):
    return get_array_module(array).__name__ == "cupy"


def on_cupy(fused):
    """Decorator: run `fused(*arrays, **attrs)` instead of the decorated kernel when input 0 is a CuPy array."""
    def decorate(plain):
        if not CUPY_INSTALLED:
            return plain

        @functools.wraps(plain)
        def kernel(*arrays, **attrs):
            if type(arrays[0]) is not np.ndarray and is_cupy(arrays[0]):  # numpy's test first: ~0.4 us a call
                out = fused(*arrays, **attrs)
                if out is not NotImplemented:
                    return out
            return plain(*arrays, **attrs)
        return kernel
    return decorate


_XENT_SOURCE = r"""
extern "C" __global__ void sparse_xent(const {T}* logits, const {L}* labels, {T}* loss, {T}* grad,
                                        long long classes) {{
    __shared__ {T} buf[{MAX_BLOCK}];
    const {T}* x = logits + blockIdx.x * classes;
    {T}* g = grad + blockIdx.x * classes;
    const int tid = threadIdx.x;
    {T} m = x[0];
    for (long long j = tid; j < classes; j += blockDim.x) m = x[j] > m ? x[j] : m;
    buf[tid] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {{
        if (tid < s && buf[tid + s] > buf[tid]) buf[tid] = buf[tid + s];
        __syncthreads();
    }}
    m = buf[0];
    __syncthreads();
    {T} total = 0;
    for (long long j = tid; j < classes; j += blockDim.x) {{
        const {T} e = {EXP}(x[j] - m);
        g[j] = e;
        total += e;
    }}
    buf[tid] = total;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {{
        if (tid < s) buf[tid] += buf[tid + s];
        __syncthreads();
    }}
    total = buf[0];
    const long long label = labels[blockIdx.x];
    const bool valid = label >= 0 && label < classes;
    for (long long j = tid; j < classes; j += blockDim.x)
        g[j] = valid ? g[j] / total - (j == label ? ({T})1 : ({T})0) : {NAN};
    if (tid == 0) loss[blockIdx.x] = valid ? {LOG}(total) - (x[label] - m) : {NAN};
}}
"""


@functools.lru_cache(maxsize=None)
def _xent_kernel(float_char, label_char):
    import cupy
    t, exp, log, nan = FLOATS[float_char]
    source = _XENT_SOURCE.format(T=t, L=_LABELS[label_char], EXP=exp, LOG=log, NAN=nan, MAX_BLOCK=_MAX_BLOCK)
    return cupy.RawKernel(source, "sparse_xent")


def sparse_softmax_cross_entropy(logits, labels):
    """(loss per row, softmax - one_hot) in one launch: one block per row, the row's max and sum of exponentials
    reduced in shared memory."""
    import cupy
    classes = logits.shape[-1] if logits.ndim else 0
    if logits.dtype.char not in FLOATS or labels.dtype.kind not in "iu" or not classes or not logits.size \
            or labels.size * classes != logits.size:
        return NotImplemented
    if labels.dtype.char not in _LABELS:
        labels = labels.astype(np.int64)
    logits, labels = cupy.ascontiguousarray(logits), cupy.ascontiguousarray(labels)
    loss = cupy.empty(logits.shape[:-1], logits.dtype)
    grad = cupy.empty(logits.shape, logits.dtype)
    block = min(_MAX_BLOCK, max(32, 1 << (classes - 1).bit_length()))  # a power of two, for the tree reduction
    _xent_kernel(logits.dtype.char, labels.dtype.char)((labels.size,), (block,),
                                                      (logits, labels, loss, grad, np.int64(classes)))
    return loss, grad


@functools.lru_cache(maxsize=None)
def elementwise(name, params, outputs, body):
    import cupy
    return cupy.ElementwiseKernel(params, outputs, body, name)


def _same(*arrays):
    first = arrays[0]
    return first.dtype.char in FLOATS and all(a.shape == first.shape and a.dtype == first.dtype for a in arrays)


def _scalar_like(value, var):
    """A hyper-parameter as the kernel takes it: a 0-d device array of var's dtype as is, a host number cast."""
    if get_array_module(value).__name__ == "cupy":
        return value if value.ndim == 0 and value.dtype == var.dtype else None
    return var.dtype.type(value)


_RELU_GRAD = ("relu_grad", "T g, T y", "T z", "z = g * (T)(y > (T)0)")  # g * (y > 0), NaN in g kept as numpy does


def relu_grad(g, y):
    """g * (y > 0) in one launch (CuPy's comparison and multiply take two)."""
    return elementwise(*_RELU_GRAD)(g, y) if _same(g, y) else NotImplemented


def relu_grad_inplace(g, y):
    """relu_grad into g's buffer."""
    return elementwise(*_RELU_GRAD)(g, y, g) if _same(g, y) else NotImplemented


def apply_gradient_descent(var, lr, grad):
    """var -= lr * grad in place, one launch."""
    lr = _scalar_like(lr, var)
    if lr is None or not _same(var, grad):
        return NotImplemented
    elementwise("sgd", "T lr, T grad", "T var", "var -= lr * grad")(lr, grad, var)


def apply_momentum(var, accum, lr, grad, momentum, use_nesterov=False):
    """accum = accum * momentum + grad; var -= lr * accum (Nesterov: lr * (grad + momentum * accum)), one launch."""
    lr, momentum = _scalar_like(lr, var), _scalar_like(momentum, var)
    if lr is None or momentum is None or not _same(var, accum, grad):
        return NotImplemented
    step = "lr * (grad + momentum * accum)" if use_nesterov else "lr * accum"
    elementwise("nesterov" if use_nesterov else "momentum", "T lr, T grad, T momentum", "T var, T accum",
                 f"accum = accum * momentum + grad; var -= {step}")(lr, grad, momentum, var, accum)


_ONES = {}  # (device, length, dtype char) -> a ones vector, for column sums as one GEMV


def column_sums(g, out=None):
    """The sum over every axis but the last (BiasAddGrad) as one cuBLAS GEMV, ones @ g: CuPy's reduction over a
    leading axis runs one thread per column, 10x slower at a CNN's (N*H*W, C) shapes."""
    import cupy
    if g.dtype.char not in FLOATS or g.ndim < 2 or not g.flags.c_contiguous or not g.size:
        return NotImplemented
    rows = g.size // g.shape[-1]
    key = (cupy.cuda.Device().id, rows, g.dtype.char)
    ones = _ONES.get(key)
    if ones is None:
        ones = _ONES[key] = cupy.ones(rows, dtype=g.dtype)
    return cupy.dot(ones, g.reshape(rows, g.shape[-1]), out=out)


def column_sums_into(out, g):
    return column_sums(g, out=out)


# Max pooling over windows that tile the image (pool.py's case): one thread per window. The gradient goes to the
# window's first maximum in row-major order (TF1's rule for ties); a window holding NaN sends it to its last tap,
# as pool.py's numpy form does.
_TILE_INDEX = r"""
    const long long ch = i % c, ow = (i / c) % wo, oh = (i / (c * wo)) % ho, nn = i / (c * wo * ho);
    const long long first = ((nn * h + oh * kh) * w + ow * kw) * c + ch;
"""
_MAX_POOL = ("max_pool_tiles", "raw T x, int64 h, int64 w, int64 c, int64 ho, int64 wo, int64 kh, int64 kw", "T y",
             _TILE_INDEX + r"""
    T m = x[first];
    for (long long a = 0; a < kh; ++a)
        for (long long b = 0; b < kw; ++b) {
            const T v = x[first + (a * w + b) * c];
            if (v > m || v != v) m = v;
        }
    y = m;
""")
_MAX_POOL_GRAD = ("max_pool_tiles_grad",
                  "raw T x, T y, T g, int64 h, int64 w, int64 c, int64 ho, int64 wo, int64 kh, int64 kw", "raw T dx",
                  _TILE_INDEX + r"""
    bool found = false;
    for (long long a = 0; a < kh; ++a)
        for (long long b = 0; b < kw; ++b) {
            const long long at = first + (a * w + b) * c;
            const bool hit = !found && (x[at] == y || (a == kh - 1 && b == kw - 1));
            dx[at] = hit ? g : (T)0;
            found = found || hit;
        }
""")


def _pool_ready(x, *others):
    return x.dtype.char in FLOATS and x.ndim == 4 and all(o.dtype == x.dtype for o in others)


def max_pool(x, ksize, ho, wo):
    import cupy
    if not _pool_ready(x):
        return NotImplemented
    n, h, w, c = x.shape
    y = cupy.empty((n, ho, wo, c), dtype=x.dtype)
    elementwise(*_MAX_POOL)(cupy.ascontiguousarray(x), h, w, c, ho, wo, *ksize, y)
    return y


def max_pool_grad(x, y, g, ksize, ho, wo):
    import cupy
    if not _pool_ready(x, y, g):
        return NotImplemented
    n, h, w, c = x.shape
    covered = ho * ksize[0] == h and wo * ksize[1] == w
    dx = (cupy.empty if covered else cupy.zeros)(x.shape, dtype=g.dtype)
    elementwise(*_MAX_POOL_GRAD)(cupy.ascontiguousarray(x), y, g, h, w, c, ho, wo, *ksize, dx)
    return dx
