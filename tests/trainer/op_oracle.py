"""One helper for every op test: forward values and gradients against independent oracles.

check_op builds the op on placeholders, then compares
  * its float64 gradient with a central-difference numerical gradient (always),
  * its forward value and gradient with PyTorch's, in float64 and float32, when torch is installed
    and the test gives a torch version of the op (else with a numpy reference if one is given),
  * its float32 results with its own float64 results.
Assertion messages name the stage that failed, the dtype and the input.
"""
import numpy as np
import pytest

import trainer as tg

try:
    import torch
except ImportError:  # the torch comparisons are skipped, the numerical ones still run
    torch = None

TOLERANCE = {np.float64: dict(rtol=1e-7, atol=1e-9), np.float32: dict(rtol=2e-4, atol=2e-5)}


def _run(build, arrays, dtype, dynamic, cotangent, wrt):
    graph = tg.Graph()
    with graph.as_default():
        xs = [tg.placeholder(a.dtype if a.dtype.kind not in "f" else dtype,
                             None if dynamic else a.shape, name=f"x{i}") for i, a in enumerate(arrays)]
        out = build(*xs)
        feed = {x: a.astype(x.dtype) for x, a in zip(xs, arrays)}
        targets = [xs[i] for i in wrt]
        grads = []
        if cotangent is not None:
            grads = tg.gradients(out, targets, grad_ys=tg.constant(cotangent.astype(dtype)))
        sess = tg.Session(graph)
        value = sess.run(out, feed)
        grad_values = sess.run([g for g in grads if g is not None], feed)
        objective = lambda values: np.sum(sess.run(out, {**feed, **dict(zip(targets, values))}) * cotangent)
    it = iter(grad_values)
    grad_values = [next(it) if g is not None else None for g in grads]
    return np.asarray(value), grad_values, objective, out


def numerical_gradient(objective, arrays, eps=1e-6):
    """Central differences of a scalar function of several arrays."""
    grads = []
    for k, a in enumerate(arrays):
        g = np.zeros_like(a)
        for idx in np.ndindex(a.shape):
            values = [x.copy() for x in arrays]
            values[k][idx] = a[idx] + eps
            up = objective(values)
            values[k][idx] = a[idx] - eps
            down = objective(values)
            g[idx] = (up - down) / (2 * eps)
        grads.append(g)
    return grads


def _torch_reference(torch_fn, arrays, dtype, cotangent, wrt):
    tdtype = {np.float64: torch.float64, np.float32: torch.float32}[dtype]
    ts = [torch.tensor(a, dtype=tdtype if a.dtype.kind == "f" else None, requires_grad=i in wrt)
          for i, a in enumerate(arrays)]
    out = torch_fn(*ts)
    grads = []
    if cotangent is not None:
        grads = torch.autograd.grad(out, [ts[i] for i in wrt], torch.tensor(cotangent, dtype=tdtype),
                                    allow_unused=True)
        grads = [None if g is None else g.numpy() for g in grads]
    return out.detach().numpy(), grads


def _close(stage, actual, expected, tol):
    assert actual is not None, f"{stage}: no gradient (None) where one was expected"
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape, f"{stage}: shape {actual.shape} != expected {expected.shape}"
    np.testing.assert_allclose(actual.astype(np.float64), expected.astype(np.float64), err_msg=stage, **tol)


def check_op(build, arrays, torch_fn=None, numpy_fn=None, grad=True, wrt=None, dtypes=(np.float64, np.float32),
             dynamic=False, tol32=None, seed=0):
    """Check `build(*tensors)` on `arrays` (float64 masters; ints are passed through as they are)."""
    arrays = [np.asarray(a) for a in arrays]
    wrt = [i for i, a in enumerate(arrays) if a.dtype.kind == "f"] if wrt is None else wrt
    rng = np.random.default_rng(seed)
    results, cotangent = {}, None
    for dtype in dtypes:
        tol = dict(TOLERANCE[dtype], **(tol32 or {})) if dtype == np.float32 else TOLERANCE[dtype]
        if grad and cotangent is None:
            cotangent = rng.standard_normal(_run(build, arrays, dtype, dynamic, None, wrt)[0].shape)
        value, grads, objective, out = _run(build, arrays, dtype, dynamic, cotangent, wrt)
        label = f"{out.op.type} {dtype.__name__} inputs {[a.shape for a in arrays]}"
        if value.dtype.kind == "f":
            assert value.dtype == dtype, f"{label} forward dtype: {value.dtype} is not {dtype.__name__}"
        if out.ndim is not None:
            assert len(out.shape) == value.ndim and all(s is None or s == d for s, d in zip(out.shape, value.shape)), \
                f"{label} static shape {out.shape} does not match the value's {value.shape}"
        if dtype == np.float64 and grad:
            numeric = numerical_gradient(objective, [arrays[i].astype(np.float64) for i in wrt])
            for i, g, n in zip(wrt, grads, numeric):
                _close(f"{label}: gradient wrt input {i} vs numerical", g, n, dict(rtol=1e-5, atol=1e-6))
        if torch is not None and torch_fn is not None:
            t_value, t_grads = _torch_reference(torch_fn, arrays, dtype, cotangent, wrt)
            _close(f"{label}: forward vs torch", value, t_value, tol)
            for i, g, t in zip(wrt, grads, t_grads):
                if t is not None:
                    _close(f"{label}: gradient wrt input {i} vs torch", g, t, tol)
        elif numpy_fn is not None:
            _close(f"{label}: forward vs numpy reference", value, numpy_fn(*arrays), tol)
        if np.float64 in results and dtype == np.float32:
            v64, g64 = results[np.float64]
            _close(f"{label}: float32 forward vs float64", value, v64, tol)
            for i, g, g2 in zip(wrt, grads, g64):
                if g2 is not None:
                    _close(f"{label}: float32 gradient wrt input {i} vs float64", g, g2, tol)
        results[dtype] = (value, grads)
    return results


def run_initialized(fetch, feed=None):
    """`fetch` run once in a new session of the default graph, after its variables are initialized."""
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        return sess.run(fetch, feed)


@pytest.fixture(autouse=True)
def fresh_graph():
    """Each test of a module that imports this fixture builds in a graph of its own."""
    with tg.Graph().as_default() as graph:
        yield graph
