"""tf.keras.preprocessing.text against real Keras' outputs on the same texts (fixtures/text_keras.json, recorded
by fixtures/record_text.py with the version it names): word splitting, hashing, and the Tokenizer's indices,
sequences and matrices for each setting."""
import json
import pathlib

import numpy as np
import pytest

from trainer.keras.preprocessing import text

RECORDED = json.loads((pathlib.Path(__file__).parent / "fixtures" / "text_keras.json").read_text())


@pytest.mark.parametrize("setting", sorted(RECORDED["settings"]))
def test_tokenizer_matches_keras(setting):
    expected = RECORDED["tokenizers"][setting]
    tok = text.Tokenizer(**RECORDED["settings"][setting])
    tok.fit_on_texts(RECORDED["texts"])
    assert tok.word_index == expected["word_index"]
    assert list(tok.word_index) == list(expected["word_index"])  # ties keep the order words were first seen
    assert dict(tok.word_counts) == expected["word_counts"] and dict(tok.word_docs) == expected["word_docs"]
    assert tok.texts_to_sequences(RECORDED["texts"] + RECORDED["unseen"]) == expected["sequences"]
    assert tok.sequences_to_texts(tok.texts_to_sequences(RECORDED["unseen"])) == expected["texts"]
    for mode, matrix in expected["matrices"].items():
        np.testing.assert_allclose(tok.texts_to_matrix(RECORDED["texts"] + RECORDED["unseen"], mode=mode), matrix,
                                   rtol=1e-12, err_msg=mode)


def test_word_sequence_and_md5_hashing_match_keras():
    assert text.text_to_word_sequence(RECORDED["texts"][2]) == RECORDED["words"]
    assert text.hashing_trick(RECORDED["texts"][0], 7, hash_function="md5") == RECORDED["md5"]


def test_one_hot_gives_indices_in_range_equal_for_equal_words():
    indices = text.one_hot("a b a c", 5)
    assert all(1 <= i < 5 for i in indices) and indices[0] == indices[2]


def test_matrix_errors_say_what_to_do():
    with pytest.raises(ValueError, match="Specify a dimension"):
        text.Tokenizer().texts_to_matrix(["a"])
    with pytest.raises(ValueError, match="Fit the Tokenizer"):
        text.Tokenizer(num_words=3).sequences_to_matrix([[1]], mode="tfidf")
    with pytest.raises(ValueError, match="Unknown vectorization mode: 'bag'"):
        text.Tokenizer(num_words=3).sequences_to_matrix([[1]], mode="bag")
