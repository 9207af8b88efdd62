"""tf.data iterators in graph mode: one-shot, initializable, reinitializable and feedable, as TF1 runs them."""
import threading

import numpy as np
import pytest

import trainer as tf
from tests.trainer.data.tf_data_util import fresh_graph  # noqa: F401  (autouse)


def test_get_next_has_static_shapes_and_dtypes_with_an_unknown_batch_dimension():
    ds = tf.data.Dataset.from_tensor_slices((np.zeros((10, 28, 28), np.float32), np.zeros(10, np.int64)))
    images, labels = ds.batch(32).make_one_shot_iterator().get_next()
    assert images.shape == (None, 28, 28) and images.dtype == tf.float32
    assert labels.shape == (None,) and labels.dtype == tf.int64
    images, _ = ds.batch(4, drop_remainder=True).make_one_shot_iterator().get_next()
    assert images.shape.as_list() == [4, 28, 28]
    assert images.op.type == "IteratorGetNext" and images.graph is tf.get_default_graph()


def test_an_iterators_serialized_state_restores_its_position_in_another_session():
    it = tf.data.Dataset.range(6).shuffle(6, seed=1).make_initializable_iterator()
    (spec,) = tf.data.experimental.make_saveable_from_iterator(it).specs
    saved = tf.placeholder(tf.string, [None])
    restore = tf.data.experimental.make_saveable_from_iterator(it).restore([saved], [None])
    x = it.get_next()
    with tf.Session() as sess:
        sess.run(it.initializer)
        sess.run([x, x])
        state = sess.run(spec.tensor)  # the iterator's SerializeIterator op
        rest = [sess.run(x) for _ in range(4)]
    with tf.Session() as sess:
        sess.run(restore, {saved: state})  # DeserializeIterator
        assert [sess.run(x) for _ in range(4)] == rest


def test_out_of_range_error_comes_after_the_last_element_and_keeps_coming():
    x = tf.data.Dataset.range(7).batch(3).make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        assert [sess.run(x).tolist() for _ in range(3)] == [[0, 1, 2], [3, 4, 5], [6]]
        for _ in range(2):
            with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
                sess.run(x)


def test_every_op_of_one_run_sees_the_same_element_and_each_get_next_op_takes_one():
    it = tf.data.Dataset.range(100).make_one_shot_iterator()
    x = it.get_next()
    doubled, plus_one = x * 2, x + 1
    with tf.Session() as sess:
        for i in range(3):
            a, b, c = sess.run([x, doubled, plus_one])
            assert (a, b, c) == (i, 2 * i, i + 1)
        assert sess.run(doubled) == 6 and sess.run(plus_one) == 5  # a run that fetches only a consumer still pulls
        y = it.get_next()  # a second get_next op: one more element per run
        assert sess.run([x, y]) in ([5, 6], [6, 5])


def test_each_session_has_its_own_iterator_state():
    x = tf.data.Dataset.range(3).make_one_shot_iterator().get_next()
    with tf.Session() as first, tf.Session() as second:
        assert [first.run(x), first.run(x), second.run(x)] == [0, 1, 0]


def test_get_next_before_the_initializer_is_a_failed_precondition():
    it = tf.data.Dataset.range(3).make_initializable_iterator()
    x = it.get_next()
    with tf.Session() as sess:
        with pytest.raises(tf.errors.FailedPreconditionError, match="the iterator has not been initialized"):
            sess.run(x)
        sess.run(it.initializer)
        assert sess.run(x) == 0


def test_initializable_iterator_feeds_its_placeholder_at_initialization_and_restarts():
    features = tf.placeholder(tf.float64, [None, 2])
    it = tf.data.Dataset.from_tensor_slices(features).batch(2).make_initializable_iterator()
    batch = it.get_next()
    total = tf.reduce_sum(batch)
    data = np.arange(10.0).reshape(5, 2)
    with tf.Session() as sess:
        sess.run(it.initializer, feed_dict={features: data})
        assert [sess.run(total) for _ in range(3)] == [6.0, 22.0, 17.0]
        sess.run(it.initializer, feed_dict={features: data[:1] * 10})
        assert sess.run(batch).tolist() == [[0.0, 10.0]]
        with pytest.raises(tf.errors.OutOfRangeError):
            sess.run(batch)
        with pytest.raises(ValueError, match="You must feed a value for placeholder"):
            sess.run(it.initializer)


def test_reinitializing_reshuffles_while_a_fixed_seed_shuffle_repeats_its_order():
    for reshuffle in (True, False):
        with tf.Graph().as_default():
            it = tf.data.Dataset.range(30).shuffle(30, seed=2, reshuffle_each_iteration=reshuffle) \
                .make_initializable_iterator()
            x = it.get_next()
            with tf.Session() as sess:
                orders = []
                for _ in range(2):
                    sess.run(it.initializer)
                    orders.append([int(sess.run(x)) for _ in range(30)])
            assert sorted(orders[0]) == sorted(orders[1]) == list(range(30))
            assert (orders[0] != orders[1]) == reshuffle  # TF 1.15 keeps the seed generator in the iterator


def test_reinitializable_iterator_switches_between_train_and_validation_datasets():
    train = tf.data.Dataset.range(100).map(lambda v: v * 2)
    validation = tf.data.Dataset.range(50, 53)
    it = tf.data.Iterator.from_structure(train.output_types, train.output_shapes)
    x = it.get_next()
    train_init, val_init = it.make_initializer(train), it.make_initializer(validation)
    with pytest.raises(ValueError, match="Iterator does not have an initializer"):
        it.initializer
    with tf.Session() as sess:
        for _ in range(2):
            sess.run(train_init)
            assert [sess.run(x) for _ in range(3)] == [0, 2, 4]
            sess.run(val_init)
            assert [sess.run(x) for _ in range(3)] == [50, 51, 52]
            with pytest.raises(tf.errors.OutOfRangeError):
                sess.run(x)
    with pytest.raises(TypeError, match="Expected output types"):
        it.make_initializer(tf.data.Dataset.from_tensor_slices([1.0]))
    with pytest.raises(TypeError, match="Expected output shapes compatible"):
        it.make_initializer(tf.data.Dataset.from_tensor_slices(np.zeros((2, 3), np.int64)))


def test_feedable_iterator_runs_whichever_iterator_its_string_handle_names():
    training = tf.data.Dataset.range(1000).repeat()
    validation = tf.data.Dataset.range(-3, 0)
    handle = tf.placeholder(tf.string, shape=[])
    it = tf.data.Iterator.from_string_handle(handle, training.output_types, training.output_shapes)
    x = it.get_next()
    train_it, val_it = training.make_one_shot_iterator(), validation.make_initializable_iterator()
    with tf.Session() as sess:
        train_handle, val_handle = sess.run([train_it.string_handle(), val_it.string_handle()])
        assert isinstance(train_handle, bytes) and train_handle != val_handle
        assert [sess.run(x, {handle: train_handle}) for _ in range(3)] == [0, 1, 2]
        sess.run(val_it.initializer)
        assert [sess.run(x, {handle: val_handle}) for _ in range(3)] == [-3, -2, -1]
        with pytest.raises(tf.errors.OutOfRangeError):
            sess.run(x, {handle: val_handle})
        assert sess.run(x, {handle: train_handle}) == 3  # the training iterator kept its place
        floats = tf.data.Iterator.from_string_handle(handle, tf.float32).get_next()
        with pytest.raises(tf.errors.InvalidArgumentError, match="yields elements of types"):
            sess.run(floats, {handle: train_handle})


def test_one_shot_iterators_refuse_placeholders_and_variables():
    p = tf.placeholder(tf.float32, [None])
    with pytest.raises(ValueError, match="Cannot capture a placeholder"):
        tf.data.Dataset.from_tensor_slices(p).make_one_shot_iterator()
    v = tf.Variable(2, dtype=tf.int64)
    with pytest.raises(ValueError, match="does not support datasets that capture stateful objects"):
        tf.data.Dataset.range(3).map(lambda x: x * v).make_one_shot_iterator()
    with pytest.raises(ValueError, match="Iterator does not have an initializer"):
        tf.data.Dataset.range(3).make_one_shot_iterator().initializer


def test_module_level_tf1_forms_and_shared_names():
    ds = tf.data.Dataset.range(4)
    one = tf.compat.v1.data.make_one_shot_iterator(ds)
    init = tf.compat.v1.data.make_initializable_iterator(ds)
    assert tf.compat.v1.data.get_output_types(one) == tf.int64 and one.output_shapes == ()
    a = ds.make_initializable_iterator(shared_name="stream")
    b = tf.data.Dataset.range(4).make_initializable_iterator(shared_name="stream")
    xa, xb, x1, xi = a.get_next(), b.get_next(), one.get_next(), init.get_next()
    with tf.Session() as sess:
        sess.run([a.initializer, init.initializer])
        assert [sess.run(xa), sess.run(xb), sess.run(xa)] == [0, 1, 2]  # one shared iterator state
        assert [sess.run(x1), sess.run(xi)] == [0, 0]
    assert len(tf.get_collection("iterators")) == 4


def test_threads_share_one_iterator_and_get_every_element_once():
    x = tf.data.Dataset.range(2000).map(lambda v: v * 3).make_one_shot_iterator().get_next()
    got, errors = [], []
    with tf.Session() as sess:
        def worker():
            try:
                while True:
                    got.append(int(sess.run(x)))
            except tf.errors.OutOfRangeError:
                pass
            except Exception as exc:  # noqa: BLE001 - reported by the assertion below
                errors.append(exc)
        threads = [threading.Thread(target=worker) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert not errors and sorted(got) == [3 * i for i in range(2000)]
