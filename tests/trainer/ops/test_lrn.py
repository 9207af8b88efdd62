"""tf.nn.lrn against a loop-by-loop numpy reference, PyTorch's LocalResponseNorm and numerical gradients;
tf.nn.zero_fraction against numpy counts."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op, torch


def lrn_reference(x, depth_radius, bias, alpha, beta):
    """TF1's formula written out element by element, the window clipped at the depth's ends."""
    out = np.empty_like(x)
    depth = x.shape[-1]
    for idx in np.ndindex(x.shape[:-1]):
        for d in range(depth):
            window = x[idx][max(0, d - depth_radius):min(depth, d + depth_radius + 1)]
            out[idx + (d,)] = x[idx + (d,)] / (bias + alpha * np.sum(window ** 2)) ** beta
    return out


def torch_lrn(depth_radius, bias, alpha, beta):
    """PyTorch's LocalResponseNorm on NCHW with TF1's parameters: its alpha is divided by the window size."""
    size = 2 * depth_radius + 1

    def fn(x):
        layer = torch.nn.LocalResponseNorm(size, alpha=alpha * size, beta=beta, k=bias)
        return layer(x.permute(0, 3, 1, 2)).permute(0, 2, 3, 1)
    return fn


PARAMS = [(2, 1.0, 0.1, 0.75), (5, 1.0, 1.0, 0.5), (0, 2.0, 0.5, 1.0), (1, 0.5, 0.3, 0.25)]


@pytest.mark.parametrize("depth_radius,bias,alpha,beta", PARAMS)
def test_lrn_forward_and_gradient(depth_radius, bias, alpha, beta):
    x = np.random.default_rng(depth_radius).standard_normal((2, 3, 2, 7))
    build = lambda t: tg.nn.lrn(t, depth_radius, bias, alpha, beta)  # noqa: E731
    reference = lambda a: lrn_reference(a, depth_radius, bias, alpha, beta)  # noqa: E731
    check_op(build, [x], torch_fn=torch and torch_lrn(depth_radius, bias, alpha, beta), numpy_fn=reference)


def test_lrn_equals_the_loop_reference_and_keeps_tf1_defaults():
    x = np.random.default_rng(1).standard_normal((1, 2, 2, 12)).astype(np.float32)
    with tg.Graph().as_default():
        t = tg.placeholder(tg.float32, [None, 2, 2, 12])
        y = tg.nn.local_response_normalization(t)  # depth_radius=5, bias=1, alpha=1, beta=0.5
        assert y.op.type == "LRN" and y.name == "LRN:0" and y.shape == (None, 2, 2, 12)
        value = tg.Session().run(y, {t: x})
    np.testing.assert_allclose(value, lrn_reference(x.astype(np.float64), 5, 1.0, 1.0, 0.5), rtol=1e-5)
    assert value.dtype == np.float32


def test_lrn_names_a_bad_input():
    with tg.Graph().as_default():
        with pytest.raises(ValueError, match=r"4-D input.*'images:0'.*\(2, 3\)"):
            tg.nn.lrn(tg.placeholder(tg.float32, [2, 3], name="images"))
        with pytest.raises(TypeError, match=r"floating-point.*'ints:0'.*int32"):
            tg.nn.lrn(tg.placeholder(tg.int32, [1, 2, 2, 3], name="ints"))
        with pytest.raises(ValueError, match=r"depth_radius.*-1"):
            tg.nn.lrn(tg.placeholder(tg.float32, [1, 2, 2, 3]), depth_radius=-1)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_zero_fraction_counts_zeros(dtype):
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((4, 5)) * (rng.random((4, 5)) > 0.3)).astype(dtype)
    with tg.Graph().as_default():
        t = tg.placeholder(dtype, [None, 5])
        fraction = tg.nn.zero_fraction(t)
        assert fraction.name == "zero_fraction/fraction:0" and fraction.dtype == tg.float32
        sess = tg.Session()
        value = sess.run(fraction, {t: x})
        assert value.dtype == np.float32
        assert value == np.float32(np.sum(x == 0)) / np.float32(x.size)
        assert sess.run(fraction, {t: np.zeros((2, 5), dtype)}) == 1.0
        assert sess.run(fraction, {t: np.ones((2, 5), dtype)}) == 0.0
