"""device="gpu": a clear error without CuPy; with a GPU, the same training as on the CPU."""
import numpy as np
import pytest

import trainer as tg


def gpu_available():
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


@pytest.mark.skipif(gpu_available(), reason="a GPU is present")
def test_gpu_session_without_cupy_says_what_to_install():
    with pytest.raises(RuntimeError, match=r"device='gpu' needs CuPy and a CUDA GPU .*ringflow\[gpu\]"):
        tg.Session(device="gpu")


def test_unknown_device_is_named():
    with pytest.raises(ValueError, match="Unknown device 'tpu'"):
        tg.Session(device="tpu")


def train_mlp(device):
    tg.reset_default_graph()
    tg.set_random_seed(0)
    x = tg.placeholder(tg.float64, [None, 8])
    y = tg.placeholder(tg.int32, [None])
    h = tg.nn.relu(tg.matmul(x, tg.get_variable("w1", [8, 16], tg.float64)) + tg.get_variable("b1", [16], tg.float64))
    logits = tg.matmul(h, tg.get_variable("w2", [16, 3], tg.float64))
    loss = tg.reduce_mean(tg.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    train = tg.train.AdamOptimizer(0.01).minimize(loss)
    rng = np.random.default_rng(1)
    data_x, data_y = rng.standard_normal((32, 8)), rng.integers(0, 3, 32).astype(np.int32)
    with tg.Session(device=device) as sess:
        sess.run(tg.global_variables_initializer())
        return [float(sess.run([train, loss], {x: data_x, y: data_y})[1]) for _ in range(10)]


@pytest.mark.skipif(not gpu_available(), reason="needs CuPy and a CUDA GPU")
def test_gpu_training_matches_cpu():
    np.testing.assert_allclose(train_mlp("gpu"), train_mlp("cpu"), rtol=1e-9)
