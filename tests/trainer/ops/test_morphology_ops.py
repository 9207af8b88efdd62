"""Grayscale morphology and max_pool_with_argmax against a direct loop over each window (taps outside the
image left out), with the gradients checked numerically and the argmax pointing at the maximum."""
import numpy as np
import pytest

import trainer as tg

X = np.random.RandomState(0).randn(2, 5, 6, 3)
W = np.random.RandomState(1).randn(2, 3, 3)


def dilate(x, w, stride, rate, top, left, out_h, out_w):
    out = np.full((x.shape[0], out_h, out_w, x.shape[3]), -np.inf)
    for i in range(out_h):
        for j in range(out_w):
            for dy in range(w.shape[0]):
                for dx in range(w.shape[1]):
                    y, z = i * stride[0] - top + dy * rate[0], j * stride[1] - left + dx * rate[1]
                    if 0 <= y < x.shape[1] and 0 <= z < x.shape[2]:
                        out[:, i, j] = np.maximum(out[:, i, j], x[:, y, z] + w[dy, dx])
    return out


def run(fetches):
    with tg.Session() as sess:
        return sess.run(fetches)


@pytest.mark.parametrize("stride, rate, padding, geometry", [  # geometry: top and left padding, output size
    ((1, 1), (1, 1), "SAME", (0, 1, 5, 6)), ((2, 1), (2, 2), "VALID", (0, 0, 2, 2)),
    ((2, 3), (1, 1), "SAME", (0, 0, 3, 2))])
def test_dilation_and_erosion_match_a_direct_loop(stride, rate, padding, geometry):
    tg.reset_default_graph()
    strides, rates = [1, *stride, 1], [1, *rate, 1]
    got, eroded = run([tg.nn.dilation2d(X, W, strides, rates, padding), tg.nn.erosion2d(X, W, strides, rates, padding)])
    np.testing.assert_allclose(got, dilate(X, W, stride, rate, *geometry), atol=1e-12)
    np.testing.assert_allclose(eroded, -dilate(-X, W[::-1, ::-1], stride, rate, *geometry), atol=1e-12)


def test_dilation_gradients_match_the_numerical_ones():
    tg.reset_default_graph()
    x, w = tg.placeholder(tg.float64, X.shape), tg.placeholder(tg.float64, W.shape)
    y = tg.nn.dilation2d(x, w, [1, 1, 1, 1], [1, 1, 1, 1], "SAME")
    with tg.Session():
        error = tg.test.compute_gradient_error([x, w], [X.shape, W.shape], y, X.shape, x_init_value=[X, W],
                                               extra_feed_dict={x: X, w: W}, delta=1e-7)
    assert error < 1e-6


def test_argmax_points_at_each_windows_maximum_and_takes_its_gradient():
    tg.reset_default_graph()
    x = tg.constant(X)
    out, argmax = tg.nn.max_pool_with_argmax(x, [1, 2, 2, 1], [1, 2, 2, 1], "SAME", include_batch_in_index=True)
    pooled, index, grad = run([out, argmax, tg.gradients(tg.reduce_sum(out * 3.0), [x])[0]])
    np.testing.assert_array_equal(X.reshape(-1)[index], pooled)
    np.testing.assert_array_equal(pooled, dilate(X, np.zeros((2, 2, 3)), (2, 2), (1, 1), 0, 0, 3, 3))
    expected = np.zeros(X.size)
    expected[index.reshape(-1)] = 3.0
    np.testing.assert_array_equal(grad.reshape(-1), expected)
