"""The fused CuPy kernels (trainer/ops/kernels/cuda_kernels.py) against the numpy path they replace, and a training step
through them equal to the CPU's in float64. Marked `gpu`: without CuPy and a CUDA GPU they skip."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.client.test_gpu import needs_gpu
from trainer.framework.registry import op_def
from trainer.train import training_ops

RNG = np.random.default_rng(0)
XENT, RELU_GRAD = op_def("SparseSoftmaxCrossEntropyWithLogits"), op_def("ReluGrad")
TOLERANCE = {np.float32: dict(rtol=2e-5, atol=1e-6), np.float64: dict(rtol=1e-12, atol=1e-14)}
DTYPES = pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: d.__name__)


def on_gpu_and_cpu(fn, *arrays):
    """fn on device copies of `arrays` and on `arrays` themselves, both as numpy."""
    import cupy
    to_host = lambda out: tuple(map(cupy.asnumpy, out)) if isinstance(out, tuple) else cupy.asnumpy(out)
    return to_host(fn(*map(cupy.asarray, arrays))), fn(*arrays)


def assert_close(gpu, cpu, dtype):
    for g, c in zip(gpu if isinstance(gpu, tuple) else [gpu], cpu if isinstance(cpu, tuple) else [cpu]):
        assert g.dtype == c.dtype and g.shape == c.shape
        np.testing.assert_allclose(g, c, **TOLERANCE[dtype])


@needs_gpu
@DTYPES
@pytest.mark.parametrize("label_dtype", [np.int32, np.int64, np.uint8], ids=lambda d: d.__name__)
@pytest.mark.parametrize("shape", [(1, 1000), (37, 1000), (129, 10), (5, 3, 257), (7, 1)], ids=str)
def test_sparse_softmax_cross_entropy_matches_numpy(dtype, label_dtype, shape):
    logits = (RNG.standard_normal(shape) * 4).astype(dtype)
    labels = RNG.integers(0, min(shape[-1], 256), shape[:-1]).astype(label_dtype)
    gpu, cpu = on_gpu_and_cpu(XENT.forward, logits, labels)
    assert_close(gpu, cpu, dtype)


@needs_gpu
@DTYPES
def test_sparse_softmax_cross_entropy_of_large_logits_is_stable(dtype):
    logits = np.array([[1e4, 0, -1e4], [-1e4, -1e4, -1e4]], dtype)
    gpu, cpu = on_gpu_and_cpu(XENT.forward, logits, np.array([1, 2]))
    assert np.isfinite(gpu[0]).all()
    assert_close(gpu, cpu, dtype)


@needs_gpu
def test_sparse_softmax_cross_entropy_gives_nan_rows_for_labels_out_of_range_as_tf1_on_gpu():
    import cupy
    logits = RNG.standard_normal((4, 10))
    loss, grad = XENT.forward(cupy.asarray(logits), cupy.asarray([3, 10, -1, 9]))
    loss, grad = cupy.asnumpy(loss), cupy.asnumpy(grad)
    assert np.isnan(loss[1:3]).all() and np.isnan(grad[1:3]).all()
    expected = XENT.forward(logits[[0, 3]], np.array([3, 9]))
    np.testing.assert_allclose(loss[[0, 3]], expected[0], rtol=1e-12)
    np.testing.assert_allclose(grad[[0, 3]], expected[1], rtol=1e-12, atol=1e-15)


@needs_gpu
@DTYPES
@pytest.mark.parametrize("shape", [(37, 1000), (7,)], ids=str)
def test_relu_grad_and_its_inplace_form_match_numpy(dtype, shape):
    g, y = RNG.standard_normal(shape).astype(dtype), RNG.standard_normal(shape).astype(dtype)
    y.flat[0] = 0  # the boundary: no gradient at 0, as numpy's y > 0
    assert_close(*on_gpu_and_cpu(RELU_GRAD.forward, g, y), dtype)
    assert_close(*on_gpu_and_cpu(lambda a, b: RELU_GRAD.inplace(a.copy(), b), g, y), dtype)


@needs_gpu
@DTYPES
@pytest.mark.parametrize("lr_on_device", [True, False], ids=["lr-device", "lr-host"])
@pytest.mark.parametrize("shape", [(1000, 37), (7,), ()], ids=str)
def test_gradient_descent_update_matches_numpy(dtype, lr_on_device, shape):
    import cupy
    var, grad = RNG.standard_normal(shape).astype(dtype), RNG.standard_normal(shape).astype(dtype)
    lr = dtype(0.1)
    expected = var.copy()
    training_ops.apply_gradient_descent(expected, lr, grad)
    var_d = cupy.asarray(var)
    training_ops.apply_gradient_descent(var_d, cupy.asarray(lr) if lr_on_device else 0.1, cupy.asarray(grad))
    assert_close(cupy.asnumpy(var_d), expected, dtype)


@needs_gpu
@DTYPES
@pytest.mark.parametrize("nesterov", [False, True], ids=["plain", "nesterov"])
def test_momentum_update_matches_numpy(dtype, nesterov):
    import cupy
    var, accum, grad = (RNG.standard_normal((257, 3)).astype(dtype) for _ in range(3))
    lr, momentum = dtype(0.1), dtype(0.9)
    expected = var.copy(), accum.copy()
    training_ops.apply_momentum(*expected, lr, grad, momentum, use_nesterov=nesterov)
    got = cupy.asarray(var), cupy.asarray(accum)
    training_ops.apply_momentum(*got, cupy.asarray(lr), cupy.asarray(grad), cupy.asarray(momentum),
                                use_nesterov=nesterov)
    for g, e in zip(got, expected):
        assert_close(cupy.asnumpy(g), e, dtype)


def mlp_step(device, optimizer, batch=37, widths=(20, 16, 1000)):
    """Variables after one step of a relu MLP with a sparse softmax cross-entropy loss, in float64."""
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal((batch, widths[0])), rng.integers(0, widths[-1], batch)
    with tg.Graph().as_default():
        h, labels = tg.placeholder(tg.float64, [None, widths[0]]), tg.placeholder(tg.int64, [None])
        feed = {h: x, labels: y}
        for i, (n_in, n_out) in enumerate(zip(widths[:-1], widths[1:])):
            w = tg.Variable(rng.standard_normal((n_in, n_out)) / np.sqrt(n_in), name=f"w{i}")
            h = tg.nn.bias_add(tg.matmul(h, w), tg.Variable(rng.standard_normal(n_out) * 0.1, name=f"b{i}"))
            h = tg.nn.relu(h) if i + 2 < len(widths) else h
        loss = tg.reduce_mean(tg.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=h))
        step = optimizer().minimize(loss)
        with tg.Session(device=device) as sess:
            sess.run(tg.global_variables_initializer())
            sess.run(step, feed)
            return sess.run({v.name: v for v in tg.global_variables()})


@needs_gpu
@pytest.mark.parametrize("optimizer", [lambda: tg.train.GradientDescentOptimizer(0.5),
                                       lambda: tg.train.MomentumOptimizer(0.5, 0.9, use_nesterov=True)],
                         ids=["sgd", "nesterov"])
def test_a_training_step_through_the_fused_kernels_equals_the_cpu_step_in_float64(optimizer):
    cpu, gpu = mlp_step("cpu", optimizer), mlp_step("gpu", optimizer)
    assert sorted(cpu) == sorted(gpu)
    for name in cpu:
        np.testing.assert_allclose(gpu[name], cpu[name], rtol=1e-9, atol=1e-12, err_msg=name)

