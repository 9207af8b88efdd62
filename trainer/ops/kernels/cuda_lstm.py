"""The LSTM's CuPy kernels: one launch per time step each way (the gate math of kernels/rnn.py's lstm_step and
lstm_step_grad), and one launch per whole sequence each way (block_lstm_ops.py's BlockLSTM loops).

Like cuda_kernels.py's, each returns NotImplemented for what it does not cover, and the numpy-form path runs.
"""
import functools

import numpy as np

from .cuda_kernels import FLOATS, elementwise, is_cupy


# The LSTM's gate math, one launch per time step each way (kernels/rnn.py holds the numpy form and the meaning of
# each argument). Each thread owns one (batch row, unit): it reads that unit's four gates from the [batch, 4 * units]
# block and writes them back activated (forward) or as the pre-activations' gradient (backward). `clip` < 0: no
# cell clip. Without peepholes `peep` is any array of the dtype and never read.
_LSTM_STEP = ("lstm_step",
              "T cs_prev, raw T shift, raw T peep, T clip, int64 n, bool has_shift, bool has_peep",
              "raw T gates, T cs, T co, T h", r"""
    const long long b = i / n, j = i % n, base = b * 4 * n + j;
    T gi = gates[base], gc = gates[base + n], gf = gates[base + 2 * n], go = gates[base + 3 * n];
    if (has_shift) {
        gi = gi * (T)0.5 + shift[j]; gc = gc + shift[n + j];
        gf = gf * (T)0.5 + shift[2 * n + j]; go = go * (T)0.5 + shift[3 * n + j];
    }
    if (has_peep) { gi += cs_prev * (T)0.5 * peep[j]; gf += cs_prev * (T)0.5 * peep[n + j]; }
    const T ai = (T)0.5 * tanh(gi) + (T)0.5, ac = tanh(gc), af = (T)0.5 * tanh(gf) + (T)0.5;
    T c = ac * ai + af * cs_prev;
    if (clip >= (T)0) c = c > clip ? clip : (c < -clip ? -clip : c);
    if (has_peep) go += c * (T)0.5 * peep[2 * n + j];
    const T ao = (T)0.5 * tanh(go) + (T)0.5, t = tanh(c);
    gates[base] = ai; gates[base + n] = ac; gates[base + 2 * n] = af; gates[base + 3 * n] = ao;
    cs = c; co = t; h = t * ao;
""")

_LSTM_STEP_GRAD = ("lstm_step_grad",
                   "raw T act, T cs_prev, T co, T h_grad, T cs_grad, raw T peep, T clip, int64 n, bool has_peep",
                   "raw T dicfo, T cs_prev_grad", r"""
    const long long b = i / n, j = i % n, base = b * 4 * n + j;
    const T ai = act[base], ac = act[base + n], af = act[base + 2 * n], ao = act[base + 3 * n];
    T dcs = ((T)1 - co * co) * ao * h_grad + cs_grad;
    const T d_o = h_grad * co * ((T)1 - ao) * ao;
    if (has_peep) dcs += d_o * peep[2 * n + j];
    if (clip >= (T)0) { const T u = ac * ai + af * cs_prev; if (!(u <= clip && u >= -clip)) dcs = (T)0; }
    const T d_i = dcs * ac * ((T)1 - ai) * ai, d_c = dcs * ai * ((T)1 - ac) * ((T)1 + ac);
    const T d_f = dcs * cs_prev * ((T)1 - af) * af;
    dicfo[base] = d_i; dicfo[base + n] = d_c; dicfo[base + 2 * n] = d_f; dicfo[base + 3 * n] = d_o;
    T g = dcs * af;
    if (has_peep) g += d_i * peep[j] + d_f * peep[n + j];
    cs_prev_grad = g;
""")


def _lstm_ready(gates, *state):
    """The fused LSTM kernels take float32/64 arrays of one dtype, the gate block C-contiguous [batch, 4 * units]
    and each state [batch, units]."""
    if gates.dtype.char not in FLOATS or gates.ndim != 2 or not gates.flags.c_contiguous:
        return False
    return all(s.shape == (gates.shape[0], gates.shape[1] // 4) and s.dtype == gates.dtype for s in state)


def _peep(peepholes, like):
    import cupy
    return like if peepholes is None else cupy.concatenate([cupy.asarray(p, like.dtype).ravel() for p in peepholes])


def _clip(cell_clip, dtype):
    return dtype.type(-1 if cell_clip is None else cell_clip)


def lstm_step(gates, cs_prev, peepholes, cell_clip, half, shift, cs, co, h):
    """kernels/rnn.py's lstm_step in one launch."""
    if not _lstm_ready(gates, cs_prev, cs, co, h) or (shift is not None and shift.dtype != gates.dtype):
        return NotImplemented
    n = gates.shape[1] // 4
    elementwise(*_LSTM_STEP)(cs_prev, gates if shift is None else shift, _peep(peepholes, gates),
                              _clip(cell_clip, gates.dtype), np.int64(n), shift is not None,
                              peepholes is not None, gates, cs, co, h)


def lstm_step_grad(act, cs_prev, cs, co, h_grad, cs_grad, peepholes, cell_clip, dicfo, scratch):
    """kernels/rnn.py's lstm_step_grad in one launch (with peepholes, three reductions more for their gradients)."""
    import cupy
    if not _lstm_ready(act, cs_prev, cs, co, h_grad, cs_grad) or not _lstm_ready(dicfo) \
            or dicfo.shape != act.shape:
        return NotImplemented
    n = act.shape[1] // 4
    cs_prev_grad = cupy.empty_like(cs_prev)
    elementwise(*_LSTM_STEP_GRAD)(act, cs_prev, co, h_grad, cs_grad, _peep(peepholes, act),
                                   _clip(cell_clip, act.dtype), np.int64(n), peepholes is not None,
                                   dicfo, cs_prev_grad)
    if peepholes is None:
        return cs_prev_grad, None
    di, df, do = dicfo[:, :n], dicfo[:, 2 * n:3 * n], dicfo[:, 3 * n:]
    return cs_prev_grad, ((di * cs_prev).sum(axis=0), (df * cs_prev).sum(axis=0), (do * cs).sum(axis=0))


# A whole LSTM sequence in one launch each way (block_lstm_ops.py's BlockLSTM): each batch row's recurrence
# depends on that row alone, so one thread block per row walks every time step, its h and cell state held in
# shared memory, the recurrent matmul of a step done by the block (a thread per gate column, reading the weights
# from L2) between two barriers. The inputs' share of the gates comes precomputed (one GEMM for all steps), as the
# weight gradient is computed after (one GEMM). Gate math as _LSTM_STEP and _LSTM_STEP_GRAD.
_SEQUENCE_SOURCE = r"""
extern "C" __global__ void lstm_sequence({T}* act, const {T}* w_h, const {T}* h0, const {T}* c0, const {T}* peep,
        {T} clip, {T}* cs, {T}* co, {T}* h, long long steps, long long batch, long long n, int has_peep) {{
    extern __shared__ unsigned char smem[];
    {T}* hs = ({T}*)smem;
    {T}* cx = hs + n;
    {T}* gs = cx + n;
    const long long b = blockIdx.x;
    for (long long j = threadIdx.x; j < n; j += blockDim.x) {{ hs[j] = h0[b * n + j]; cx[j] = c0[b * n + j]; }}
    __syncthreads();
    for (long long t = 0; t < steps; ++t) {{
        {T}* a = act + (t * batch + b) * 4 * n;
        for (long long col = threadIdx.x; col < 4 * n; col += blockDim.x) {{
            {T} sum = 0;
            #pragma unroll 8
            for (long long k = 0; k < n; ++k) sum += hs[k] * w_h[k * 4 * n + col];
            gs[col] = a[col] + sum;
        }}
        __syncthreads();
        for (long long j = threadIdx.x; j < n; j += blockDim.x) {{
            const {T} c_prev = cx[j];
            {T} gi = gs[j], gc = gs[n + j], gf = gs[2 * n + j], go = gs[3 * n + j];
            if (has_peep) {{ gi += c_prev * ({T})0.5 * peep[j]; gf += c_prev * ({T})0.5 * peep[n + j]; }}
            const {T} ai = ({T})0.5 * tanh(gi) + ({T})0.5, ac = tanh(gc), af = ({T})0.5 * tanh(gf) + ({T})0.5;
            {T} c = ac * ai + af * c_prev;
            if (clip >= ({T})0) c = c > clip ? clip : (c < -clip ? -clip : c);
            if (has_peep) go += c * ({T})0.5 * peep[2 * n + j];
            const {T} ao = ({T})0.5 * tanh(go) + ({T})0.5, tc = tanh(c);
            a[j] = ai; a[n + j] = ac; a[2 * n + j] = af; a[3 * n + j] = ao;
            const long long at = (t * batch + b) * n + j;
            cs[at] = c; co[at] = tc; h[at] = tc * ao;
            cx[j] = c; hs[j] = tc * ao;
        }}
        __syncthreads();
    }}
}}

extern "C" __global__ void lstm_sequence_grad(const {T}* gi_, const {T}* gc_, const {T}* gf_, const {T}* go_,
        long long t_stride, long long b_stride, const {T}* c0, const {T}* cs, const {T}* co, const {T}* h_grad,
        const {T}* cs_grad, const {T}* w_h_t, const {T}* peep, {T} clip, {T}* dicfo, {T}* dcs_out, {T}* dh_out,
        long long steps, long long batch, long long n, int has_peep) {{
    extern __shared__ unsigned char smem[];
    {T}* dh = ({T}*)smem;
    {T}* dc = dh + n;
    {T}* ds = dc + n;
    const long long b = blockIdx.x;
    for (long long j = threadIdx.x; j < n; j += blockDim.x) {{ dh[j] = 0; dc[j] = 0; }}
    __syncthreads();
    for (long long t = steps - 1; t >= 0; --t) {{
        for (long long j = threadIdx.x; j < n; j += blockDim.x) {{
            const long long at = (t * batch + b) * n + j, gate = t * t_stride + b * b_stride + j;
            const {T} ai = gi_[gate], ac = gc_[gate], af = gf_[gate], ao = go_[gate];
            const {T} c_prev = t ? cs[at - batch * n] : c0[b * n + j], tc = co[at];
            const {T} hg = dh[j] + h_grad[at];
            {T} dcs = (({T})1 - tc * tc) * ao * hg + dc[j] + cs_grad[at];
            const {T} d_o = hg * tc * (({T})1 - ao) * ao;
            if (has_peep) dcs += d_o * peep[2 * n + j];
            if (clip >= ({T})0) {{ const {T} u = ac * ai + af * c_prev; if (!(u <= clip && u >= -clip)) dcs = 0; }}
            const {T} d_i = dcs * ac * (({T})1 - ai) * ai, d_c = dcs * ai * (({T})1 - ac) * (({T})1 + ac);
            const {T} d_f = dcs * c_prev * (({T})1 - af) * af;
            {T}* out = dicfo + (t * batch + b) * 4 * n;
            out[j] = d_i; out[n + j] = d_c; out[2 * n + j] = d_f; out[3 * n + j] = d_o;
            ds[j] = d_i; ds[n + j] = d_c; ds[2 * n + j] = d_f; ds[3 * n + j] = d_o;
            {T} g = dcs * af;
            if (has_peep) g += d_i * peep[j] + d_f * peep[n + j];
            dc[j] = g;
        }}
        __syncthreads();
        for (long long k = threadIdx.x; k < n; k += blockDim.x) {{
            {T} sum = 0;
            #pragma unroll 8
            for (long long col = 0; col < 4 * n; ++col) sum += ds[col] * w_h_t[col * n + k];
            dh[k] = sum;
        }}
        __syncthreads();
    }}
    for (long long j = threadIdx.x; j < n; j += blockDim.x) {{ dh_out[b * n + j] = dh[j]; dcs_out[b * n + j] = dc[j]; }}
}}
"""
_SHARED_LIMIT = 48 << 10  # bytes of shared memory a block gets without opting in


@functools.lru_cache(maxsize=None)
def _sequence_kernels(float_char):
    import cupy
    module = cupy.RawModule(code=_SEQUENCE_SOURCE.format(T=FLOATS[float_char][0]))
    return module.get_function("lstm_sequence"), module.get_function("lstm_sequence_grad")


def _sequence_launch(n, itemsize):
    """(threads per block, shared bytes), or None when a row's state does not fit in shared memory."""
    shared = 6 * n * itemsize
    return None if shared > _SHARED_LIMIT else (min(1024, max(32, -(-4 * n // 32) * 32)), shared)


def lstm_sequence(act, w_h, h_prev, cs_prev, peepholes, cell_clip, steps, cs, co, h):
    """Steps [0, steps) of an LSTM in one launch: act [time, batch, 4 * units] holds the inputs' share of the
    gates, pre-scaled as block_lstm_ops does (weights times the gate scales, plus the shifts), and becomes the
    activations; w_h [units, 4 * units] the pre-scaled recurrent weights; cs, co, h [time, batch, units] are
    written. Returns NotImplemented (the per-step path runs) for host arrays and where it cannot serve."""
    if not is_cupy(act):
        return NotImplemented
    import cupy
    w_h, h_prev, cs_prev = (cupy.ascontiguousarray(a) for a in (w_h, h_prev, cs_prev))
    arrays = (act, w_h, h_prev, cs_prev, cs, co, h)
    launch = _sequence_launch(cs_prev.shape[-1], act.itemsize)
    if act.dtype.char not in FLOATS or launch is None or any(a.dtype != act.dtype for a in arrays) \
            or not all(a.flags.c_contiguous for a in arrays):
        return NotImplemented
    batch, n = cs_prev.shape
    _sequence_kernels(act.dtype.char)[0]((batch,), (launch[0],), (
        act, w_h, h_prev, cs_prev, _peep(peepholes, act), _clip(cell_clip, act.dtype), cs, co, h, np.int64(steps),
        np.int64(batch), np.int64(n), np.int32(peepholes is not None)), shared_mem=launch[1])
    return act


def _gate_strides(gates, itemsize):
    """(time stride, batch stride) in elements shared by the four [time, batch, units] gate arrays, or None."""
    strides = {g.strides for g in gates}
    if len(strides) != 1 or any(g.shape != gates[0].shape or g.dtype != gates[0].dtype for g in gates):
        return None
    t, b, u = strides.pop()
    return None if u != itemsize or t % itemsize or b % itemsize else (t // itemsize, b // itemsize)


def lstm_sequence_grad(gates, cs_prev, cs, co, h_grad, cs_grad, w_h_t, peepholes, cell_clip, steps, dicfo):
    """The backward walk of lstm_sequence in one launch: gates are the activations (i, ci, f, o), each
    [time, batch, units]; w_h_t [4 * units, units] the recurrent weights transposed (unscaled); dicfo
    [time, batch, 4 * units] receives the pre-activations' gradient. Returns (gradient of cs_prev, of h_prev,
    the peephole weights' gradients or None), or NotImplemented (host arrays, or a case it does not take)."""
    if not is_cupy(cs):
        return NotImplemented
    import cupy
    cs_prev, co, h_grad, cs_grad, w_h_t = (cupy.ascontiguousarray(a) for a in (cs_prev, co, h_grad, cs_grad, w_h_t))
    dtype = cs.dtype
    launch = _sequence_launch(cs_prev.shape[-1], cs.itemsize)
    strides = _gate_strides(gates, cs.itemsize)
    dense = (cs_prev, cs, co, h_grad, cs_grad, w_h_t, dicfo)
    if dtype.char not in FLOATS or launch is None or strides is None or gates[0].dtype != dtype \
            or any(a.dtype != dtype or not a.flags.c_contiguous for a in dense):
        return NotImplemented
    batch, n = cs_prev.shape
    dcs, dh = cupy.empty_like(cs_prev), cupy.empty_like(cs_prev)
    _sequence_kernels(dtype.char)[1]((batch,), (launch[0],), (
        *gates, np.int64(strides[0]), np.int64(strides[1]), cs_prev, cs, co, h_grad, cs_grad, w_h_t,
        _peep(peepholes, cs), _clip(cell_clip, dtype), dicfo, dcs, dh, np.int64(steps), np.int64(batch),
        np.int64(n), np.int32(peepholes is not None)), shared_mem=launch[1])
    if peepholes is None:
        return dcs, dh, None
    if not steps:
        return dcs, dh, tuple(cupy.zeros(n, dtype=dtype) for _ in range(3))
    before = cupy.concatenate([cs_prev[None], cs[:steps - 1]])  # each step's cs_prev
    d = dicfo[:steps]
    return dcs, dh, ((d[..., :n] * before).sum(axis=(0, 1)), (d[..., 2 * n:3 * n] * before).sum(axis=(0, 1)),
                     (d[..., 3 * n:] * cs[:steps]).sum(axis=(0, 1)))
