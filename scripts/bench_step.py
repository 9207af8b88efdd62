"""Time one SGD training step of an MLP: ringflow's executor vs the same step in numpy by hand vs PyTorch eager.

All three run in one process, one thread each, interleaved repeat by repeat so that the machine's noise
hits them alike; the table gives medians and their ratios.

    .venv/bin/python scripts/bench_step.py [--sizes small,medium,large] [--scale 1.0] [--device gpu]

--device gpu runs ringflow with Session(device="gpu") and PyTorch on CUDA (numpy is left out); each timed
sample ends with a device synchronize, since a step itself never waits for the GPU.
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import trainer as tg  # noqa: E402

SIZES = {  # name: (layer widths, batch, repeats, steps per timed sample)
    "small": ([32, 64, 64, 10], 32, 400, 20),
    "medium": ([784, 512, 512, 10], 128, 60, 2),
    "large": ([1024, 2048, 2048, 1000], 256, 8, 1),
}
LR = 0.01


def init(widths, batch, seed=0):
    rng = np.random.default_rng(seed)
    weights = []
    for fan_in, fan_out in zip(widths[:-1], widths[1:]):
        weights.append((rng.standard_normal((fan_in, fan_out)) / np.sqrt(fan_in)).astype(np.float32))
        weights.append(np.zeros(fan_out, dtype=np.float32))
    x = rng.standard_normal((batch, widths[0])).astype(np.float32)
    labels = rng.integers(0, widths[-1], batch)
    return weights, x, labels


def ringflow_step(weights, x, labels, device="cpu"):
    graph = tg.Graph()
    with graph.as_default():
        xt = tg.placeholder(tg.float32, [None, x.shape[1]], name="x")
        yt = tg.placeholder(tg.int64, [None], name="labels")
        h = xt
        params = [tg.Variable(w, name=f"p{i}") for i, w in enumerate(weights)]
        for i in range(0, len(params), 2):
            h = tg.nn.bias_add(tg.matmul(h, params[i]), params[i + 1])
            if i + 2 < len(params):
                h = tg.nn.relu(h)
        loss = tg.reduce_mean(tg.nn.sparse_softmax_cross_entropy_with_logits(labels=yt, logits=h))
        train = tg.train.GradientDescentOptimizer(LR).minimize(loss)
        sess = tg.Session(device=device)
        sess.run(tg.global_variables_initializer())
    feed = {xt: x, yt: labels}
    return lambda: sess.run(train, feed)


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


def torch_step(weights, x, labels, device="cpu"):
    import torch
    torch.set_num_threads(1)
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


def bench(name, scale, device="cpu"):
    widths, batch, repeats, inner = SIZES[name]
    weights, x, labels = init(widths, batch)
    steps = {"numpy": numpy_step(weights, x, labels)} if device == "cpu" else {}
    steps["ringflow"] = ringflow_step(weights, x, labels, device)  # after numpy: the order of earlier runs
    try:
        steps["torch"] = torch_step(weights, x, labels, device)
    except ImportError:
        pass
    sync = synchronizer(device)
    times = {k: [] for k in steps}
    for fn in steps.values():  # warm up: plans, caches, allocator
        for _ in range(3):
            fn()
    for _ in range(max(3, int(repeats * scale))):
        for k, fn in steps.items():
            start = time.perf_counter()
            for _ in range(inner):
                fn()
            sync()
            times[k].append((time.perf_counter() - start) / inner)
    return {k: float(np.median(v)) for k, v in times.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="small,medium,large")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the number of repeats")
    parser.add_argument("--device", default="cpu", choices=["cpu", "gpu"])
    args = parser.parse_args()
    print(f"{'MLP':8} {'batch':>5} {'numpy ms':>9} {'torch ms':>9} {'ringflow ms':>11} "
          f"{'rf/torch':>8} {'rf/numpy':>8} {'numpy/torch':>11}")
    for name in args.sizes.split(","):
        t = bench(name, args.scale, args.device)
        t.setdefault("numpy", float("nan"))
        widths, batch = SIZES[name][:2]
        torch_ms = t.get("torch", float("nan")) * 1e3
        print(f"{name:8} {batch:5d} {t['numpy'] * 1e3:9.3f} {torch_ms:9.3f} {t['ringflow'] * 1e3:11.3f} "
              f"{t['ringflow'] * 1e3 / torch_ms:8.2f} {t['ringflow'] / t['numpy']:8.2f} "
              f"{t['numpy'] * 1e3 / torch_ms:11.2f}   {'-'.join(map(str, widths))}", flush=True)


if __name__ == "__main__":
    main()
