"""Time one training step: ringflow's executor vs PyTorch eager (and, for the MLP sizes, numpy by hand).

All frameworks run in one process, one thread each (BLAS through the environment, PyTorch through
set_num_threads), interleaved repeat by repeat so that the machine's noise hits them alike; the tables give
medians and their ratios. The models are in bench_models.py (same initial values, same batch).

    .venv/bin/python scripts/bench_step.py [--model mlp|cnn|lenet|lstm|gru|keras-cnn|keras-lstm|keras-resnet50[,...]]
        [--optimizer sgd|momentum|adam] [--scale 1.0] [--memory]
    .venv/bin/python scripts/bench_step.py --model mlp [--sizes small,medium,large] [--device gpu]

--model mlp (the default) times the MLP at --sizes against numpy and PyTorch; the other models are timed
against PyTorch, with ringflow's kernels per step and microseconds per kernel. --optimizer (default sgd, plain
SGD) trains the models with TF1's MomentumOptimizer or AdamOptimizer against PyTorch's fused SGD(momentum) or
Adam taking the same steps (bench_models.py); numpy's MLP by hand is SGD only, so with another optimizer the MLP
is timed against PyTorch in the models' table. After the MLP table, the
executor's own cost: the small MLP's Session.run less a bare replay of the steps it runs, per step, and the same for
chains of trivial (Identity) ops, per op. --profile adds where
ringflow's step goes, by op type, and its update ops against PyTorch's optimizer step alone. --memory reports each framework's peak RSS (getrusage) for each model in a
fresh process. --gemm-floor times, in a fresh process per model, the GEMMs one ringflow step makes (numpy.dot
and numpy.matmul, recorded: gemm_floor.py) alone with numpy and with PyTorch on the same shapes: where numpy's are
the slower, that sets a floor under the ratio to PyTorch; its 'hot' columns time each GEMM with its operands in
cache, as a convolution's GEMM finds the columns it has just gathered (the lower floor). --clock cpu times CPU
time instead of wall time (for a busy shared machine). --device gpu runs
ringflow with Session(device="gpu") and PyTorch on CUDA (numpy is left out), both in full float32 (no TF32);
each timed sample then ends with a device synchronize, since a step itself never waits for the GPU.
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import importlib.metadata  # noqa: E402
import resource  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import bench_models  # noqa: E402
import gemm_floor  # noqa: E402
from bench_models import LR  # noqa: E402
from step_profile import TRIVIAL_OPS, executor_cost, kernel_profile, trivial_op_cost  # noqa: E402
from trainer.ops.kernels import cudnn_conv  # noqa: E402

SIZES = {  # name: (layer widths, batch, repeats, steps per timed sample)
    "small": ([32, 64, 64, 10], 32, 400, 20),
    "medium": ([784, 512, 512, 10], 128, 60, 2),
    "large": ([1024, 2048, 2048, 1000], 256, 8, 1),
}
MODEL_REPEATS = {"mlp": (60, 2), "cnn": (40, 1), "lenet": (20, 1), "lstm": (40, 1), "gru": (40, 1),  # (repeats,
                 "keras-cnn": (40, 1), "keras-lstm": (40, 1), "keras-resnet50": (10, 1)}  # steps per sample)
RSS_STEPS = 5
# wall: what a user waits for. cpu: the process's CPU time, which on a busy shared machine leaves out the time
# other processes held the core (each framework runs one thread, so CPU time is its step's time).
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def init(widths, batch, seed=0):
    rng = np.random.default_rng(seed)
    weights = []
    for fan_in, fan_out in zip(widths[:-1], widths[1:]):
        weights.append((rng.standard_normal((fan_in, fan_out)) / np.sqrt(fan_in)).astype(np.float32))
        weights.append(np.zeros(fan_out, dtype=np.float32))
    x = rng.standard_normal((batch, widths[0])).astype(np.float32)
    labels = rng.integers(0, widths[-1], batch)
    return weights, x, labels


def numpy_step(weights, x, labels):
    params = [w.copy() for w in weights]
    rows = np.arange(len(labels))
    lr = np.float32(LR)

    def step():
        acts, h = [x], x
        for i in range(0, len(params), 2):
            h = h @ params[i] + params[i + 1]
            if i + 2 < len(params):
                np.maximum(h, 0, out=h)
                acts.append(h)
        h -= h.max(axis=1, keepdims=True)  # softmax cross-entropy gradient, fused: softmax - one_hot
        np.exp(h, out=h)
        h /= h.sum(axis=1, keepdims=True)
        h[rows, labels] -= 1
        h *= 1 / len(labels)
        g = h
        for i in range(len(params) - 2, -1, -2):
            a = acts[i // 2]
            dw, db = a.T @ g, g.sum(axis=0)
            if i:
                g = g @ params[i].T
                g *= a > 0
            params[i] -= lr * dw
            params[i + 1] -= lr * db
    return step


def torch_mlp_step(weights, x, labels, device="cpu"):
    import torch
    where = "cuda" if device == "gpu" else "cpu"
    params = [torch.tensor(w, requires_grad=True, device=where) for w in weights]
    opt = torch.optim.SGD(params, lr=LR)
    xt, yt = torch.tensor(x, device=where), torch.tensor(labels, device=where)

    def step():
        h = xt
        for i in range(0, len(params), 2):
            h = torch.addmm(params[i + 1], h, params[i])
            if i + 2 < len(params):
                h = torch.relu(h)
        loss = torch.nn.functional.cross_entropy(h, yt)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    return step


def synchronizer(device):
    """A function that waits for the GPU(s) (CuPy's and PyTorch's work), or does nothing on the CPU."""
    if device == "cpu":
        return lambda: None
    import cupy

    def sync():
        cupy.cuda.Device().synchronize()
        try:
            import torch
            torch.cuda.synchronize()
        except (ImportError, RuntimeError):
            pass
    return sync


def interleaved(steps, repeats, inner, sync=lambda: None, clock=time.perf_counter):
    """Median seconds per call of each step function, timed in turn, repeat by repeat."""
    times = {k: [] for k in steps}
    for fn in steps.values():  # warm up: plans, caches, allocator
        for _ in range(3):
            fn()
    for _ in range(repeats):
        for k, fn in steps.items():
            start = clock()
            for _ in range(inner):
                fn()
            sync()
            times[k].append((clock() - start) / inner)
    return {k: float(np.median(v)) for k, v in times.items()}


def gpu_setup():
    """Both frameworks compute float32 in full float32 on the GPU: no TF32 in PyTorch's convolutions or matmuls
    (ringflow's cuDNN graphs leave tensor-core engines out for float32; CuPy's matmuls take TF32 only under
    CUPY_TF32=1). Prints the device and whether ringflow's convolutions go through cuDNN."""
    import cupy
    try:
        import torch
        torch.backends.cudnn.allow_tf32 = False
        torch.backends.cuda.matmul.allow_tf32 = False
    except ImportError:
        pass
    name = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)["name"].decode()
    print(f"GPU: {name}; ringflow's convolutions: {cudnn_conv.why_not() or 'cuDNN'}", flush=True)


def torch_or_none():
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(1)
    return torch


def bench_mlp(name, scale, device="cpu", clock=time.perf_counter):
    widths, batch, repeats, inner = SIZES[name]
    weights, x, labels = init(widths, batch)
    steps = {"numpy": numpy_step(weights, x, labels)} if device == "cpu" else {}
    steps["ringflow"], sess, train, _, feed = bench_models.ringflow_step("mlp", weights, x, labels, device=device)
    if torch_or_none():
        steps["torch"] = torch_mlp_step(weights, x, labels, device)
    t = interleaved(steps, max(3, int(repeats * scale)), inner, synchronizer(device), clock)
    if name == "small" and device == "cpu":
        t["executor"] = executor_cost(sess, train, feed, max(3, int(repeats * scale / 4)), inner * 5, clock)
    return t


def mlp_table(args):
    print(f"{'MLP':8} {'batch':>5} {'numpy ms':>9} {'torch ms':>9} {'ringflow ms':>11} "
          f"{'rf/torch':>8} {'rf/numpy':>8} {'numpy/torch':>11}")
    executors = []
    for name in args.sizes.split(","):
        t = bench_mlp(name, args.scale, args.device, CLOCKS[args.clock])
        t.setdefault("numpy", float("nan"))
        widths, batch = SIZES[name][:2]
        torch_ms = t.get("torch", float("nan")) * 1e3
        if name == "medium":  # bench_models' mlp
            args.measured["mlp"] = (t["ringflow"], t.get("torch", float("nan")))
        print(f"{name:8} {batch:5d} {t['numpy'] * 1e3:9.3f} {torch_ms:9.3f} {t['ringflow'] * 1e3:11.3f} "
              f"{t['ringflow'] * 1e3 / torch_ms:8.2f} {t['ringflow'] / t['numpy']:8.2f} "
              f"{t['numpy'] * 1e3 / torch_ms:11.2f}   {'-'.join(map(str, widths))}", flush=True)
        if "executor" in t:
            executors.append((name, t["executor"]))
    for name, (steps, run, bare) in executors:
        print(f"executor, {name} MLP: Session.run {run * 1e6:.1f} us, its {steps} steps (a fused MatMul, BiasAdd "
              f"and Relu is one) replayed bare {bare * 1e6:.1f} us: {(run - bare) * 1e6 / steps:.2f} us per step",
              flush=True)
    if executors:
        print(f"executor, trivial ops (Identity chains of {' and '.join(map(str, TRIVIAL_OPS))}): "
              f"{trivial_op_cost(clock=CLOCKS[args.clock]):.2f} us per op", flush=True)


def model_row(model, args):
    """Median step times of `model`, ringflow's kernels per step, the first step's loss in both, and with --profile
    PyTorch's optimizer step alone (else None)."""
    params, x, labels = bench_models.init(model)
    step, sess, train, loss, feed = bench_models.ringflow_step(model, params, x, labels, device=args.device,
                                                               optimizer=args.optimizer)
    steps, losses = {"ringflow": step}, {"ringflow": float(sess.run(loss, feed))}
    if torch_or_none():
        steps["torch"], torch_loss = bench_models.torch_step(model, params, x, labels, device=args.device,
                                                             optimizer=args.optimizer)
        losses["torch"] = torch_loss()
    repeats, inner = MODEL_REPEATS[model]
    if args.device != "cpu":  # a GPU step is short: time several per sample, so the synchronize is amortized
        repeats, inner = repeats, inner * 10
    sync = synchronizer(args.device)
    t = interleaved(steps, max(3, int(repeats * args.scale)), inner, sync, clock=CLOCKS[args.clock])
    profile = kernel_profile(sess, train, feed, repeats=max(3, int(10 * args.scale)), clock=CLOCKS[args.clock],
                             sync=sync)
    update = None
    if args.profile and "torch" in steps and args.device == "cpu":
        update = torch_update(model, args.optimizer, max(3, int(10 * args.scale)), CLOCKS[args.clock])
    return t, losses, profile, len(x), update


def torch_update(model, optimizer, repeats, clock):
    """Median seconds of PyTorch's optimizer step alone on `model`'s parameters, holding one batch's gradients."""
    import torch
    params, x, labels = bench_models.init(model)
    net = bench_models.torch_module(model, params)
    opt = bench_models.torch_optimizer(optimizer, net.parameters())
    xt, yt = bench_models.torch_inputs(model, x, labels)
    torch.nn.functional.cross_entropy(net(xt), yt).backward()
    times = []
    for _ in range(repeats + 2):  # the first two build the optimizer's state
        start = clock()
        opt.step()
        times.append(clock() - start)
    return float(np.median(times[2:]))


def model_table(models, args):
    print(f"{'model':6} {'batch':>5} {'torch ms':>9} {'ringflow ms':>11} {'rf/torch':>8} {'kernels':>7} "
          f"{'us/kernel':>9}  first loss rf / torch")
    profiles = {}
    for model in models:
        t, losses, profile, batch, update = model_row(model, args)
        torch_ms = t.get("torch", float("nan")) * 1e3
        rf_ms = t["ringflow"] * 1e3
        print(f"{model:6} {batch:5d} {torch_ms:9.3f} {rf_ms:11.3f} {rf_ms / torch_ms:8.2f} {profile.kernels:7d} "
              f"{rf_ms * 1e3 / profile.kernels:9.1f}  {losses['ringflow']:.6f} / "
              f"{losses.get('torch', float('nan')):.6f}", flush=True)
        profiles[model] = profile, update
        args.measured[model] = (t["ringflow"], t.get("torch", float("nan")))
    if args.profile:
        for model, (profile, torch_update_s) in profiles.items():
            print(f"\n{model}: ringflow's step by op type (median of timed runs, one kernel at a time)")
            print(profile.table())
            updates = sum(s for name, (_, s) in profile.by_type.items() if "Apply" in name)
            if torch_update_s is not None:
                print(f"update ops (Apply*) {updates * 1e3:.3f} ms; PyTorch's {args.optimizer} step alone "
                      f"{torch_update_s * 1e3:.3f} ms")


def rss_child(framework, model, optimizer):
    """Run RSS_STEPS steps of `model` in `framework`; print the peak RSS after imports and after the steps."""
    torch = torch_or_none() if framework == "torch" else None
    imported = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    params, x, labels = bench_models.init(model)
    if framework == "torch":
        step = bench_models.torch_step(model, params, x, labels, optimizer=optimizer)[0]
    else:
        step = bench_models.ringflow_step(model, params, x, labels, optimizer=optimizer)[0]
    for _ in range(RSS_STEPS):
        step()
    del torch
    print(imported, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def memory_table(models, optimizer):
    print(f"peak RSS in a fresh process after {RSS_STEPS} steps (MiB; 'imports' is the peak before the model)")
    print(f"{'model':6} {'torch imports':>13} {'torch peak':>10} {'rf imports':>10} {'rf peak':>8} {'rf/torch':>8}")
    for model in models:
        rss = {}
        for framework in ("ringflow", "torch"):
            out = subprocess.run([sys.executable, __file__, "--rss-child", framework, model, "--optimizer",
                                  optimizer], check=True, capture_output=True, text=True).stdout.split()
            rss[framework] = [int(v) / 1024 for v in out[-2:]]
        (ti, tp), (ri, rp) = rss["torch"], rss["ringflow"]
        print(f"{model:6} {ti:13.1f} {tp:10.1f} {ri:10.1f} {rp:8.1f} {rp / tp:8.2f}", flush=True)


def gemm_child(model, clock):
    """Record one ringflow step's GEMMs of `model` (after warm-up steps) and print their count and the seconds
    they take alone with numpy and with PyTorch."""
    calls = gemm_floor.record(model)
    print(len(calls), *gemm_floor.floor(calls, clock=clock), *gemm_floor.floor(calls, clock=clock, hot=True))


def gemm_table(models, args):
    print(f"GEMMs of one ringflow step alone, same shapes and layouts ({args.clock} clock; 'floor' is numpy's GEMMs "
          "over PyTorch's whole step, a ratio ringflow's step cannot go under with numpy's BLAS; rf/floor: ringflow's "
          "step over its GEMMs alone)")
    print("'hot': each GEMM timed right after an untimed run of it, its operands in cache (as a convolution kernel's "
          "GEMM finds the columns it has just gathered): the lower floor")
    print(f"{'model':6} {'GEMMs':>5} {'numpy ms':>9} {'torch ms':>9} {'np/torch':>8} {'floor':>6} {'rf/torch':>8} "
          f"{'rf/floor':>8} {'hot np ms':>9} {'hot floor':>9} {'rf/hot':>6}")
    for model in models:
        out = subprocess.run([sys.executable, __file__, "--gemm-child", model, "--clock", args.clock], check=True,
                             capture_output=True, text=True).stdout.split()
        count, numpy_s, torch_s, hot_s = int(out[-5]), float(out[-4]), float(out[-3]), float(out[-2])
        rf, torch_step = args.measured.get(model, (float("nan"), float("nan")))
        print(f"{model:6} {count:5d} {numpy_s * 1e3:9.3f} {torch_s * 1e3:9.3f} {numpy_s / torch_s:8.2f} "
              f"{numpy_s / torch_step:6.2f} {rf / torch_step:8.2f} {rf / numpy_s:8.2f} {hot_s * 1e3:9.3f} "
              f"{hot_s / torch_step:9.2f} {rf / hot_s:6.2f}", flush=True)


def header():
    """numpy's BLAS (its kernel: OPENBLAS_CORETYPE may pin it) and the torch version, without importing torch."""
    try:
        import threadpoolctl
        blas = [f"{i['internal_api']} {i.get('version')} kernel={i.get('architecture')} threads={i['num_threads']}"
                for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"]
    except ImportError:
        blas = ["(install threadpoolctl to see numpy's BLAS kernel)"]
    try:
        torch = "torch " + importlib.metadata.version("torch") + " (set_num_threads(1))"
    except importlib.metadata.PackageNotFoundError:
        torch = "torch absent"
    print(f"numpy {np.__version__}: {'; '.join(blas)}; OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE')}; "
          f"{torch}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="mlp", help=f"comma-separated, of {', '.join(bench_models.NAMES)}")
    parser.add_argument("--sizes", default="small,medium,large", help="the MLP sizes (with --model mlp)")
    parser.add_argument("--optimizer", default="sgd", choices=bench_models.OPTIMIZERS,
                        help="the models' optimizer (TF1's; PyTorch's taking the same steps)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the number of repeats")
    parser.add_argument("--device", default="cpu", choices=["cpu", "gpu"])
    parser.add_argument("--profile", action="store_true", help="ringflow's step time by op type")
    parser.add_argument("--clock", default="wall", choices=sorted(CLOCKS), help="wall time or process CPU time")
    parser.add_argument("--memory", action="store_true", help="peak RSS of each framework in fresh processes")
    parser.add_argument("--gemm-floor", action="store_true", help="each model's GEMMs alone: numpy vs PyTorch")
    parser.add_argument("--rss-child", nargs=2, metavar=("FRAMEWORK", "MODEL"), help=argparse.SUPPRESS)
    parser.add_argument("--gemm-child", metavar="MODEL", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.measured = {}  # model: (ringflow, torch) seconds per step, for the GEMM table
    if args.rss_child:
        return rss_child(*args.rss_child, args.optimizer)
    if args.gemm_child:
        return gemm_child(args.gemm_child, CLOCKS[args.clock])
    models = args.model.split(",")
    unknown = [m for m in models if m not in bench_models.NAMES]
    if unknown:
        parser.error(f"unknown model(s) {unknown!r}; known: {', '.join(bench_models.NAMES)}")
    if args.device != "cpu" and (args.memory or args.gemm_floor):
        parser.error("--memory and --gemm-floor measure the host: leave out --device gpu")
    if args.device != "cpu":
        gpu_setup()
    header()
    print(f"optimizer: {args.optimizer}", flush=True)
    if args.memory:  # first: a child's getrusage peak starts at its parent's RSS, so spawn them before torch loads
        memory_table(models, args.optimizer)
    if "mlp" in models and args.optimizer == "sgd":
        mlp_table(args)
    table = [m for m in models if m != "mlp" or args.profile or args.optimizer != "sgd"]
    if table:
        model_table(table, args)
    if args.gemm_floor:
        gemm_table(models, args)
    if args.device != "cpu":
        print(f"convolutions through cuDNN: {cudnn_conv.stats['cudnn']}; graphs declined: "
              f"{len(cudnn_conv.declined)} {list(cudnn_conv.declined.items())[:3]}")


if __name__ == "__main__":
    main()
