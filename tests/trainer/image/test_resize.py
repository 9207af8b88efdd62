"""Bicubic and area resizing against direct formulas: Keys' cubic (a = -0.75) on the legacy grid, clamped at the
edges; each output pixel of area resizing the mean of the input block it covers; bicubic's gradient numerically."""
import numpy as np

import trainer as tg

IMAGE = np.random.RandomState(0).rand(2, 6, 4, 3)


def keys(d, a=-0.75):
    d = abs(d)
    return ((a + 2) * d - (a + 3)) * d * d + 1 if d <= 1 else ((a * d - 5 * a) * d + 8 * a) * d - 4 * a


def cubic_1d(values, out_size, axis):
    n = values.shape[axis]
    out = []
    for i in range(out_size):
        src = i * n / out_size
        base = int(np.floor(src))
        taps = [np.take(values, min(max(base + k, 0), n - 1), axis=axis) * keys(src - (base + k)) for k in range(-1, 3)]
        out.append(sum(taps))
    return np.stack(out, axis)


def run(fetches):
    with tg.Session() as sess:
        return sess.run(fetches)


def test_bicubic_is_keys_cubic_on_each_axis_and_area_averages_blocks():
    tg.reset_default_graph()
    bicubic, area, method = run([tg.image.resize_bicubic(IMAGE, [8, 5]), tg.image.resize_area(IMAGE, [3, 2]),
                                 tg.image.resize_images(IMAGE, [3, 2], method=tg.image.ResizeMethod.AREA)])
    np.testing.assert_allclose(bicubic, cubic_1d(cubic_1d(IMAGE, 8, 1), 5, 2), atol=2e-3)  # TF's table: 1/1024 steps
    blocks = IMAGE.reshape(2, 3, 2, 2, 2, 3).mean(axis=(2, 4))
    np.testing.assert_allclose(area, blocks, rtol=1e-6)
    np.testing.assert_array_equal(method, area)


def test_bicubic_gradient_matches_the_numerical_one():
    tg.reset_default_graph()
    x = tg.placeholder(tg.float64, (1, 4, 3, 2))
    y = tg.image.resize_bicubic(x, [5, 7], half_pixel_centers=True)
    with tg.Session():
        error = tg.test.compute_gradient_error(x, (1, 4, 3, 2), y, (1, 5, 7, 2), x_init_value=IMAGE[:1, :4, :3, :2],
                                               delta=1e-3)
    assert error < 1e-3  # the forward answers in float32
