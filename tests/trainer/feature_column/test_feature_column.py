"""tg.feature_column against TF1's documented semantics, computed independently with numpy: input_layer orders
columns by name; bucketized columns count boundaries <= value (TF1's docstring example); indicator columns count
ids; embedding columns combine their rows by mean, sqrtn or sum."""
import numpy as np
import pytest

import trainer as tg
from trainer.unsupported import NotInRingflow

fc = tg.feature_column


@pytest.fixture(autouse=True)
def fresh_graph():
    tg.reset_default_graph()


def run(fetches, feed=None):
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        return sess.run(fetches, feed)


def test_numeric_columns_are_concatenated_in_name_order_as_float32():
    features = {"b": np.array([1, 2, 3], np.int32), "a": np.arange(6.0).reshape(3, 2), "c": [[0.5], [1.5], [2.5]]}
    columns = [fc.numeric_column("c", normalizer_fn=lambda x: x * 2.0), fc.numeric_column("b"),
               fc.numeric_column("a", shape=2)]
    net = fc.input_layer(features, columns)
    assert net.dtype == np.float32 and net.shape.as_list()[1] == 4
    expected = np.concatenate([features["a"], features["b"][:, None], 2 * np.array(features["c"])], axis=1)
    assert np.array_equal(run(net), expected)


def test_a_fed_feature_and_a_two_dimensional_shape():
    x = tg.placeholder(tg.float64, [None, 2, 3])
    net = fc.input_layer({"x": x}, [fc.numeric_column("x", shape=(2, 3))])
    value = np.arange(12.0).reshape(2, 2, 3)
    assert np.array_equal(run(net, {x: value}), value.reshape(2, 6))


def test_bucketized_column_tf1_docstring_example():
    values = np.array([[-5, 10000], [150, 10], [5, 100]], np.float32)
    column = fc.bucketized_column(fc.numeric_column("v", shape=2), [0, 10, 100])
    buckets = np.searchsorted([0, 10, 100], values, side="right")
    assert buckets.tolist() == [[0, 3], [3, 2], [1, 3]]  # the buckets TF1 documents for this input
    expected = np.eye(4)[buckets].reshape(3, 8)
    assert np.array_equal(run(fc.input_layer({"v": values}, [column])), expected)
    # as a categorical column, element i's bucket b is id i * 4 + b
    counts = run(fc.input_layer({"v": values}, [fc.indicator_column(column)]))
    assert np.array_equal(counts, np.eye(8)[buckets + [0, 4]].sum(axis=1))


def test_indicator_of_identity_ids_counts_them_and_skips_minus_one():
    ids = np.array([[1, -1, 1], [2, 0, -1]])
    column = fc.indicator_column(fc.categorical_column_with_identity("ids", 4))
    assert run(fc.input_layer({"ids": ids}, [column])).tolist() == [[0, 2, 0, 0], [1, 0, 1, 0]]
    single = fc.indicator_column(fc.categorical_column_with_identity("one", 3))
    assert run(fc.input_layer({"one": [2, 0]}, [single])).tolist() == [[0, 0, 1], [1, 0, 0]]


def test_out_of_range_ids_take_the_default_or_fail_the_run():
    with_default = fc.indicator_column(fc.categorical_column_with_identity("ids", 3, default_value=0))
    assert run(fc.input_layer({"ids": [[5], [-3], [1]]}, [with_default])).tolist() == [[1, 0, 0], [1, 0, 0],
                                                                                       [0, 1, 0]]
    ids = tg.placeholder(tg.int64, [None])
    strict = fc.input_layer({"ids": ids}, [fc.indicator_column(fc.categorical_column_with_identity("ids", 3))])
    assert run(strict, {ids: [2, -1]}).tolist() == [[0, 0, 1], [0, 0, 0]]
    with pytest.raises(tg.errors.InvalidArgumentError, match=r"ids must be in \[0, 3\)"):
        run(strict, {ids: [3, 0]})


@pytest.mark.parametrize("combiner", ["mean", "sqrtn", "sum"])
def test_embedding_column_combines_the_rows_of_each_example(combiner):
    ids = np.array([[0, 2, -1], [3, -1, -1], [-1, -1, -1], [1, 1, 4]])
    column = fc.embedding_column(fc.categorical_column_with_identity("ids", 5), 3, combiner=combiner)
    cols_to_vars = {}
    net = fc.input_layer({"ids": ids}, [column], cols_to_vars=cols_to_vars)
    (table,) = cols_to_vars[column]
    assert table.name == "input_layer/ids_embedding/embedding_weights:0" and table.shape.as_list() == [5, 3]
    got, weights = run([net, table])
    expected = []
    for row in ids:
        present = row[row >= 0]
        total = weights[present].sum(axis=0) if len(present) else np.zeros(3)
        scale = {"mean": max(len(present), 1), "sqrtn": np.sqrt(max(len(present), 1)), "sum": 1}[combiner]
        expected.append(total / scale)
    assert np.allclose(got, expected, rtol=1e-6)
    (grad,) = tg.gradients(tg.reduce_sum(net), [table])
    assert run(grad)[4].tolist() != [0, 0, 0] and run(grad)[0].tolist() != [0, 0, 0]  # the table learns


def test_embedding_initializer_and_max_norm():
    column = fc.embedding_column(fc.categorical_column_with_identity("ids", 2), 4,
                                 initializer=tg.constant_initializer([[3.0, 4.0, 0.0, 0.0], [0.3, 0.4, 0, 0]]),
                                 max_norm=1.0)
    got = run(fc.input_layer({"ids": [[0], [1]]}, [column]))
    assert np.allclose(got, [[0.6, 0.8, 0, 0], [0.3, 0.4, 0, 0]])  # a row of norm 5 clipped to norm 1


def test_variables_go_to_weight_collections_and_scopes_are_tf1s():
    column = fc.embedding_column(fc.categorical_column_with_identity("ids", 2), 2)
    fc.input_layer({"ids": [[0]]}, [column], weight_collections=["mine"], trainable=False)
    assert [v.name for v in tg.get_collection("mine")] == ["input_layer/ids_embedding/embedding_weights:0"]
    assert tg.trainable_variables() == []
    fc.input_layer({"ids": [[0]]}, [column])
    assert tg.trainable_variables()[0].name == "input_layer_1/ids_embedding/embedding_weights:0"


def test_bad_columns_and_arguments_say_what_is_wrong():
    identity = fc.categorical_column_with_identity("ids", 3)
    with pytest.raises(ValueError, match="wrap a categorical column with embedding_column or indicator_column"):
        fc.input_layer({"ids": [[0]]}, [identity])
    with pytest.raises(ValueError, match="must not be empty"):
        fc.input_layer({}, [])
    with pytest.raises(ValueError, match="Duplicate feature column name 'x'"):
        fc.input_layer({"x": [1.0]}, [fc.numeric_column("x"), fc.numeric_column("x")])
    with pytest.raises(ValueError, match="Feature 'y' is not in the features dictionary"):
        fc.input_layer({"x": [1.0]}, [fc.numeric_column("y")])
    with pytest.raises(ValueError, match="not integer"):
        fc.input_layer({"ids": [[0.5]]}, [fc.indicator_column(identity)])
    with pytest.raises(ValueError, match="greater than 0"):
        fc.numeric_column("x", shape=(0,))
    with pytest.raises(ValueError, match="sorted list"):
        fc.bucketized_column(fc.numeric_column("x"), [1, 1])
    with pytest.raises(ValueError, match="default_value 3 not in range"):
        fc.categorical_column_with_identity("ids", 3, default_value=3)
    with pytest.raises(ValueError, match="Invalid dimension"):
        fc.embedding_column(identity, 0)
    with pytest.raises(NotInRingflow, match="tf.feature_column.sequence_input_layer is not available"):
        fc.sequence_input_layer  # tf.contrib.feature_column's, as in TF 1.15


@pytest.mark.parametrize("combiner", ["sum", "mean", "sqrtn"])
def test_linear_model_sums_each_column_times_its_weights(combiner):
    features = {"x": np.arange(6.0).reshape(3, 2), "ids": np.array([[1, 1], [3, -1], [-1, -1]]),
                "b": np.array([-1.0, 0.5, 2.0])}
    columns = [fc.numeric_column("x", shape=2), fc.categorical_column_with_identity("ids", 4),
               fc.bucketized_column(fc.numeric_column("b"), [0.0, 1.0])]
    cols_to_vars = {}
    logits = fc.linear_model(features, columns, units=2, sparse_combiner=combiner, cols_to_vars=cols_to_vars)
    names = [v.name for v in tg.global_variables()]
    assert names == ["linear_model/b_bucketized/weights:0", "linear_model/ids/weights:0", "linear_model/x/weights:0",
                     "linear_model/bias_weights:0"]  # TF1's names, columns in name order
    assert [v.shape.as_list() for v in tg.global_variables()] == [[3, 2], [4, 2], [2, 2], [2]]
    assert cols_to_vars["bias"][0].name == "linear_model/bias_weights:0"
    rng = np.random.default_rng(0)
    w = {v.name: rng.normal(size=v.shape.as_list()) for v in tg.global_variables()}
    with tg.Session() as sess:
        for v in tg.global_variables():
            v.load(w[v.name], sess)
        got = sess.run(logits)
    ids_rows = [w["linear_model/ids/weights:0"][[1, 1]], w["linear_model/ids/weights:0"][[3]], np.zeros((0, 2))]
    scale = {"sum": lambda n: 1.0, "mean": lambda n: 1.0 / max(n, 1), "sqrtn": lambda n: 1.0 / np.sqrt(max(n, 1))}
    categorical = np.stack([rows.sum(axis=0) * scale[combiner](len(rows)) for rows in ids_rows])
    bucket_rows = w["linear_model/b_bucketized/weights:0"][np.searchsorted([0.0, 1.0], features["b"], side="right")]
    expected = (features["x"] @ w["linear_model/x/weights:0"] + categorical + bucket_rows
                + w["linear_model/bias_weights:0"])
    np.testing.assert_allclose(got, expected, rtol=1e-5)
    with pytest.raises(ValueError, match="sparse_combiner must be one of"):
        fc.linear_model(features, columns, sparse_combiner="max")


def test_vocabulary_list_ids_skip_missing_values_and_default_the_unknown():
    colours = fc.categorical_column_with_vocabulary_list("colour", ["red", "green", "blue"])
    sizes = fc.categorical_column_with_vocabulary_list("size", [10, 20], default_value=0)
    features = {"colour": np.array([["red", "blue"], ["pink", ""], ["green", "green"]]),
                "size": np.array([20, 30, -1])}
    counts = run(fc.input_layer(features, [fc.indicator_column(colours), fc.indicator_column(sizes)]))
    # "pink" is unknown (-1: no id), "" and -1 are missing values; 30 takes default_value 0
    assert counts.tolist() == [[1, 0, 1, 0, 1], [0, 0, 0, 1, 0], [0, 2, 0, 0, 0]]
    with pytest.raises(ValueError, match="Duplicate keys in vocabulary_list"):
        fc.categorical_column_with_vocabulary_list("c", ["a", "a"])
    with pytest.raises(ValueError, match="both num_oov_buckets and default_value"):
        fc.categorical_column_with_vocabulary_list("c", ["a"], num_oov_buckets=2, default_value=0)
    with pytest.raises(ValueError, match="Column dtype and SparseTensors dtype must be compatible"):
        fc.input_layer({"size": np.array(["10"])}, [fc.indicator_column(sizes)])


def test_hashed_columns_bucket_as_tf_and_drop_missing_values():
    fc = tg.feature_column
    words, numbers = fc.categorical_column_with_hash_bucket("w", 10), fc.categorical_column_with_hash_bucket(
        "n", 7, dtype=tg.int64)
    with tg.Graph().as_default():
        out = fc.input_layer({"w": tg.constant([["a", "b"], ["", "c"]]), "n": tg.constant([[1], [-1]], tg.int64)},
                             [fc.indicator_column(words), fc.indicator_column(numbers)])
        with tg.Session() as sess:
            got = sess.run(out)
    # TF 2.15's tf.compat.v1 answer: "" and -1 are missing, the rest land in FarmHash Fingerprint64's buckets
    assert got.tolist() == [[0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1],
                            [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]]
    with pytest.raises(ValueError, match="hash_bucket_size must be at least 1"):
        fc.categorical_column_with_hash_bucket("w", 0)


def test_the_parse_spec_is_what_each_column_reads():
    fc = tg.feature_column
    spec = fc.make_parse_example_spec([fc.numeric_column("x", (2,)),
                                       fc.indicator_column(fc.categorical_column_with_hash_bucket("w", 10)),
                                       fc.bucketized_column(fc.numeric_column("b"), [0.0])])
    assert repr(spec) == ("{'x': FixedLenFeature(shape=(2,), dtype=tf.float32, default_value=None), 'w': "
                          "VarLenFeature(dtype=tf.string), 'b': FixedLenFeature(shape=(1,), dtype=tf.float32, "
                          "default_value=None)}")
    with pytest.raises(ValueError, match="different parse_spec for key x"):
        fc.make_parse_example_spec([fc.numeric_column("x"), fc.categorical_column_with_hash_bucket("x", 3)])
