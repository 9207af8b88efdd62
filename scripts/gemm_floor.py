"""The GEMMs of one ringflow step timed alone, with numpy and with PyTorch on the same shapes and layouts.

A step cannot run faster than its matrix products: where numpy's BLAS is slower than PyTorch's on those very
shapes, that alone sets a floor under ringflow's step against PyTorch's. `Recorder()` wraps numpy.dot and
numpy.matmul, where ringflow's kernels look them up (at call time, or when a plan builds its kernels), so make
it before the session and time steps in another process; `floor(calls)` replays what it recorded.

Run as a script, it asks whether another memory order would make those GEMMs cheaper:

    .venv/bin/python scripts/gemm_floor.py [--model lenet,cnn] [--clock cpu] [--repeats 9]

For each distinct GEMM of one step (same shapes and memory orders, how many calls) it prints the time as replayed
by `floor` (every call on its own copy of the operands, so they come from memory), as run again on operands in cache
(where a kernel's GEMM finds columns it has just gathered), and, in cache too, each equivalent form of the product:
A @ B with either operand in C or Fortran order, and (Bᵀ @ Aᵀ)ᵀ with the same choices, each with the cost of
producing that order from the recorded one (a transposing copy of an operand or of the result; free where it is
the recorded order or a view of it). Then, for each convolution of the model, the im2col layouts a kernel could
gather (patch rows in the filter's (kh, kw, cin) order, in (cin, kh, kw) order, or tap-major: each tap's shifted
plane copied whole into a (kh*kw*cin, pixels) block) with each one's gather and its forward and filter-gradient
GEMMs, a batch slice of about 4 MiB of columns at a time as the kernels take them, and the input gradient taken
the other way, as one GEMM and a col2im.
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import ctypes  # noqa: E402
import itertools  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import bench_models  # noqa: E402
from trainer.ops.kernels.conv import CHUNK_BYTES, scatter_windows  # noqa: E402
from trainer.ops.kernels import gemm as gemm_kernels  # noqa: E402


class Recorder:
    """While `recording` is true, keeps a copy of the operands (same shapes, same memory order) of every
    numpy.dot and numpy.matmul call, of each step StepProducts adds by BLAS, of every gemm.dot_add (SGD's update
    fused with its gradient's GEMM), every product_adder call (a row-window convolution's filter rows) and every
    direct_product call (OpenBLAS's unpacked sgemm_direct), each as the numpy.dot it equals or adds; the wrappers stay
    in place for the rest of the process."""

    def __init__(self):
        self.calls, self.recording = [], False
        add, dot, dot_add = gemm_kernels.StepProducts.add, np.dot, gemm_kernels.dot_add
        for name in ("dot", "matmul"):
            setattr(np, name, self._wrap(getattr(np, name)))

        def added(products, t):
            if self.recording:
                a, b = products.operands(t)
                self.calls.append((dot, _copy(a), _copy(b).T, None))
            return add(products, t)
        gemm_kernels.StepProducts.add = added

        def recorded_add(a, b, out, alpha=1.0):
            if self.recording:
                self.calls.append((dot, _copy(a), _copy(b), None))
            return dot_add(a, b, out, alpha)
        gemm_kernels.dot_add = recorded_add
        adder = gemm_kernels.product_adder

        def recorded_adder(dtype):
            add = adder(dtype)
            if add is None:
                return None

            def recorded(m, n, k, a_at, b_at, out_at):
                if self.recording:
                    self.calls.append((dot, _at(a_at, (m, k), dtype), _at(b_at, (k, n), dtype), None))
                return add(m, n, k, a_at, b_at, out_at)
            return recorded
        gemm_kernels.product_adder = recorded_adder
        direct_product = gemm_kernels.direct_product

        def recorded_direct(dtype, m, n, k):
            mul = direct_product(dtype, m, n, k)
            if mul is None:
                return None

            def recorded(rows, depth, a_at, lda, b_at, ldb, out_at, ldo):
                if self.recording:
                    self.calls.append((dot, _at(a_at, (rows, depth), dtype, lda), _at(b_at, (depth, n), dtype, ldb),
                                       None))
                return mul(rows, depth, a_at, lda, b_at, ldb, out_at, ldo)
            return recorded
        gemm_kernels.direct_product = recorded_direct

    def _wrap(self, gemm):
        def recorded(a, b, out=None, **kwargs):
            if self.recording:
                self.calls.append((gemm, _copy(a), _copy(b), None if out is None else _copy(out)))
            return gemm(a, b, **kwargs) if out is None else gemm(a, b, out=out, **kwargs)
        return recorded


def _at(address, shape, dtype, ld=None):
    """A C-contiguous copy of the (rows, columns) array of `dtype` at `address` whose rows are `ld` elements apart
    (default: its columns; a product_adder's or direct_product's operand)."""
    (rows, columns), item = shape, np.dtype(dtype).itemsize
    ld = columns if ld is None else ld
    size = ((rows - 1) * ld + columns) * item if rows and columns else 0
    flat = np.frombuffer((ctypes.c_char * size).from_address(address), dtype)
    return np.lib.stride_tricks.as_strided(flat, shape, (ld * item, item)).copy()


def _copy(a):
    return np.array(a, order="K", copy=True) if isinstance(a, np.ndarray) else a


def floor(calls, repeats=15, clock=time.process_time, hot=False):
    """(numpy seconds, PyTorch seconds) for the recorded GEMMs, each the median over `repeats` rounds of the
    sum over all of them, the two interleaved round by round; products that are not 2-D by 2-D count numpy's
    time on both sides. Each call has its own copy of its operands, so in turn they come from memory; `hot`
    times each call right after an untimed run of it instead, its operands in cache, as a convolution kernel's
    GEMM finds the columns it has just gathered (LeNet's GEMMs take some 25% less so)."""
    import torch
    torch.set_num_threads(1)
    numpy_calls = [(lambda g=g, a=a, b=b, o=o: g(a, b) if o is None else g(a, b, out=o)) for g, a, b, o in calls]
    torch_calls = []
    for (g, a, b, o), mine in zip(calls, numpy_calls):
        if np.ndim(a) == np.ndim(b) == 2:
            ta, tb = torch.from_numpy(a), torch.from_numpy(b)
            to = None if o is None else torch.from_numpy(o)
            torch_calls.append(lambda ta=ta, tb=tb, to=to: torch.mm(ta, tb) if to is None else torch.mm(ta, tb, out=to))
        else:
            torch_calls.append(mine)
    rounds = {"numpy": [], "torch": []}
    for fns in (numpy_calls, torch_calls):  # warm up
        for fn in fns:
            fn()
    for _ in range(repeats):
        for name, fns in (("numpy", numpy_calls), ("torch", torch_calls)):
            if hot:
                took = 0.0
                for fn in fns:
                    fn()
                    start = clock()
                    fn()
                    took += clock() - start
            else:
                start = clock()
                for fn in fns:
                    fn()
                took = clock() - start
            rounds[name].append(took)
    return float(np.median(rounds["numpy"])), float(np.median(rounds["torch"]))


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
SLICE_BYTES = CHUNK_BYTES  # the columns of a batch slice, as trainer/ops/kernels/conv.py takes them


def _median_ms(fn, repeats, clock):
    fn()
    times = []
    for _ in range(repeats):
        start = clock()
        fn()
        times.append(clock() - start)
    return float(np.median(times)) * 1e3


def _order(a):
    return "C" if a.flags.c_contiguous else "F" if a.flags.f_contiguous else "strided"


def _in_order(a, order):
    return np.ascontiguousarray(a) if order == "C" else np.asfortranarray(a)


def record(model):
    """The numpy.dot/matmul calls of one ringflow step of `model` (after two warm-up steps)."""
    recorder = Recorder()
    params, x, labels = bench_models.init(model)
    step = bench_models.ringflow_step(model, params, x, labels)[0]
    for _ in range(2):
        step()
    recorder.recording = True
    step()
    recorder.recording = False
    return recorder.calls


def grouped(calls):
    """{(a shape, a order, b shape, b order): [(a, b), ...]} of the 2-D by 2-D products among `calls`."""
    groups = {}
    for _, a, b, _ in calls:
        if np.ndim(a) == np.ndim(b) == 2:
            groups.setdefault((a.shape, _order(a), b.shape, _order(b)), []).append((a, b))
    return groups


def forms(a, b):
    """[(name, make, gemm)]: the equivalent forms of the product a @ b. make() returns the two operands in the
    form's memory order (copies where that is not the order given); gemm(ma, mb) returns the product in C order:
    A @ B, or (Bᵀ @ Aᵀ)ᵀ, whose result BLAS writes transposed and a copy turns back."""
    def direct(ma, mb):
        return np.dot(ma, mb)

    def swapped(ma, mb):
        return np.ascontiguousarray(np.dot(mb.T, ma.T).T)
    return [(f"{label} A {oa} B {ob}", lambda oa=oa, ob=ob: (_in_order(a, oa), _in_order(b, ob)), gemm)
            for oa, ob in itertools.product("CF", "CF") for label, gemm in (("A@B    ", direct), ("(BtAt)t", swapped))]


def gemm_table(model, repeats, clock):
    print(f"\n{model}: each distinct GEMM of one step, ms for all its calls (cold: floor()'s replay, operands from "
          "memory; hot: the same call again, operands in cache); then each form, hot, its GEMM (with the copy that "
          "turns a transposed result back) + the copies that give its operands their memory order")
    for (sa, oa, sb, ob), pairs in grouped(record(model)).items():
        cold = _median_ms(lambda: [np.dot(a, b) for a, b in pairs], repeats, clock)
        a, b = pairs[0]
        hot = _median_ms(lambda: np.dot(a, b), repeats, clock) * len(pairs)
        print(f"  {len(pairs):3d} x {sa} {oa} @ {sb} {ob}: cold {cold:8.3f}  hot {hot:8.3f}")
        rows = []
        for name, make, gemm in forms(a, b):
            ma, mb = make()
            made = 0.0 if (_order(ma), _order(mb)) == (oa, ob) else _median_ms(make, repeats, clock)
            rows.append((name, _median_ms(lambda: gemm(ma, mb), repeats, clock) * len(pairs), made * len(pairs)))
        best = min(g + m for _, g, m in rows)
        for name, g, m in rows:
            print(f"        {name:20} {g:8.3f} + {m:7.3f} {'<- best' if g + m == best else ''}")


def _windows(xpad, k, ho, wo):
    """(N, Ho, Wo, k, k, C) view of stride-1 windows of padded NHWC images."""
    n, _, _, c = xpad.shape
    sn, sh, sw, sc = xpad.strides
    return np.lib.stride_tricks.as_strided(xpad, (n, ho, wo, k, k, c), (sn, sh, sw, sh, sw, sc))


def gather_rows(xpad, k, ho, wo, buf, cin_first=False):
    """im2col into buf as (pixels, k*k*C) rows, in the filter's (kh, kw, cin) order or in (cin, kh, kw) order."""
    win = _windows(xpad, k, ho, wo)
    win = win.transpose(0, 1, 2, 5, 3, 4) if cin_first else win
    cols = buf[:win.size].reshape(win.shape)
    cols[...] = win
    return cols.reshape(-1, win.shape[3] * win.shape[4] * win.shape[5])


def gather_tap_major(xpad, k, ho, wo, buf):
    """im2col into buf as the transpose of a (k*k*C, pixels) block: each tap's shifted plane copied whole."""
    n, _, _, c = xpad.shape
    cols_t = buf[:k * k * c * n * ho * wo].reshape(k, k, c, n, ho, wo)
    for i in range(k):
        for j in range(k):
            cols_t[i, j] = xpad[:, i:i + ho, j:j + wo].transpose(3, 0, 1, 2)
    return cols_t.reshape(k * k * c, -1).T


def conv_layers(model):
    """[(name, x shape, filter size, out channels)] of each SAME stride-1 convolution of a bench model, and the
    input gradient of each but the first as the convolution of the output gradient that the kernel runs."""
    (h, w, c), convs, _, batch = bench_models.CONVNETS[model]
    layers = []
    for i, (k, o) in enumerate(convs):
        layers.append((f"conv{i + 1}", (batch, h, w, c), k, o))
        if i:
            layers.append((f"conv{i + 1} dX", (batch, h, w, o), k, c))
        c, h, w = o, h // 2, w // 2
    return layers


def gather_table(model, repeats, clock):
    print(f"\n{model}: im2col layouts, ms per batch, slices of about {SLICE_BYTES >> 20} MiB of columns gathered in "
          "turn into one buffer, as the kernels do: the gather alone, then the gather with the forward GEMM "
          "(cols @ W) or the filter gradient's (colsT @ g) on each slice while it is in cache")
    rng = np.random.default_rng(0)
    for name, (n, h, w, c), k, o in conv_layers(model):
        x = rng.standard_normal((n, h + k - 1, w + k - 1, c)).astype(np.float32)
        wt = rng.standard_normal((k * k * c, o)).astype(np.float32)
        g = rng.standard_normal((n * h * w, o)).astype(np.float32)
        out = np.empty_like(g)
        per = max(1, SLICE_BYTES // (h * w * k * k * c * 4))
        slices = [(s, min(s + per, n)) for s in range(0, n, per)]
        for layout, gather in (("rows (kh,kw,cin)", lambda xs, buf: gather_rows(xs, k, h, w, buf)),
                               ("rows (cin,kh,kw)", lambda xs, buf: gather_rows(xs, k, h, w, buf, cin_first=True)),
                               ("tap-major", lambda xs, buf: gather_tap_major(xs, k, h, w, buf))):
            buf = np.empty(per * h * w * k * k * c, np.float32)

            def run(gemm):
                for s, e in slices:
                    gemm(gather(x[s:e], buf), s * h * w, e * h * w)
            took = [_median_ms(lambda: run(lambda m, s, e: None), repeats, clock),
                    _median_ms(lambda: run(lambda m, s, e: np.dot(m, wt, out=out[s:e])), repeats, clock),
                    float("nan") if name.endswith("dX") else
                    _median_ms(lambda: run(lambda m, s, e: np.dot(m.T, g[s:e])), repeats, clock)]
            print(f"  {name:9} {(n, h, w, c)} k={k} out={o}: {layout:17} gather {took[0]:7.3f}  with forward "
                  f"{took[1]:7.3f}  with filter grad {took[2]:7.3f}  (cols {_order(gather(x[:1], buf))})")
        if name.endswith("dX"):
            col2im(n, h, w, k, c, o, repeats, clock)


def col2im(n, h, w, k, c, o, repeats, clock):
    """The input gradient the other way: one GEMM of the output gradient (N*H*W, c) by the transposed forward
    filter, then each window's values added back onto the image (the kernels' path for strided and VALID ones)."""
    rng = np.random.default_rng(1)
    dy = rng.standard_normal((n * h * w, c)).astype(np.float32)
    w_t = rng.standard_normal((k * k * o, c)).astype(np.float32).T
    pads = ((k - 1) // 2, k - 1 - (k - 1) // 2)
    dcols = np.dot(dy, w_t).reshape(n, h, w, k, k, o)
    gemms = [_median_ms(lambda: np.dot(dy, w_t), repeats, clock),
             _median_ms(lambda: np.ascontiguousarray(np.dot(w_t.T, dy.T).T), repeats, clock)]
    scatter = _median_ms(lambda: np.ascontiguousarray(scatter_windows(dcols, (n, h, w, o), (1, 1), pads, pads)),
                         repeats, clock)
    print(f"  {'':9} {(n, h, w, c)} k={k} out={o}: col2im, whole batch: GEMM {gemms[0]:7.3f} (as (BtAt)t "
          f"{gemms[1]:7.3f}) + adding the windows back {scatter:7.3f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="lenet,cnn", help="comma-separated, of the convolutional bench models")
    parser.add_argument("--clock", default="cpu", choices=sorted(CLOCKS))
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args()
    print(f"numpy {np.__version__}, OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE')} (unset: OpenBLAS picks "
          f"the kernel for this CPU), {args.clock} clock, medians of {args.repeats}")
    for model in args.model.split(","):
        if model not in bench_models.CONVNETS:
            parser.error(f"unknown model {model!r}; known: {', '.join(bench_models.CONVNETS)}")
        gemm_table(model, args.repeats, CLOCKS[args.clock])
        gather_table(model, args.repeats, CLOCKS[args.clock])


if __name__ == "__main__":
    main()
