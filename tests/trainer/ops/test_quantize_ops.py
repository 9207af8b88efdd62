"""Simulated quantization: fake_quant's outputs lie on the nudged grid (0 on it), its straight-through gradients
count what falls outside the range, and quantize_and_dequantize keeps 0 exact, per tensor or per slice."""
import numpy as np
import pytest

import trainer as tg

X = np.linspace(-3.0, 3.0, 41, dtype=np.float32).reshape(1, 41)


def run(fetches):
    with tg.Session() as sess:
        return sess.run(fetches)


@pytest.mark.parametrize("lo, hi, bits, narrow", [(-1.0, 2.0, 8, False), (0.3, 1.9, 4, False), (-2.5, -0.5, 3, True)])
def test_fake_quant_rounds_to_the_nudged_grid_that_holds_zero(lo, hi, bits, narrow):
    tg.reset_default_graph()
    steps = (1 << bits) - 1 - narrow
    scale = (hi - lo) / steps
    args = tg.quantization.fake_quant_with_min_max_args(X, lo, hi, num_bits=bits, narrow_range=narrow)
    per_var = tg.fake_quant_with_min_max_vars(X, tg.constant(lo), tg.constant(hi), num_bits=bits,
                                              narrow_range=narrow)
    channels = tg.fake_quant_with_min_max_vars_per_channel(X.T, tg.constant([lo]), tg.constant([hi]),
                                                           num_bits=bits, narrow_range=narrow)
    out, same, by_channel = run([args, per_var, channels])
    np.testing.assert_array_equal(out, same)
    np.testing.assert_array_equal(out, by_channel.T)
    k = np.round(out / scale)
    np.testing.assert_allclose(out, k * scale, atol=1e-5)  # multiples of the scale: 0 is on the grid
    assert len(np.unique(out)) <= steps + 1
    low, high = out.min(), out.max()
    assert low <= 0 <= high and high - low == pytest.approx(steps * scale, abs=1e-5)  # nudged to hold 0
    if lo <= 0 <= hi:
        assert abs(low - lo) <= scale / 2 + 1e-6 and abs(high - hi) <= scale / 2 + 1e-6
    inside = (X >= low) & (X <= high)
    assert np.all(np.abs(out - X)[inside] <= scale / 2 + 1e-6)


def test_fake_quant_gradients_pass_inside_and_sum_outside():
    tg.reset_default_graph()
    x, lo, hi = tg.constant(X), tg.constant(-1.0), tg.constant(2.0)
    y = tg.fake_quant_with_min_max_vars(x, lo, hi)
    gx, glo, ghi = run(tg.gradients(tg.reduce_sum(y * 2.0), [x, lo, hi]))
    np.testing.assert_array_equal(gx, 2.0 * ((X >= -1.0) & (X <= 2.0)))
    assert glo == 2.0 * np.sum(X < -1.0) and ghi == 2.0 * np.sum(X > 2.0)
    gc = tg.gradients(tg.reduce_sum(tg.fake_quant_with_min_max_vars_per_channel(
        x, tg.constant([-1.0] * 41), tg.constant([2.0] * 41))), [x])[0]
    ga = tg.gradients(tg.reduce_sum(tg.fake_quant_with_min_max_args(x, -1.0, 2.0)), [x])[0]
    np.testing.assert_array_equal(run(gc), gx / 2.0)
    np.testing.assert_array_equal(run(ga), gx / 2.0)


def test_fake_quant_refuses_an_empty_range_and_odd_widths():
    tg.reset_default_graph()
    with pytest.raises(tg.errors.InvalidArgumentError, match="min has to be smaller"):
        run(tg.fake_quant_with_min_max_args(X, 1.0, -1.0))
    with pytest.raises(tg.errors.InvalidArgumentError, match="num_bits"):
        run(tg.fake_quant_with_min_max_vars(X, tg.constant(-1.0), tg.constant(1.0), num_bits=17))


def test_quantize_and_dequantize_keeps_zero_and_scales_per_slice():
    tg.reset_default_graph()
    x = np.array([[-1.0, 0.0, 0.3, 1.0], [-4.0, 0.0, 1.3, 2.0]], np.float32)
    whole = tg.quantization.quantize_and_dequantize(x, 0.0, 0.0, num_bits=3)
    rows = tg.quantization.quantize_and_dequantize_v2(x, [-1.0, -4.0], [1.0, 2.0], num_bits=3, axis=0,
                                                      range_given=True)
    half_up = tg.quantization.quantize_and_dequantize(np.float32([0.5, 1.5, -0.5]), -3.0, 3.0, num_bits=3,
                                                      range_given=True, round_mode="HALF_UP")
    half_even = tg.quantization.quantize_and_dequantize(np.float32([0.5, 1.5, -0.5]), -3.0, 3.0, num_bits=3,
                                                        range_given=True)
    got_whole, got_rows, up, even = run([whole, rows, half_up, half_even])
    np.testing.assert_allclose(got_whole, np.round(x), atol=1e-6)  # 3 bits, [-4, 3]: 1 from the min side
    np.testing.assert_allclose(got_rows, [[-1.0, 0.0, 1 / 3, 1.0], [-4.0, 0.0, 1.0, 2.0]], atol=1e-6)  # 3, 1
    np.testing.assert_array_equal(up, [1.0, 2.0, 0.0])
    np.testing.assert_array_equal(even, [0.0, 2.0, -0.0])
    xt = tg.constant(x)
    g_v2 = tg.gradients(tg.quantization.quantize_and_dequantize(xt, -1.0, 1.0, range_given=True), [xt])[0]
    g_v4 = tg.gradients(tg.quantization.quantize_and_dequantize_v2(xt, -1.0, 1.0, range_given=True), [xt])[0]
    np.testing.assert_array_equal(run(g_v2), np.ones_like(x))
    np.testing.assert_array_equal(run(g_v4), (np.abs(x) <= 1.0).astype(np.float32))
