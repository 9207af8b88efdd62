"""to_categorical and normalize, as tables."""
import numpy as np

from trainer.keras.utils import normalize, to_categorical


def test_to_categorical_table():
    np.testing.assert_array_equal(to_categorical([0, 2, 1]), [[1, 0, 0], [0, 0, 1], [0, 1, 0]])
    assert to_categorical([1], num_classes=4).tolist() == [[0, 1, 0, 0]]
    assert to_categorical(np.array([[1], [0]])).shape == (2, 2)  # a trailing axis of 1 is dropped
    assert to_categorical(np.zeros((2, 3), int), 5).shape == (2, 3, 5)
    assert to_categorical([1, 0]).dtype == np.float32


def test_normalize_divides_by_the_norm_and_leaves_zeros():
    np.testing.assert_allclose(normalize(np.array([[3.0, 4.0], [0.0, 0.0]])), [[0.6, 0.8], [0.0, 0.0]])
    np.testing.assert_allclose(normalize(np.array([[1.0, 1.0]]), order=1), [[0.5, 0.5]])
