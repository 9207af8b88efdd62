"""tf.data.experimental beyond the conformance cases (tests/trainer/conformance/cases_data2.py replays TF's answers):
files that outlive a session (TFRecordWriter, cache(filename)), a placeholder read by the whole-dataset ops, errors
skipped under ignore_errors, Options kept and merged, and a seeded sample's reproducibility."""
import numpy as np
import pytest

import trainer as tf
from tests.trainer.data.tf_data_util import drain, fresh_graph, ints  # noqa: F401  (fresh_graph: autouse)

ex = tf.data.experimental


def test_tfrecord_writer_writes_what_tfrecord_dataset_reads(tmp_path):
    path = str(tmp_path / "out.tfrecord")
    words = tf.data.Dataset.from_tensor_slices(tf.constant(["x", "yy", "zzz"]))
    write = ex.TFRecordWriter(path, "GZIP").write(words)
    with tf.Session() as sess:
        assert sess.run(write) is None
    assert drain(tf.data.TFRecordDataset(path, "GZIP")) == [b"x", b"yy", b"zzz"]


@pytest.mark.parametrize("keep", [lambda d, path: d.cache(str(path / "cache")),
                                  lambda d, path: d.apply(ex.snapshot(str(path / "snap")))], ids=["cache", "snapshot"])
def test_cache_file_serves_later_sessions_without_reading_the_input(tmp_path, keep):
    calls = []

    def counted():
        calls.append(1)
        yield from range(3)
    dataset = keep(tf.data.Dataset.from_generator(counted, tf.int64).map(lambda x: x * 2), tmp_path)
    assert ints(dataset) == [0, 2, 4]
    assert ints(dataset) == [0, 2, 4]
    assert len(calls) == 1


def test_whole_dataset_ops_read_a_fed_placeholder():
    n = tf.placeholder(tf.int64, [])
    dataset = tf.data.Dataset.range(n)
    total = dataset.reduce(np.int64(0), lambda s, x: s + x)
    count = ex.cardinality(dataset.batch(2))
    only = ex.get_single_element(dataset.skip(n - 1))
    with tf.Session() as sess:
        assert sess.run([total, count, only], {n: 5}) == [10, 3, 4]
        assert sess.run([total, count, only], {n: 3}) == [3, 2, 2]


def test_ignore_errors_skips_each_failing_element_and_keeps_reading():
    dataset = tf.data.Dataset.from_tensor_slices(np.array([0, 9, 1, 9, 2], np.int32)).map(
        lambda i: tf.gather(tf.constant([10, 20, 30]), i)).filter(lambda x: x > 0)
    with pytest.raises(tf.errors.InvalidArgumentError):
        drain(dataset)
    assert ints(dataset.apply(ex.ignore_errors())) == [10, 20, 30]


def test_get_next_as_optional_has_a_value_until_the_end():
    it = tf.data.make_initializable_iterator(tf.data.Dataset.range(2))
    optional = it.get_next_as_optional()
    with tf.Session() as sess:
        sess.run(it.initializer)
        assert sess.run([optional.has_value(), optional.get_value()]) == [True, 0]
        assert sess.run([optional.has_value(), optional.get_value()]) == [True, 1]
        assert not sess.run(optional.has_value())
        with pytest.raises(tf.errors.InvalidArgumentError, match="does not have a value"):
            sess.run(optional.get_value())


def test_options_are_kept_merged_and_checked():
    options = tf.data.Options()
    options.experimental_deterministic = False
    options.experimental_threading.private_threadpool_size = 4
    more = tf.data.Options()
    more.experimental_distribute.auto_shard_policy = ex.AutoShardPolicy.OFF
    dataset = tf.data.Dataset.range(3).with_options(options).map(lambda x: x).with_options(more)
    merged = dataset.options()
    assert merged.deterministic is False and merged.threading.private_threadpool_size == 4
    assert merged.experimental_distribute.auto_shard_policy == ex.AutoShardPolicy.OFF
    assert ints(dataset) == [0, 1, 2]
    with pytest.raises(AttributeError, match="Cannot set the property no_such_option on Options"):
        options.no_such_option = 1


def test_seeded_sample_from_datasets_repeats_its_order_and_keeps_every_element():
    def sample():
        return ints(ex.sample_from_datasets([tf.data.Dataset.range(0, 20), tf.data.Dataset.range(100, 120)],
                                            seed=7))
    first = sample()
    assert first == sample() and sorted(first) == list(range(20)) + list(range(100, 120))
    assert first != sorted(first)


def test_missing_names_say_why():
    with pytest.raises(NotImplementedError, match="tf.data service is TF2's"):
        ex.service.distribute  # noqa: B018
    with pytest.raises(NotImplementedError, match="not a variant tensor"):
        ex.to_variant  # noqa: B018


def test_sparse_elements_through_a_reinitializable_iterator_and_whole_dataset_ops():
    sparse = tf.SparseTensor([[0, 1], [2, 0]], [1.5, 2.5], [3, 2])
    rows = tf.data.Dataset.from_tensor_slices(sparse)
    assert tf.data.get_output_classes(rows) is tf.SparseTensor and rows.output_shapes.as_list() == [2]
    it = tf.data.Iterator.from_structure(rows.output_types, rows.output_shapes, output_classes=rows.output_classes)
    row = it.get_next()
    batched = ex.get_single_element(rows.batch(3))
    with tf.Session() as sess:
        sess.run(it.make_initializer(rows))
        first, second = sess.run(row), sess.run(row)
        whole = sess.run(batched)
    assert first.indices.tolist() == [[1]] and first.values.tolist() == [1.5] and first.dense_shape.tolist() == [2]
    assert second.indices.shape == (0, 1) and second.values.shape == (0,)
    assert whole.indices.tolist() == [[0, 1], [2, 0]] and whole.dense_shape.tolist() == [3, 2]


def test_dense_to_sparse_batch_keeps_every_entry_and_pads_the_shape():
    lengths = tf.data.Dataset.from_tensor_slices(np.array([1, 3], np.int64)).map(
        lambda n: tf.fill(tf.reshape(n, [1]), n))
    (batch,) = drain(lengths.apply(ex.dense_to_sparse_batch(2, [4])))
    assert batch.indices.tolist() == [[0, 0], [1, 0], [1, 1], [1, 2]]
    assert batch.values.tolist() == [1, 3, 3, 3] and batch.dense_shape.tolist() == [2, 4]
    with pytest.raises(TypeError, match="padded_batch\\(\\) of SparseTensor components"):
        lengths.apply(ex.dense_to_sparse_batch(2, [4])).padded_batch(2, [None])


def test_fetched_whole_dataset_results_are_the_callers_own_arrays():
    x = np.arange(3.0)
    only = ex.get_single_element(tf.data.Dataset.from_tensors(x))
    final = tf.data.Dataset.from_tensors(x).reduce(np.zeros(3), lambda state, element: element)
    with tf.Session() as sess:
        for fetch in (only, final):
            mine = sess.run(fetch)
            mine[0] = 99.0
            assert sess.run(fetch).tolist() == [0.0, 1.0, 2.0]
