"""tg.estimator.inputs.numpy_input_fn run in plain sessions with its queue runners started, as TF1 runs it:
batches in order or shuffled through a RandomShuffleQueue, TF1's short last batch and OutOfRangeError, endless full
batches, epochs per thread, the structures returned, and TF1's argument errors."""
import contextlib

import numpy as np
import pytest

import trainer as tf


@contextlib.contextmanager
def runners(session):
    """The session with the graph's queue runners running (numpy_input_fn's feeding threads)."""
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(session, coord)
    try:
        yield session
    finally:
        coord.request_stop()
        coord.join(threads)


def read_all(tensors, session):
    batches = []
    with runners(session):
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


def test_shuffled_rows_come_through_a_random_shuffle_queue_each_row_once_per_epoch():
    with tf.Graph().as_default():
        features = tf.estimator.inputs.numpy_input_fn({"i": np.arange(12)}, batch_size=4, num_epochs=3,
                                                      shuffle=True, queue_capacity=40)()
        (runner,) = tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)
        assert runner.queue.queue_ref.op.type == "RandomShuffleQueueV2"
        with tf.Session() as session:
            rows = np.concatenate([b["i"] for b in read_all(features, session)])
    np.testing.assert_array_equal(np.sort(rows), np.repeat(np.arange(12), 3))
    assert not (rows == np.tile(np.arange(12), 3)).all()


def test_each_thread_reads_num_epochs_passes_as_tf1_does():
    with tf.Graph().as_default():
        features = tf.estimator.inputs.numpy_input_fn(np.arange(6), batch_size=4, num_epochs=1, shuffle=False,
                                                      num_threads=2)()
        (runner,) = tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)
        assert len(runner.enqueue_ops) == 2 and runner.queue.queue_ref.op.type == "FIFOQueueV2"
        with tf.Session() as session:
            rows = np.concatenate(read_all(features, session))
    np.testing.assert_array_equal(np.sort(rows), np.repeat(np.arange(6), 2))


def test_num_epochs_none_gives_full_batches_forever():
    with tf.Graph().as_default():
        features = tf.estimator.inputs.numpy_input_fn({"i": np.arange(5)}, batch_size=3, num_epochs=None,
                                                      shuffle=False)()
        assert features["i"].shape.as_list() == [3]
        with tf.Session() as session, runners(session):
            got = np.concatenate([session.run(features["i"]) for _ in range(7)])
    np.testing.assert_array_equal(got, np.tile(np.arange(5), 5)[:21])


def test_each_session_reads_from_the_start():
    with tf.Graph().as_default():
        features = tf.estimator.inputs.numpy_input_fn(np.arange(4), batch_size=2, shuffle=False)()
        with tf.Session() as first, runners(first):
            assert list(first.run(features)) == [0, 1]
            with tf.Session() as second, runners(second):
                assert list(second.run(features)) == [0, 1]
            assert list(first.run(features)) == [2, 3]


def test_label_dicts_and_structures():
    with tf.Graph().as_default():
        features, labels = tf.estimator.inputs.numpy_input_fn(
            {"x": np.arange(3)}, {"y1": np.arange(3) * 2, "y2": np.arange(3) * 3}, batch_size=3, shuffle=False)()
        with tf.Session() as session, runners(session):
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
