"""The sparse-id columns beyond what the fc2 conformance family records: a VarLenFeature parsed from Examples feeds
them as TF1 programs do, make_parse_example_spec names the weight feature, and bad arguments say what is wrong."""
import numpy as np
import pytest

import trainer as tg

fc = tg.feature_column


@pytest.fixture(autouse=True)
def fresh_graph():
    tg.reset_default_graph()


def run(fetches):
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        return sess.run(fetches)


def example(words, weights):
    feature = {"words": tg.train.Feature(bytes_list=tg.train.BytesList(value=[w.encode() for w in words])),
               "weights": tg.train.Feature(float_list=tg.train.FloatList(value=weights))}
    return tg.train.Example(features=tg.train.Features(feature=feature)).SerializeToString()


def test_parsed_examples_feed_a_weighted_vocabulary_file_column(tmp_path):
    vocabulary = tmp_path / "words.txt"
    vocabulary.write_text("the\ncat\nsat\n")
    words = fc.categorical_column_with_vocabulary_file("words", str(vocabulary), num_oov_buckets=1)
    weighted = fc.weighted_categorical_column(words, "weights")
    spec = fc.make_parse_example_spec([fc.indicator_column(weighted)])
    assert spec == {"words": tg.VarLenFeature(tg.string), "weights": tg.VarLenFeature(tg.float32)}
    parsed = tg.parse_example([example(["cat", "the", "cat"], [1., 2., 3.]), example(["dog"], [.5]),
                               example([], [])], spec)
    counts = run(fc.input_layer(parsed, [fc.indicator_column(weighted)]))
    # the, cat, sat, then one bucket for every other word; an example without words is all zeros
    assert np.array_equal(counts, [[2., 4., 0., 0.], [0., 0., 0., .5], [0., 0., 0., 0.]])


def test_shared_embedding_columns_look_up_one_table():
    a, b = fc.categorical_column_with_identity("a", 3), fc.categorical_column_with_identity("b", 3)
    shared = fc.shared_embedding_columns([b, a], 2, initializer=tg.constant_initializer([[0, 1], [2, 3], [4, 5]]))
    assert [c.name for c in shared] == ["b_shared_embedding", "a_shared_embedding"]
    net = fc.input_layer({"a": [[0], [2]], "b": [[1], [1]]}, shared)
    assert [v.name for v in tg.trainable_variables()] == ["input_layer/a_b_shared_embedding/embedding_weights:0"]
    assert np.array_equal(run(net), [[0., 1., 2., 3.], [4., 5., 2., 3.]])


def test_bad_sparse_columns_say_what_is_wrong(tmp_path):
    vocabulary = tmp_path / "v.txt"
    vocabulary.write_text("a\nb\n")
    with pytest.raises(ValueError, match="Invalid vocabulary_size in w: 3"):
        fc.categorical_column_with_vocabulary_file("w", str(vocabulary), vocabulary_size=3)
    with pytest.raises(ValueError, match="cannot be read"):
        fc.categorical_column_with_vocabulary_file("w", str(tmp_path / "none.txt"))
    with pytest.raises(ValueError, match="both num_oov_buckets and default_value"):
        fc.categorical_column_with_vocabulary_file("w", str(vocabulary), num_oov_buckets=1, default_value=0)
    with pytest.raises(ValueError, match="same number of buckets"):
        fc.shared_embedding_columns([fc.categorical_column_with_identity("a", 3),
                                     fc.categorical_column_with_identity("b", 4)], 2)
    with pytest.raises(ValueError, match="takes a categorical column"):
        fc.weighted_categorical_column(fc.numeric_column("x"), "w")
    with pytest.raises(ValueError, match="SparseTensor is not supported. key: x"):
        fc.input_layer({"x": tg.SparseTensor([[0, 0]], [1.], [1, 1])}, [fc.numeric_column("x")])


def test_a_crossed_column_reads_what_its_keys_read_and_checks_them():
    age = fc.bucketized_column(fc.numeric_column("age"), [30.])
    crossed = fc.crossed_column([fc.crossed_column(["color", age], 3), "word"], 10)
    assert crossed.name == "age_bucketized_X_color_X_word"
    assert fc.make_parse_example_spec([fc.indicator_column(crossed)]) == {
        "color": tg.VarLenFeature(tg.string), "age": tg.FixedLenFeature((1,), tg.float32), "word":
        tg.VarLenFeature(tg.string)}
    with pytest.raises(ValueError, match="keys must be a list with length > 1"):
        fc.crossed_column(["color"], 10)
    with pytest.raises(ValueError, match="except HashedCategoricalColumn"):
        fc.crossed_column(["color", fc.categorical_column_with_hash_bucket("word", 5)], 10)


def test_a_dense_feature_is_crossed_after_the_sparse_inputs():
    # TF's SparseCross hashes its sparse inputs (column ids, SparseTensor features) first, then the dense features
    words = [["a", "b"], ["c", "d"]]
    sparse_words = tg.SparseTensor([[0, 0], [0, 1], [1, 0], [1, 1]], np.array(words, object).ravel(), [2, 2])
    ids = fc.categorical_column_with_identity("ids", 4)
    hot = lambda keys, w: fc.input_layer({"w": w, "ids": [[1], [3]]},  # noqa: E731
                                         [fc.indicator_column(fc.crossed_column(keys, 50))])
    dense_listed_first = hot(["w", ids], tg.constant(words))
    sparse_listed_last = hot([ids, "w"], sparse_words)
    sparse_listed_first = hot(["w", ids], sparse_words)
    got = run([dense_listed_first, sparse_listed_last, sparse_listed_first])
    assert np.array_equal(got[0], got[1]) and got[0].sum() == 4
    assert not np.array_equal(got[0], got[2])
