"""The tiled max-pooling gradient kernels (trainer/ops/kernels/pool.py) against TF1's routing written out tap by tap:
each window's gradient to its first maximum in row-major order (the last tap where the maximum is NaN), g times the
mask where g is finite (so a negative g leaves -0.0 on the other taps), exact zeros where it is not; over several
blocks of images, in place over the input, and fused with ReLU's gradient on the pooled values."""
import numpy as np
import pytest

from trainer.ops.kernels import pool

RNG = np.random.default_rng(11)
# (batch, height, width, channels): LeNet's first pool spans three blocks of images, the rest fit one; 7x5 leaves
# a row and a column outside the 2x2 tiles.
SHAPES = [(12, 28, 28, 32), (3, 6, 8, 5), (2, 7, 5, 3)]


def _reference(x, y, g, k):
    ho, wo = y.shape[1:3]
    dx, taken, finite = np.zeros(x.shape, g.dtype), np.zeros(y.shape, bool), np.isfinite(g).all()
    taps = [(i, j) for i in range(k) for j in range(k)]
    for t, (i, j) in enumerate(taps):
        hit = ~taken & ((x[:, i:ho * k:k, j:wo * k:k] == y) | (t == len(taps) - 1))
        dx[:, i:ho * k:k, j:wo * k:k] = g * hit if finite else np.where(hit, g, 0)
        taken |= hit
    return dx


def _inputs(shape, dtype, k=2):
    """ReLU-like values full of ties (zeros, small integers), a NaN and infinities in some windows."""
    x = np.maximum(RNG.integers(-3, 4, shape), 0).astype(dtype)
    x[0, 0, 0, 0], x[-1, -1, -1, -1], x[0, 1, 1, -1], x[-1, 0, 1, 0] = np.nan, np.nan, np.inf, -np.inf
    ho, wo = shape[1] // k, shape[2] // k
    y = x[:, :ho * k, :wo * k].reshape(shape[0], ho, k, wo, k, shape[3]).max(axis=(2, 4))
    return x, y, RNG.standard_normal(y.shape).astype(dtype), (k, k), ho, wo


def _assert_same_bits(got, expected):
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(expected))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_the_gradient_goes_to_each_windows_first_maximum(shape, dtype):
    x, y, g, ksize, ho, wo = _inputs(shape, dtype)
    expected = _reference(x, y, g, 2)
    _assert_same_bits(pool.max_pool_grad(x, y, g, ksize, ho, wo), expected)
    copy = x.copy()
    dx = pool.max_pool_grad_inplace(copy, y, g, ksize, ho, wo)
    _assert_same_bits(dx, expected)
    covered = shape[1] % 2 == 0 and shape[2] % 2 == 0
    assert (dx is copy) == covered  # a part outside the tiles needs zeros: a fresh buffer


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_three_by_three_tiles_route_ties_in_row_major_order(dtype):
    x, y, g, ksize, ho, wo = _inputs((4, 9, 6, 3), dtype, k=3)
    _assert_same_bits(pool.max_pool_grad_inplace(x.copy(), y, g, ksize, ho, wo), _reference(x, y, g, 3))


@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan])
def test_a_non_finite_gradient_leaves_exact_zeros_off_the_maximum(bad):
    x, y, g, ksize, ho, wo = _inputs((12, 28, 28, 32), np.float32)
    g[5, 3, 4, 6] = bad  # in the second block of images
    expected = _reference(x, y, g, 2)
    assert np.isnan(expected).sum() == np.isnan(bad)
    for dx in (pool.max_pool_grad(x, y, g, ksize, ho, wo), pool.max_pool_grad_inplace(x.copy(), y, g, ksize, ho, wo)):
        _assert_same_bits(dx, expected)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_the_relu_fused_gradient_is_the_two_kernels_to_the_bit(shape, dtype):
    x, y, g, ksize, ho, wo = _inputs(shape, dtype)
    expected = _reference(x, y, np.multiply(g, y > 0), 2)
    _assert_same_bits(pool.relu_max_pool_grad(x, y, g, ksize, ho, wo), expected)
    copy = x.copy()
    dx = pool.relu_max_pool_grad(copy, y, g, ksize, ho, wo, inplace=True)
    _assert_same_bits(dx, expected)
    assert (dx is copy) == (shape[1] % 2 == 0 and shape[2] % 2 == 0)


def test_the_relu_fused_gradient_declines_a_non_finite_gradient():
    """inf * (y > 0) is NaN where y <= 0: only the two kernels in turn give that, so the caller runs them."""
    x, y, g, ksize, ho, wo = _inputs((2, 6, 8, 5), np.float32)
    g[0, 0, 0, 0] = np.inf
    assert pool.relu_max_pool_grad(x, y, g, ksize, ho, wo) is NotImplemented


def test_an_empty_batch_routes_nothing():
    x, y, g = np.zeros((0, 4, 4, 2), np.float32), np.zeros((0, 2, 2, 2), np.float32), np.zeros((0, 2, 2, 2), np.float32)
    assert pool.max_pool_grad(x, y, g, (2, 2), 2, 2).shape == (0, 4, 4, 2)
    assert pool.relu_max_pool_grad(x, y, g, (2, 2), 2, 2, inplace=True).shape == (0, 4, 4, 2)


def test_a_read_only_input_is_never_written():
    x, y, g, ksize, ho, wo = _inputs((2, 6, 8, 5), np.float32)
    frozen = x.copy()
    frozen.setflags(write=False)
    dx = pool.max_pool_grad_inplace(frozen, y, g, ksize, ho, wo)
    assert dx is not frozen
    _assert_same_bits(dx, _reference(x, y, g, 2))
    np.testing.assert_array_equal(frozen, x)
