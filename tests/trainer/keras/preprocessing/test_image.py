"""tf.keras.preprocessing.image: the affine transforms against closed forms (quarter turns, whole-pixel shifts with
each fill mode, zoom about the centre), the normalizations, and flow's batches, shuffling and seeding."""
import numpy as np
import pytest

from trainer import keras
from trainer.keras.preprocessing import image

X = np.arange(5 * 5 * 2, dtype="float32").reshape(5, 5, 2)


def test_a_quarter_turn_is_rot90():
    np.testing.assert_allclose(image.apply_affine_transform(X, theta=90), np.rot90(X, k=-1), atol=1e-4)
    np.testing.assert_allclose(image.apply_affine_transform(X, theta=-90), np.rot90(X, k=1), atol=1e-4)


@pytest.mark.parametrize("fill_mode,tail", [("nearest", lambda x: [x[4], x[4]]), ("constant", lambda x: [7, 7]),
                                            ("wrap", lambda x: [x[0], x[1]]), ("reflect", lambda x: [x[4], x[3]])])
def test_a_whole_pixel_shift_fills_by_mode(fill_mode, tail):
    out = image.apply_affine_transform(X, tx=2, fill_mode=fill_mode, cval=7.0)  # row r samples input row r + 2
    np.testing.assert_allclose(out[:3], X[2:])
    np.testing.assert_allclose(out[3:], np.broadcast_to(np.array(tail(X), dtype="float32"), (2, 5, 2)))


def test_zoom_samples_about_the_centre():
    out = image.apply_affine_transform(X, zx=2, zy=2)  # output (r, c) samples input (2r - 2, 2c - 2), clipped
    rows = np.clip(2 * np.arange(5) - 2, 0, 4)
    np.testing.assert_allclose(out, X[rows][:, rows])


def test_standardize_rescales_and_normalizes():
    x = np.random.RandomState(0).uniform(0, 255, (6, 4, 4, 3)).astype("float32")
    gen = image.ImageDataGenerator(rescale=1 / 255, featurewise_center=True, featurewise_std_normalization=True)
    with pytest.raises(ValueError, match="hasn't been fit"):
        gen.standardize(x[0])
    gen.fit(x / 255)
    batch = np.stack([gen.standardize(img) for img in x])
    np.testing.assert_allclose(batch.mean(axis=(0, 1, 2)), 0, atol=1e-5)
    np.testing.assert_allclose(batch.std(axis=(0, 1, 2)), 1, atol=1e-4)
    sample = image.ImageDataGenerator(samplewise_center=True, samplewise_std_normalization=True).standardize(x[0])
    assert abs(sample.mean()) < 1e-4 and abs(sample.std() - 1) < 1e-4


def test_flow_batches_every_sample_once_per_epoch_and_is_seeded():
    x = np.arange(10, dtype="float32").reshape(10, 1, 1, 1) * np.ones((1, 3, 3, 1), "float32")
    y = np.arange(10)
    flow = image.ImageDataGenerator(horizontal_flip=True).flow(x, y, batch_size=4, seed=3)
    assert len(flow) == 3
    batches = [flow[i] for i in range(len(flow))]
    labels = np.concatenate([b[1] for b in batches])
    assert sorted(labels) == list(range(10)) and list(labels) != list(range(10))
    np.testing.assert_array_equal(np.concatenate([b[0] for b in batches])[:, 0, 0, 0], labels)
    again = image.ImageDataGenerator(horizontal_flip=True).flow(x, y, batch_size=4, seed=3)
    np.testing.assert_array_equal(np.concatenate([again[i][1] for i in range(3)]), labels)
    ordered = image.ImageDataGenerator().flow(x, y, batch_size=4, shuffle=False)
    assert list(next(ordered)[1]) == [0, 1, 2, 3] and list(next(ordered)[1]) == [4, 5, 6, 7]


def test_fit_generator_trains_on_a_flow():
    rng = np.random.RandomState(0)
    x = rng.uniform(0, 1, (64, 6, 6, 1)).astype("float32")
    y = (x.mean(axis=(1, 2, 3)) > 0.5).astype("float32")
    model = keras.Sequential([keras.layers.Flatten(input_shape=(6, 6, 1)), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    gen = image.ImageDataGenerator(rotation_range=8, width_shift_range=0.08, height_shift_range=0.08,
                                   shear_range=0.3, zoom_range=0.08)
    history = model.fit_generator(gen.flow(x, y, batch_size=16, seed=0), steps_per_epoch=4, epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2


def test_what_needs_pil_says_so():
    with pytest.raises(ImportError, match="needs PIL"):
        image.ImageDataGenerator().flow_from_directory("/data/train")
    with pytest.raises(ValueError, match="zca_whitening"):
        image.ImageDataGenerator(zca_whitening=True)


def test_random_transforms_draw_from_numpys_generator_with_keras_axes():
    x = np.random.RandomState(4).uniform(0, 1, (3, 6, 5)).astype(np.float32)  # channels first: Keras' defaults
    for draw, apply in ((lambda: image.random_rotation(x, 30), lambda r: dict(theta=r.uniform(-30, 30))),
                        (lambda: image.random_shear(x, 20), lambda r: dict(shear=r.uniform(-20, 20))),
                        (lambda: image.random_shift(x, 0.2, 0.3),
                         lambda r: dict(tx=r.uniform(-0.3, 0.3) * 6, ty=r.uniform(-0.2, 0.2) * 5)),
                        (lambda: image.random_zoom(x, (0.7, 1.2)),
                         lambda r: dict(zip(("zx", "zy"), r.uniform(0.7, 1.2, 2))))):
        np.random.seed(9)
        got = draw()
        params = apply(np.random.RandomState(9))
        want = image.apply_affine_transform(x, row_axis=1, col_axis=2, channel_axis=0, **params)
        np.testing.assert_allclose(got, want, rtol=1e-6)
        assert not np.allclose(got, x)
    with pytest.raises(ValueError, match="two floats"):
        image.random_zoom(x, (0.5,))


def test_channel_shift_clips_to_the_image_range():
    x = np.array([[[0.0, 0.5]], [[1.0, 0.2]]])  # (channels, rows, cols)
    np.testing.assert_allclose(image.apply_channel_shift(x, 0.3), [[[0.3, 0.8]], [[1.0, 0.5]]])
    np.random.seed(1)
    shifted = image.random_channel_shift(x, 0.4)
    np.random.seed(1)
    np.testing.assert_allclose(shifted, image.apply_channel_shift(x, np.random.uniform(-0.4, 0.4)))


def test_reading_and_writing_images_needs_pil_and_says_so():
    for call in (lambda: image.array_to_img(np.zeros((2, 2, 3))), lambda: image.save_img("x.png", np.zeros((2, 2))),
                 lambda: image.random_brightness(np.zeros((2, 2, 3)), (0.5, 1.5)),
                 lambda: image.DirectoryIterator("photos/", image.ImageDataGenerator())):
        with pytest.raises(ImportError, match="PIL"):
            call()


def test_an_iterator_of_ones_own_batches_its_index_arrays():
    class Indices(image.Iterator):
        def _get_batches_of_transformed_samples(self, index_array):
            return index_array

    batches = Indices(7, 3, shuffle=True, seed=0)
    assert len(batches) == 3 and sorted(np.concatenate([batches[i] for i in range(3)])) == list(range(7))
