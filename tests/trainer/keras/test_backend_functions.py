"""The tf.keras.backend functions TF 1.15 has beyond the basics, against graph-mode tf.keras' outputs
(keras_backend.npz, recorded by fixtures/record_keras_backend.py), and RadialConstraint's rings."""
import pathlib

import numpy as np
import pytest

import trainer as tg
from trainer import keras
from trainer.keras import backend as K

FIXTURE = np.load(pathlib.Path(__file__).parent / "fixtures" / "keras_backend.npz")
CASES = {
    "cos": lambda x: K.cos(x), "sin": lambda x: K.sin(x), "cumprod": lambda x: K.cumprod(x, axis=1),
    "reverse": lambda x: K.reverse(x, [0, 2]), "repeat_elements": lambda x: K.repeat_elements(x, 3, axis=1),
    "in_top_k": lambda p, t: K.cast(K.in_top_k(p, K.cast(t, "int32"), 2), "float32"),
    "conv2d_transpose": lambda x, k: K.conv2d_transpose(x, k, (2, 9, 11, 4), strides=(2, 2)),
    "conv2d_transpose_same_cf": lambda x, k: K.conv2d_transpose(x, k, (2, 4, 8, 10), strides=(2, 2), padding="same",
                                                                data_format="channels_first"),
    "conv3d": lambda x, k: K.conv3d(x, k, strides=(1, 2, 1), padding="same"),
    "separable_conv2d": lambda x, d, p: K.separable_conv2d(x, d, p, padding="same"),
    "pool3d_max": lambda x: K.pool3d(x, (2, 2, 1), strides=(2, 2, 1)),
    "pool3d_avg_cf": lambda x: K.pool3d(x, (2, 2, 2), padding="same", data_format="channels_first", pool_mode="avg"),
    "local_conv1d": lambda x, k: K.local_conv1d(x, k, (2,), (2,)),
    "local_conv2d": lambda x, k: K.local_conv2d(x, k, (2, 3), (2, 1), (2, 3), "channels_last"),
    "local_conv2d_cf": lambda x, k: K.local_conv2d(x, k, (2, 2), (1, 2), (3, 2), "channels_first"),
    "temporal_padding": lambda x: K.temporal_padding(x, (1, 2)),
    "spatial_2d_padding": lambda x: K.spatial_2d_padding(x, ((0, 1), (2, 1))),
    "spatial_2d_padding_cf": lambda x: K.spatial_2d_padding(x, ((1, 1), (0, 2)), "channels_first"),
    "spatial_3d_padding": lambda x: K.spatial_3d_padding(x, ((1, 0), (0, 1), (1, 1))),
    "resize_images": lambda x: K.resize_images(x, 2, 3, "channels_last"),
    "resize_images_cf": lambda x: K.resize_images(x, 3, 2, "channels_first"),
    "resize_volumes": lambda x: K.resize_volumes(x, 2, 1, 2, "channels_last"),
    "batch_normalization": lambda x, m, v, b, g: K.batch_normalization(x, m, v, b, g, epsilon=0.01),
    "batch_normalization_axis1": lambda x, m, v, b, g: K.batch_normalization(x, m, v, b, g, axis=1),
    "normalize_batch_2d": lambda x, g, b: K.normalize_batch_in_training(x, g, b, [0]),
    "normalize_batch_3d": lambda x, g, b: K.normalize_batch_in_training(x, g, b, [0, 1]),
    "normalize_batch_nhwc": lambda x, g, b: K.normalize_batch_in_training(x, g, b, [0, 1, 2], epsilon=0.01),
    "normalize_batch_nchw": lambda x, g, b: K.normalize_batch_in_training(x, g, b, [0, 2, 3]),
    "map_fn": lambda x: K.map_fn(lambda row: K.sum(row * row), x),
    "foldl": lambda x: K.foldl(lambda a, row: a * 0.5 + row, x),
    "foldr": lambda x: K.foldr(lambda a, row: a * 0.5 + row, x, initializer=K.constant(np.ones(3))),
    "radial_constraint_odd": lambda w: keras.constraints.RadialConstraint()(w),
}


def fixture(name, kind):
    return [FIXTURE[f"{name}/{kind}{i}"] for i in range(len([k for k in FIXTURE.files
                                                              if k.startswith(f"{name}/{kind}")]))]


def test_every_recorded_case_is_checked():
    assert {k.split("/")[0] for k in FIXTURE.files if "/" in k} == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_backend_function_matches_tf_keras(name):
    out = CASES[name](*[K.constant(x) for x in fixture(name, "x")])
    got = K.get_session().run(list(out) if isinstance(out, tuple) else [out])
    want = fixture(name, "out")
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)


def test_eye_backend_name_and_floatx_casts():
    eye = K.eye(3, dtype="float64")
    assert tg.global_variables() == [eye] and K.get_value(eye).dtype == np.float64
    np.testing.assert_array_equal(K.get_value(eye), FIXTURE["eye"])
    assert K.backend() == "tensorflow" and K.cast_to_floatx([1, 2]).dtype == np.float32


def test_random_draws_have_the_shape_and_the_seed_repeats_them():
    draws = [K.random_normal((3, 4), seed=1), K.random_uniform((3, 4), 2.0, 3.0, seed=1),
             K.truncated_normal((3, 4), stddev=0.5, seed=1), K.random_binomial((3, 4), p=0.5, seed=1)]
    values = K.get_session().run(draws)
    assert all(v.shape == (3, 4) and v.dtype == np.float32 for v in values)
    assert ((values[1] >= 2) & (values[1] < 3)).all() and (np.abs(values[2]) <= 1.0).all()
    assert set(np.unique(values[3])) <= {0.0, 1.0}
    np.testing.assert_array_equal(K.get_session().run(K.random_normal((3, 4), seed=1)), values[0])


def test_learning_phase_scope_sets_and_restores():
    before = K.learning_phase()
    with K.learning_phase_scope(1):
        assert K.learning_phase() == 1
    assert K.learning_phase() is before


def test_sparse_update_sub_and_print_tensor(capsys):
    sparse = tg.SparseTensor([[0, 1]], [2.0], [2, 2])
    assert K.is_sparse(sparse) and not K.is_sparse(K.constant(1.0))
    v = K.variable([3.0, 4.0])
    K.get_session().run(K.update_sub(v, [1.0, 1.0]))
    np.testing.assert_array_equal(K.get_value(v), [2.0, 3.0])
    np.testing.assert_array_equal(K.get_session().run(K.to_dense(sparse)), [[0, 2], [0, 0]])
    assert K.get_session().run(K.print_tensor(K.constant([1.0]), message="value: ")) == [1.0]
    assert "value: " in capsys.readouterr().err


@pytest.mark.parametrize("size", [3, 4, 5])
def test_radial_constraint_rings_follow_tf_1_15(size):
    kernel = np.random.RandomState(size).uniform(-1, 1, (size, size, 1, 1)).astype(np.float32)
    out = K.get_session().run(keras.constraints.RadialConstraint()(K.constant(kernel)))[:, :, 0, 0]
    half, k = size // 2, kernel[:, :, 0, 0]
    centre = k[half - 1, half - 1]
    outermost = k[2 * half - 1, 2 * half - 1]  # each ring takes the next value down the diagonal
    assert out[half, half] == centre and out[0, 0] == outermost and out[0, half] == outermost
    np.testing.assert_array_equal(out, out.T)
    np.testing.assert_array_equal(out, out[::-1, ::-1])
