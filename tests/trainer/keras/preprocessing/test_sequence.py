"""pad_sequences with Keras' semantics, as tables; TimeseriesGenerator, make_sampling_table, skipgrams and
tokenizer_from_json against real Keras' outputs (fixtures/sequence_keras.json, recorded by
fixtures/record_sequence.py)."""
import json
import pathlib
import random

import numpy as np
import pytest

from trainer.keras.preprocessing import sequence, text
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


EXTRAS = json.loads((pathlib.Path(__file__).parent / "fixtures" / "sequence_keras.json").read_text())


@pytest.mark.parametrize("name", sorted(EXTRAS["generators"]))
def test_timeseries_generator_batches_as_keras(name):
    case = EXTRAS["generators"][name]
    gen = sequence.TimeseriesGenerator(np.array(EXTRAS["data"]), np.array(EXTRAS["targets"]), **case["kwargs"])
    assert len(gen) == case["len"]
    for i, (samples, targets) in enumerate(case["batches"]):
        np.testing.assert_array_equal(gen[i][0], samples)
        np.testing.assert_array_equal(gen[i][1], targets)


def test_timeseries_generator_refuses_what_keras_refuses():
    with pytest.raises(ValueError, match="same length"):
        sequence.TimeseriesGenerator(np.zeros(5), np.zeros(4), length=2)
    with pytest.raises(ValueError, match="end_index"):
        sequence.TimeseriesGenerator(np.zeros(5), np.zeros(5), length=6)


def test_sampling_table_and_skipgrams_as_keras():
    table = sequence.make_sampling_table(8, sampling_factor=0.1)
    np.testing.assert_allclose(table, EXTRAS["sampling_table"], rtol=1e-12)
    np.testing.assert_allclose(sequence.make_sampling_table(5), EXTRAS["sampling_table_default"], rtol=1e-12)
    for name, case in sorted(EXTRAS["skipgrams"].items()):
        kwargs = dict(case["kwargs"], sampling_table=table) if case["kwargs"].get("sampling_table") else \
            case["kwargs"]
        random.seed(11)  # Keras' draws come from Python's random, so the same seed gives the same pairs
        couples, labels = sequence.skipgrams(EXTRAS["sequence"], 8, **kwargs)
        assert (couples, labels) == (case["couples"], case["labels"]), name


def test_tokenizer_from_keras_json_converts_as_keras():
    tokenizer = text.tokenizer_from_json(EXTRAS["tokenizer_json"])
    assert tokenizer.texts_to_sequences(["the cat and the dog"]) == EXTRAS["tokenizer_sequences"]
    again = text.tokenizer_from_json(tokenizer.to_json())
    assert again.get_config() == tokenizer.get_config()
