"""tg.estimator.inputs.numpy_input_fn run in plain sessions: batches in order or shuffled per epoch, TF1's short
last batch and OutOfRangeError, endless full batches, the structures returned, and TF1's argument errors."""
import numpy as np
import pytest

import trainer as tf


def read_all(tensors, session):
    batches = []
    while True:
        try:
            batches.append(session.run(tensors))
        except tf.errors.OutOfRangeError:
            return batches


def test_rows_come_in_order_epoch_after_epoch_then_the_input_ends():
    x = {"a": np.arange(10.0), "b": np.arange(20).reshape(10, 2)}
    with tf.Graph().as_default():
        features, labels = tf.estimator.inputs.numpy_input_fn(x, -np.arange(10), batch_size=4, num_epochs=2,
                                                              shuffle=False)()
        assert features["a"].shape.as_list() == [None] and features["b"].shape.as_list() == [None, 2]
        with tf.Session() as session:
            batches = read_all((features, labels), session)
    a = np.concatenate([f["a"] for f, _ in batches])
    assert [len(f["a"]) for f, _ in batches] == [4, 4, 4, 4, 4]  # batches run across the epoch boundary
    np.testing.assert_array_equal(a, np.r_[np.arange(10), np.arange(10)])
    np.testing.assert_array_equal(np.concatenate([f["b"] for f, _ in batches]), x["b"][a.astype(int)])
    np.testing.assert_array_equal(np.concatenate([y for _, y in batches]), -a)


def test_the_last_batch_is_short():
    with tf.Graph().as_default():
        features = tf.estimator.inputs.numpy_input_fn(np.arange(7.0), batch_size=3, shuffle=False)()
        with tf.Session() as session:
            assert [len(b) for b in read_all(features, session)] == [3, 3, 1]


def test_shuffled_epochs_are_permutations_and_follow_the_graph_seed():
    def epochs(seed):
        with tf.Graph().as_default():
            tf.set_random_seed(seed)
            features = tf.estimator.inputs.numpy_input_fn({"i": np.arange(12)}, batch_size=4, num_epochs=3,
                                                          shuffle=True)()
            with tf.Session() as session:
                return np.concatenate([b["i"] for b in read_all(features, session)]).reshape(3, 12)
    first = epochs(1)
    for epoch in first:
        np.testing.assert_array_equal(np.sort(epoch), np.arange(12))
    assert not all((epoch == np.arange(12)).all() for epoch in first)
    assert not (first[0] == first[1]).all()
    np.testing.assert_array_equal(epochs(1), first)


def test_num_epochs_none_gives_full_batches_forever():
    with tf.Graph().as_default():
        features = tf.estimator.inputs.numpy_input_fn({"i": np.arange(5)}, batch_size=3, num_epochs=None,
                                                      shuffle=False)()
        assert features["i"].shape.as_list() == [3]
        with tf.Session() as session:
            got = np.concatenate([session.run(features["i"]) for _ in range(7)])
    np.testing.assert_array_equal(got, np.tile(np.arange(5), 5)[:21])


def test_each_session_reads_from_the_start():
    with tf.Graph().as_default():
        features = tf.estimator.inputs.numpy_input_fn(np.arange(4), batch_size=2, shuffle=False)()
        with tf.Session() as first:
            assert list(first.run(features)) == [0, 1]
            with tf.Session() as second:
                assert list(second.run(features)) == [0, 1]
            assert list(first.run(features)) == [2, 3]


def test_label_dicts_and_structures():
    with tf.Graph().as_default():
        features, labels = tf.estimator.inputs.numpy_input_fn(
            {"x": np.arange(3)}, {"y1": np.arange(3) * 2, "y2": np.arange(3) * 3}, batch_size=3, shuffle=False)()
        with tf.Session() as session:
            f, y = session.run((features, labels))
    assert list(f) == ["x"] and sorted(y) == ["y1", "y2"]
    np.testing.assert_array_equal(y["y2"], [0, 3, 6])


def test_tf1_argument_errors():
    numpy_input_fn = tf.estimator.inputs.numpy_input_fn
    with pytest.raises(TypeError, match="shuffle must be explicitly set as boolean; got None"):
        numpy_input_fn({"x": np.arange(3)})
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Length of tensors in x and y is mismatched"):
            numpy_input_fn({"x": np.arange(3)}, np.arange(4), shuffle=False)()
        with pytest.raises(ValueError, match="1 duplicate keys are found in both x and y"):
            numpy_input_fn({"x": np.arange(3)}, {"x": np.arange(3)}, shuffle=False)()
        with pytest.raises(ValueError, match="x cannot be an empty dict"):
            numpy_input_fn({}, shuffle=False)()
        with pytest.raises(TypeError, match="x must be a dict or array; got list"):
            numpy_input_fn([1, 2], shuffle=False)()
    with pytest.raises(ValueError, match="batch_size must be a positive integer"):
        numpy_input_fn({"x": np.arange(3)}, batch_size=0, shuffle=False)
