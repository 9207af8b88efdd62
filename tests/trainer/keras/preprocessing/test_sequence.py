"""pad_sequences with Keras' semantics, as tables."""
import numpy as np
import pytest

from trainer.keras.preprocessing.sequence import pad_sequences

SEQUENCES = [[1], [2, 3], [4, 5, 6]]


@pytest.mark.parametrize("kwargs, expected", [
    ({}, [[0, 0, 1], [0, 2, 3], [4, 5, 6]]),
    ({"padding": "post"}, [[1, 0, 0], [2, 3, 0], [4, 5, 6]]),
    ({"maxlen": 2}, [[0, 1], [2, 3], [5, 6]]),
    ({"maxlen": 2, "truncating": "post"}, [[0, 1], [2, 3], [4, 5]]),
    ({"maxlen": 4, "value": -1}, [[-1, -1, -1, 1], [-1, -1, 2, 3], [-1, 4, 5, 6]]),
    ({"maxlen": 2, "padding": "post", "truncating": "post"}, [[1, 0], [2, 3], [4, 5]]),
])
def test_pad_sequences_table(kwargs, expected):
    out = pad_sequences(SEQUENCES, **kwargs)
    np.testing.assert_array_equal(out, expected)
    assert out.dtype == np.int32


def test_dtype_values_empty_sequences_and_errors():
    out = pad_sequences([[0.5, 1.5], []], dtype="float32", value=0.25)
    np.testing.assert_array_equal(out, [[0.5, 1.5], [0.25, 0.25]])
    assert pad_sequences([[1.7]]).tolist() == [[1]]  # int32 truncates, as numpy casts
    with pytest.raises(ValueError, match='Padding type "middle" not understood'):
        pad_sequences(SEQUENCES, padding="middle")
    with pytest.raises(ValueError, match="`sequences` must be a list of iterables"):
        pad_sequences([1, 2])
