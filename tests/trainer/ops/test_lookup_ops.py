"""Lookup tables: filled by tables_initializer from tensors or a vocabulary file, kept per session, looked up
elementwise (TF's answers for the table ops are in the conformance family "strings")."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import fresh_graph  # noqa: F401 (autouse)


@pytest.fixture
def vocabulary(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("emerson\t3\nlake\t1\npalmer\t4\n")
    return str(path)


def test_a_vocabulary_file_maps_words_to_line_numbers_and_back(vocabulary):
    words = tg.constant(["lake", "asia", "emerson\t3"])
    by_line = tg.contrib.lookup.index_table_from_file(vocabulary)
    by_column = tg.contrib.lookup.index_table_from_file(vocabulary, key_column_index=0)
    back = tg.contrib.lookup.index_to_string_table_from_file(vocabulary, value_column_index=0)
    counts = tg.lookup.StaticHashTable(tg.lookup.TextFileInitializer(
        vocabulary, tg.string, 0, tg.int64, 1), default_value=0)
    with tg.Session() as sess:
        sess.run(tg.tables_initializer())
        assert sess.run(by_line.lookup(words)).tolist() == [-1, -1, 0]
        assert sess.run(by_column.lookup(words)).tolist() == [1, -1, -1]
        assert sess.run(back.lookup(tg.constant([2, 7], tg.int64))).tolist() == [b"palmer", b"UNK"]
        assert sess.run(counts.lookup(tg.constant(["palmer", "lake"]))).tolist() == [4, 1]
        assert sess.run(by_line.size()) == 3
    short = tg.contrib.lookup.index_table_from_file(vocabulary, vocab_size=5)
    with tg.Session() as sess, pytest.raises(tg.errors.InvalidArgumentError, match="vocab_size"):
        sess.run(short.initializer)


def test_each_session_fills_its_own_table_once():
    keys = tg.placeholder(tg.string, [None])
    table = tg.contrib.lookup.index_table_from_tensor(keys)
    ids = table.lookup(tg.constant(["b", "a"]))
    with tg.Session() as first, tg.Session() as second:
        first.run(table.initializer, {keys: np.array([b"a", b"b"], object)})
        second.run(table.initializer, {keys: np.array([b"b"], object)})
        first.run(table.initializer, {keys: np.array([b"x"], object)})  # a second fill keeps the first contents
        assert first.run(ids).tolist() == [1, 0]
        assert second.run(ids).tolist() == [0, -1]
    with tg.Session() as third, pytest.raises(tg.errors.FailedPreconditionError, match="tables_initializer"):
        third.run(ids)


def test_out_of_vocabulary_words_take_bucket_ids_after_the_vocabulary():
    table = tg.contrib.lookup.index_table_from_tensor(["a", "b"], num_oov_buckets=3)
    words = tg.constant(["b", "zebra", "a", "zebra", "yak"])
    ids = table.lookup(words)
    with tg.Session() as sess:
        sess.run(tg.tables_initializer())
        got = sess.run(ids).tolist()
        buckets = sess.run(tg.strings.to_hash_bucket_fast(words, 3)).tolist()
        assert sess.run(table.size()) == 5
    assert got[0] == 1 and got[2] == 0 and got[1] == got[3] == 2 + buckets[1] and got[4] == 2 + buckets[4]


def test_bad_initializers_say_so():
    with pytest.raises(tg.errors.InvalidArgumentError, match="3 values"):
        table = tg.lookup.StaticHashTable(tg.lookup.KeyValueTensorInitializer(["a", "b"], [1, 2, 3]), 0)
        with tg.Session() as sess:
            sess.run(tg.tables_initializer())
    assert tg.initialize_all_tables().type == "NoOp" and table.key_dtype == tg.string
