"""tf.image against numpy references (and PyTorch's interpolate where its sampling is TF1's), finite-difference
gradients, seeded random flips, and error messages that name the culprit."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op, numerical_gradient

try:
    import torch
except ImportError:
    torch = None

RNG = np.random.default_rng(0)
IMAGE = RNG.random((5, 6, 3))
BATCH = RNG.random((2, 5, 6, 3))


def run(build, *arrays, dtype=np.float32):
    with tg.Graph().as_default():
        xs = [tg.placeholder(a.dtype if a.dtype.kind != "f" else dtype, a.shape) for a in arrays]
        out = build(*xs)
        with tg.Session() as sess:
            return sess.run(out, {x: a.astype(x.dtype) for x, a in zip(xs, arrays)})


def float32_gradient_check(build, x, eps=1e-2, tol=2e-3):
    """Gradient of sum(build(x) * cotangent) in float32 against central differences (for ops that compute in
    float32 whatever the input, as TF1's colour ops and bilinear resize do)."""
    with tg.Graph().as_default():
        p = tg.placeholder(tg.float32, x.shape)
        out = build(p)
        with tg.Session() as sess:
            cot = RNG.standard_normal(sess.run(out, {p: x}).shape)
            (grad,) = sess.run(tg.gradients(out, [p], grad_ys=tg.constant(cot.astype(np.float32))), {p: x})
            objective = lambda v: np.sum(sess.run(out, {p: v[0].astype(np.float32)}).astype(np.float64) * cot)
            numeric = numerical_gradient(objective, [x.astype(np.float64)], eps=eps)[0]
    np.testing.assert_allclose(grad, numeric, rtol=tol, atol=tol)


# ---- geometry: flips, transpose, rot90 -------------------------------------------------------------------

GEOMETRY = [
    (tg.image.flip_left_right, lambda a: a[..., :, ::-1, :]),
    (tg.image.flip_up_down, lambda a: a[..., ::-1, :, :]),
    (tg.image.transpose_image, lambda a: np.swapaxes(a, -3, -2)),
] + [(lambda x, k=k: tg.image.rot90(x, k), lambda a, k=k: np.rot90(a, k, axes=(a.ndim - 3, a.ndim - 2)))
     for k in (0, 1, 2, 3, -1, 5)]


@pytest.mark.parametrize("fn, reference", GEOMETRY)
@pytest.mark.parametrize("image", [IMAGE, BATCH], ids=["image", "batch"])
def test_geometry_matches_numpy_with_gradients(fn, reference, image):
    check_op(fn, [image], numpy_fn=reference)


def test_rot90_of_the_docs_example():
    a = np.array([[[1], [2]], [[3], [4]]])
    np.testing.assert_array_equal(run(tg.image.rot90, a), [[[2], [4]], [[1], [3]]])


def test_random_flips_flip_about_half_of_a_batch_reproducibly():
    batch = np.broadcast_to(np.arange(4.0)[None, None, :, None], (400, 2, 4, 1)).copy()

    def flipped_mask(graph_seed):
        with tg.Graph().as_default():
            tg.set_random_seed(graph_seed)
            x = tg.placeholder(tg.float64, batch.shape)
            out = tg.image.random_flip_left_right(x, seed=7)
            with tg.Session() as sess:
                runs = [sess.run(out, {x: batch}) for _ in range(2)]
        masks = []
        for r in runs:
            flipped = np.all(r == batch[:, :, ::-1], axis=(1, 2, 3))
            assert np.all(flipped | np.all(r == batch, axis=(1, 2, 3))), "an image was neither kept nor flipped"
            masks.append(flipped)
        return masks

    first, second = flipped_mask(1)
    assert 150 < first.sum() < 250 and 150 < second.sum() < 250, (first.sum(), second.sum())
    assert not np.array_equal(first, second), "each run must draw new flips"
    again = flipped_mask(1)
    np.testing.assert_array_equal(first, again[0])
    np.testing.assert_array_equal(second, again[1])


def test_random_flip_of_one_image_flips_about_half_the_runs():
    with tg.Graph().as_default():
        tg.set_random_seed(3)
        x = tg.placeholder(tg.float64, IMAGE.shape)
        out = tg.image.random_flip_up_down(x, seed=2)
        with tg.Session() as sess:
            flips = [np.array_equal(sess.run(out, {x: IMAGE}), IMAGE[::-1]) for _ in range(200)]
    assert 70 < sum(flips) < 130


def test_random_flip_gradient_follows_the_drawn_flip():
    with tg.Graph().as_default():
        tg.set_random_seed(5)
        x = tg.placeholder(tg.float64, BATCH.shape)
        out = tg.image.random_flip_left_right(x)
        weights = tg.constant(RNG.random(BATCH.shape))
        (g,) = tg.gradients(tg.reduce_sum(out * weights), [x])
        with tg.Session() as sess:
            value, grad, w = sess.run([out, g, weights], {x: BATCH})
    for i in range(len(BATCH)):
        flipped = np.array_equal(value[i], BATCH[i, :, ::-1])
        np.testing.assert_allclose(grad[i], w[i, :, ::-1] if flipped else w[i])


# ---- crops and pads --------------------------------------------------------------------------------------

def _crop_or_pad_reference(a, th, tw):
    h, w = a.shape[-3:-1]
    out = np.zeros(a.shape[:-3] + (th, tw, a.shape[-1]))
    ch, cw = min(h, th), min(w, tw)
    sh, sw = max((h - th) // 2, 0), max((w - tw) // 2, 0)
    dh, dw = max((th - h) // 2, 0), max((tw - w) // 2, 0)
    out[..., dh:dh + ch, dw:dw + cw, :] = a[..., sh:sh + ch, sw:sw + cw, :]
    return out


CROPS = [
    (lambda x: tg.image.crop_to_bounding_box(x, 1, 2, 3, 4), lambda a: a[..., 1:4, 2:6, :]),
    (lambda x: tg.image.pad_to_bounding_box(x, 2, 1, 8, 9),
     lambda a: np.pad(a, [(0, 0)] * (a.ndim - 3) + [(2, 1), (1, 2), (0, 0)])),
    (lambda x: tg.image.central_crop(x, 0.5), lambda a: a[..., 1:4, 1:5, :]),  # int((5 - 2.5) / 2) = 1
    (lambda x: tg.image.central_crop(x, 1.0), lambda a: a),
] + [(lambda x, t=t: tg.image.resize_image_with_crop_or_pad(x, *t), lambda a, t=t: _crop_or_pad_reference(a, *t))
     for t in [(3, 4), (8, 9), (2, 11), (5, 6), (4, 5)]]


@pytest.mark.parametrize("fn, reference", CROPS)
@pytest.mark.parametrize("image", [IMAGE, BATCH], ids=["image", "batch"])
def test_crops_match_numpy_with_gradients(fn, reference, image):
    check_op(fn, [image], numpy_fn=reference)


def test_resize_with_crop_or_pad_is_the_same_function():
    assert tg.image.resize_with_crop_or_pad is tg.image.resize_image_with_crop_or_pad


def test_random_crop_is_tf_random_crop_and_crops_a_window():
    assert tg.image.random_crop is tg.random_crop
    out = run(lambda x: tg.image.random_crop(x, [3, 3, 3], seed=1), IMAGE, dtype=np.float64)
    hits = [(i, j) for i in range(3) for j in range(4) if np.array_equal(out, IMAGE[i:i + 3, j:j + 3])]
    assert len(hits) == 1


# ---- colour and standardization --------------------------------------------------------------------------

def _standardize(a):
    axes = (-3, -2, -1)
    mean = a.mean(axis=axes, keepdims=True)
    std = a.std(axis=axes, keepdims=True)
    return (a - mean) / np.maximum(std, 1 / np.sqrt(np.prod(a.shape[-3:])))


@pytest.mark.parametrize("image", [IMAGE, BATCH, np.full((3, 4, 2), 0.25)], ids=["image", "batch", "uniform"])
def test_per_image_standardization(image):
    out = run(tg.image.per_image_standardization, image)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, _standardize(image.astype(np.float32).astype(np.float64)), rtol=1e-5, atol=1e-5)


def test_per_image_standardization_gradient():
    float32_gradient_check(tg.image.per_image_standardization, BATCH.astype(np.float32))


def test_per_image_standardization_of_uint8_converts_back_like_tf_1_15():
    image = RNG.integers(0, 256, (4, 4, 3)).astype(np.uint8)
    expected = np.clip(_standardize(image / 255.0) * 255.5, 0, 255).astype(np.uint8)
    out = run(tg.image.per_image_standardization, image)
    assert out.dtype == np.uint8
    assert np.abs(out.astype(int) - expected).max() <= 1


def test_adjust_brightness_and_contrast_match_numpy():
    out = run(lambda x: tg.image.adjust_brightness(x, 0.25), BATCH)
    np.testing.assert_allclose(out, BATCH + 0.25, rtol=1e-6)
    out = run(lambda x: tg.image.adjust_contrast(x, 1.7), BATCH)
    mean = BATCH.mean(axis=(1, 2), keepdims=True)
    np.testing.assert_allclose(out, (BATCH - mean) * 1.7 + mean, rtol=1e-5, atol=1e-6)


def test_adjust_brightness_of_uint8_saturates():
    image = np.array([[[0], [100], [250]]], dtype=np.uint8)
    out = run(lambda x: tg.image.adjust_brightness(x, 10 / 255), image)
    assert out.dtype == np.uint8
    np.testing.assert_array_equal(out.ravel(), [10, 110, 255])


@pytest.mark.parametrize("fn", [lambda x: tg.image.adjust_brightness(x, 0.3),
                                lambda x: tg.image.adjust_contrast(x, 0.6)])
def test_colour_gradients(fn):
    float32_gradient_check(fn, IMAGE.astype(np.float32))


def test_random_colour_gradients_use_the_drawn_value():
    # A new draw each run defeats finite differences: check the closed forms with the same run's draw.
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float64, IMAGE.shape)
        cot = RNG.standard_normal(IMAGE.shape)
        bright = tg.image.random_brightness(x, 0.2, seed=1)
        contrast = tg.image.random_contrast(x, 0.5, 1.5, seed=1)
        grads = [tg.gradients(y, [x], grad_ys=tg.constant(cot))[0] for y in (bright, contrast)]
        with tg.Session() as sess:
            c, g_bright, g_contrast = sess.run([contrast] + grads, {x: IMAGE})
    np.testing.assert_allclose(g_bright, cot, rtol=1e-6)
    mean = IMAGE.mean(axis=(0, 1), keepdims=True)
    factor = ((c - mean) / (IMAGE - mean)).mean()
    expected = factor * cot + (1 - factor) * cot.mean(axis=(0, 1), keepdims=True)  # d/dx of (x - m) * f + m
    np.testing.assert_allclose(g_contrast, expected, rtol=1e-4, atol=1e-5)


def test_random_brightness_and_contrast_draw_in_range_and_resume_with_the_seed():
    def draws(graph_seed):
        with tg.Graph().as_default():
            tg.set_random_seed(graph_seed)
            x = tg.placeholder(tg.float64, IMAGE.shape)
            bright = tg.image.random_brightness(x, 0.3, seed=4)
            contrast = tg.image.random_contrast(x, 0.2, 0.9, seed=4)
            with tg.Session() as sess:
                return [sess.run([bright, contrast], {x: IMAGE}) for _ in range(20)]
    mean = IMAGE.mean(axis=(0, 1), keepdims=True)
    deltas, factors = [], []
    for b, c in draws(9):
        delta = (b - IMAGE).mean()
        np.testing.assert_allclose(b, IMAGE + delta, atol=1e-6)  # one delta per run, for every pixel
        factor = ((c - mean) / (IMAGE - mean)).mean()
        np.testing.assert_allclose(c, (IMAGE - mean) * factor + mean, atol=1e-5)
        deltas.append(delta)
        factors.append(factor)
    assert -0.3 <= min(deltas) < max(deltas) < 0.3 and 0.2 <= min(factors) < max(factors) < 0.9
    again = draws(9)
    np.testing.assert_array_equal(again[3][0], draws(9)[3][0])


CONVERSIONS = [  # (input, output dtype, saturate, expected): TF1's scaling rules in closed form
    (np.array([0, 1, 128, 255], np.uint8), np.float32, False, np.array([0, 1, 128, 255]) / 255),
    (np.array([0, 1, 128, 255], np.uint8), np.int16, False, np.array([0, 1, 128, 255]) * 128),
    (np.array([0, 2 ** 23, 2 ** 31 - 1], np.int32), np.uint8, False, [0, 1, 255]),
    (np.array([0.0, 0.5, 0.999, 1.0], np.float32), np.uint8, False, [0, 127, 255, 255]),
    (np.array([-0.5, 0.5, 1.5], np.float32), np.uint8, True, [0, 127, 255]),
    (np.array([0.25, 0.5], np.float64), np.float32, False, [0.25, 0.5]),
    (np.array([-7, 0, 7], np.int8), np.int16, False, [-7 * 256, 0, 7 * 256]),
]


@pytest.mark.parametrize("value, dtype, saturate, expected", CONVERSIONS)
def test_convert_image_dtype(value, dtype, saturate, expected):
    out = run(lambda x: tg.image.convert_image_dtype(x, dtype, saturate=saturate), value, dtype=value.dtype)
    assert out.dtype == dtype
    np.testing.assert_allclose(out, np.asarray(expected, dtype=np.float64).astype(dtype), rtol=1e-6)


def test_convert_image_dtype_float_gradient():
    check_op(lambda x: tg.image.convert_image_dtype(x, tg.float32) * 2.0, [IMAGE], dtypes=(np.float32,),
             numpy_fn=lambda a: a * 2.0)


# ---- resize ----------------------------------------------------------------------------------------------

def _legacy_bilinear(a, oh, ow, align_corners=False):
    """TF1's default bilinear sampling written out pixel by pixel (src = dst * in / out)."""
    n, h, w, c = a.shape

    def scale(i, o):
        return (i - 1) / (o - 1) if align_corners and o > 1 else i / o
    out = np.zeros((n, oh, ow, c))
    for y in range(oh):
        sy = y * scale(h, oh)
        y0, y1, ty = int(np.floor(sy)), min(int(np.ceil(sy)), h - 1), sy - np.floor(sy)
        for x in range(ow):
            sx = x * scale(w, ow)
            x0, x1, tx = int(np.floor(sx)), min(int(np.ceil(sx)), w - 1), sx - np.floor(sx)
            top = a[:, y0, x0] * (1 - tx) + a[:, y0, x1] * tx
            bottom = a[:, y1, x0] * (1 - tx) + a[:, y1, x1] * tx
            out[:, y, x] = top * (1 - ty) + bottom * ty
    return out


def _legacy_nearest(a, oh, ow):
    h, w = a.shape[1:3]
    rows = [min(int(np.floor(y * (h / oh))), h - 1) for y in range(oh)]
    cols = [min(int(np.floor(x * (w / ow))), w - 1) for x in range(ow)]
    return a[:, rows][:, :, cols]


SIZES = [(7, 9), (3, 4), (5, 6), (2, 13), (1, 1)]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("align_corners", [False, True])
def test_resize_bilinear_matches_the_legacy_reference(size, align_corners):
    out = run(lambda x: tg.image.resize_bilinear(x, size, align_corners=align_corners), BATCH)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, _legacy_bilinear(BATCH, *size, align_corners), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("size", SIZES)
def test_resize_nearest_matches_the_legacy_reference_and_keeps_the_dtype(size):
    ints = (BATCH * 255).astype(np.uint8)
    out = run(lambda x: tg.image.resize_nearest_neighbor(x, size), ints)
    assert out.dtype == np.uint8
    np.testing.assert_array_equal(out, _legacy_nearest(ints, *size))


@pytest.mark.skipif(torch is None, reason="PyTorch is not installed")
@pytest.mark.parametrize("size", SIZES[:4])
def test_resize_against_torch_where_its_sampling_is_tf1s(size):
    t = torch.tensor(BATCH).permute(0, 3, 1, 2)
    back = lambda r: r.permute(0, 2, 3, 1).numpy()
    cases = [  # torch's "nearest" is TF1's legacy nearest; bilinear agrees with align_corners and half pixels
        (lambda x: tg.image.resize_nearest_neighbor(x, size), back(torch.nn.functional.interpolate(t, size))),
        (lambda x: tg.image.resize_bilinear(x, size, align_corners=True),
         back(torch.nn.functional.interpolate(t, size, mode="bilinear", align_corners=True))),
        (lambda x: tg.image.resize_bilinear(x, size, half_pixel_centers=True),
         back(torch.nn.functional.interpolate(t, size, mode="bilinear", align_corners=False))),
    ]
    for build, expected in cases:
        np.testing.assert_allclose(run(build, BATCH), expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("method", [tg.image.ResizeMethod.BILINEAR, tg.image.ResizeMethod.NEAREST_NEIGHBOR])
@pytest.mark.parametrize("size", [(7, 9), (3, 2)])
def test_resize_gradients(method, size):
    for image in (IMAGE, BATCH):
        float32_gradient_check(lambda x: tg.image.resize_images(x, size, method=method), image.astype(np.float32))


def test_resize_images_on_one_image_and_the_same_size():
    out = run(lambda x: tg.image.resize_images(x, [7, 9]), IMAGE)
    np.testing.assert_allclose(out, _legacy_bilinear(IMAGE[None], 7, 9)[0], rtol=1e-5, atol=1e-6)
    with tg.Graph().as_default():
        x = tg.placeholder(tg.uint8, (5, 6, 3))
        assert tg.image.resize_images(x, [5, 6]) is x  # TF1 returns the image untouched, dtype included
        kept = tg.image.resize_images(x, [10, 20], preserve_aspect_ratio=True)
        assert tuple(kept.shape) == (10, 12, 3)  # scale min(10/5, 20/6) = 2


def test_resize_bilinear_second_order_gradient():
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, BATCH.shape)
        y = tg.image.resize_bilinear(x, [4, 9])
        (g,) = tg.gradients(tg.reduce_sum(y * y), [x])
        (gg,) = tg.gradients(tg.reduce_sum(g), [x])
        with tg.Session() as sess:
            assert sess.run(gg, {x: BATCH.astype(np.float32)}).shape == BATCH.shape


# ---- errors name the culprit -----------------------------------------------------------------------------

def test_errors_name_the_culprit():
    with tg.Graph().as_default():
        flat = tg.placeholder(tg.float32, (5, 6), name="flat")
        img = tg.placeholder(tg.float32, (5, 6, 3), name="img")
        with pytest.raises(ValueError, match="flip_left_right.*3 or 4 dimensions.*'flat:0'"):
            tg.image.flip_left_right(flat)
        with pytest.raises(ValueError, match="offset_height must be >= 0, got -1"):
            tg.image.crop_to_bounding_box(img, -1, 0, 2, 2)
        with pytest.raises(ValueError, match="target_width must be > 0, got 0"):
            tg.image.crop_to_bounding_box(img, 0, 0, 2, 0)
        with pytest.raises(ValueError, match="does not fit in 'img:0' of height 5 and width 6"):
            tg.image.crop_to_bounding_box(img, 3, 0, 3, 2)
        with pytest.raises(ValueError, match="target_height must be > 0, got -2"):
            tg.image.resize_image_with_crop_or_pad(img, -2, 4)
        with pytest.raises(ValueError, match=r"central_fraction must be within \(0, 1\], got 1.5"):
            tg.image.central_crop(img, 1.5)
        with pytest.raises(ValueError, match="max_delta must be non-negative, got -0.1"):
            tg.image.random_brightness(img, -0.1)
        with pytest.raises(ValueError, match="upper must be > lower"):
            tg.image.random_contrast(img, 0.5, 0.5)
        with pytest.raises(ValueError, match="unknown method 'lanczos'"):
            tg.image.resize_images(img, [3, 3], method="lanczos")
        with pytest.raises(ValueError, match="resize_bilinear.*4-D.*'img:0'"):
            tg.image.resize_bilinear(img, [3, 3])
        with pytest.raises(NotImplementedError, match="height and width of 'free:0'"):
            tg.image.central_crop(tg.placeholder(tg.float32, (None, None, 3), name="free"), 0.5)


def test_batch_of_unknown_size_flips_and_resizes():
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float64, (None, 5, 6, 3))
        flipped = tg.image.random_flip_up_down(x, seed=3)
        resized = tg.image.resize_images(x, [4, 4])
        assert tuple(resized.shape.as_list()) == (None, 4, 4, 3)
        with tg.Session() as sess:
            f, r = sess.run([flipped, resized], {x: BATCH})
    for i in range(len(BATCH)):
        assert np.array_equal(f[i], BATCH[i]) or np.array_equal(f[i], BATCH[i, ::-1])
    np.testing.assert_allclose(r, _legacy_bilinear(BATCH, 4, 4), rtol=1e-5, atol=1e-6)
