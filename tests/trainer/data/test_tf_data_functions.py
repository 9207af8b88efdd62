"""The functions tf.data applies (map, filter, flat_map, interleave): traced once into the graph, run per element."""
import numpy as np
import pytest

import trainer as tf
from tests.trainer.data.tf_data_util import drain, fresh_graph, ints  # noqa: F401  (fresh_graph: autouse)


def test_map_unpacks_tuples_passes_dicts_whole_and_takes_a_returned_list_as_a_tuple():
    pairs = tf.data.Dataset.from_tensor_slices((np.arange(3.0), np.arange(3) * 10))
    assert drain(pairs.map(lambda x, y: x + tf.cast(y, tf.float64))) == [0.0, 11.0, 22.0]
    dicts = tf.data.Dataset.from_tensor_slices({"a": np.arange(3), "b": np.ones(3, np.int64)})
    assert ints(dicts.map(lambda d: d["a"] - d["b"])) == [-1, 0, 1]
    listed = tf.data.Dataset.range(2).map(lambda v: [v, v * 2])
    assert listed.output_types == (tf.int64, tf.int64) and drain(listed) == [(0, 0), (1, 2)]
    nested = tf.data.Dataset.range(2).map(lambda v: {"x": v, "y": (v + 1, 7.0)}, num_parallel_calls=4)
    assert nested.output_types == {"x": tf.int64, "y": (tf.int64, tf.float32)}
    assert drain(nested)[1] == {"x": 1, "y": (2, 7.0)}


def test_map_runs_tf_ops_with_their_static_shapes_like_numpy():
    images = np.random.default_rng(0).random((5, 4, 6, 3))
    labels = np.array([0, 2, 1, 2, 0])

    def preprocess(image, label):
        flat = tf.reshape(tf.cast(image, tf.float32), [-1])
        return tf.image.flip_left_right(image), flat * 2.0 - 1.0, tf.one_hot(label, 3)
    ds = tf.data.Dataset.from_tensor_slices((images, labels)).map(preprocess)
    assert ds.output_shapes == ((4, 6, 3), (72,), (3,))
    assert ds.output_types == (tf.float64, tf.float32, tf.float32)
    for i, (flipped, flat, onehot) in enumerate(drain(ds)):
        assert np.array_equal(flipped, images[i][:, ::-1])
        assert np.array_equal(flat, images[i].astype(np.float32).reshape(-1) * np.float32(2) - np.float32(1))
        assert np.array_equal(onehot, np.eye(3, dtype=np.float32)[labels[i]])


def test_map_reads_captured_tensors_when_the_iterator_is_initialized():
    scale = tf.placeholder(tf.int64, [])
    offset = tf.constant(100, tf.int64)
    ds = tf.data.Dataset.range(3).map(lambda v: v * scale + offset)
    assert ints(ds, feed_dict={scale: 2}) == [100, 102, 104]
    assert ints(ds, feed_dict={scale: -1}) == [100, 99, 98]


def test_random_ops_in_map_are_reproducible_with_a_seed_and_fresh_per_element():
    def noisy():
        ds = tf.data.Dataset.range(6).map(lambda v: tf.cast(v, tf.float32) + tf.random_uniform([], seed=5))
        return drain(ds)
    first, second = noisy(), noisy()
    assert first == second
    noise = np.array(first) - np.arange(6)
    assert np.all((noise >= 0) & (noise < 1)) and len(set(noise.round(6))) == 6


def test_control_flow_inside_a_map_function():
    ds = tf.data.Dataset.range(6).map(lambda v: tf.cond(v % 2 > 0, lambda: v * 100, lambda: -v))
    assert ints(ds) == [0, 100, -2, 300, -4, 500]


def test_filter_keeps_elements_whose_predicate_is_true_and_needs_a_scalar_bool():
    assert ints(tf.data.Dataset.range(10).filter(lambda v: v % 3 > 0)) == [1, 2, 4, 5, 7, 8]
    with pytest.raises(ValueError, match="`predicate` return type must be convertible to a scalar boolean"):
        tf.data.Dataset.range(3).filter(lambda v: v)


def test_a_function_that_returns_no_tensor_is_refused_with_its_transformation_named():
    with pytest.raises(TypeError, match=r"Unsupported return value from function passed to Dataset.map\(\): None"):
        tf.data.Dataset.range(3).map(lambda v: None)
    with pytest.raises(TypeError, match="must return a `Dataset` object"):
        tf.data.Dataset.range(3).flat_map(lambda v: v)


def test_a_tensor_of_a_map_function_cannot_be_used_outside_it():
    leaked = []

    def double(v):
        leaked.extend([v, v * 2])
        return leaked[-1]
    ds = tf.data.Dataset.range(3).map(double)
    with tf.Session() as sess:
        with pytest.raises(ValueError, match=r"argument of the function passed to Dataset.map\(\): it has a value"):
            sess.run(leaked[0])
        with pytest.raises(ValueError, match=r"built inside the function passed to Dataset.map\(\) and runs only"):
            sess.run(leaked[1])
    assert ints(ds) == [0, 2, 4]


def test_flat_map_and_interleave_follow_tf1s_documented_orders():
    a = tf.data.Dataset.range(1, 6)
    got = ints(a.interleave(lambda x: tf.data.Dataset.from_tensors(x).repeat(6), cycle_length=2, block_length=4))
    assert got == [1] * 4 + [2] * 4 + [1] * 2 + [2] * 2 + [3] * 4 + [4] * 4 + [3] * 2 + [4] * 2 + [5] * 6
    rows = tf.data.Dataset.from_tensor_slices(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]))
    assert ints(rows.flat_map(lambda x: tf.data.Dataset.from_tensor_slices(x + 1))) == list(range(2, 11))
    one = a.interleave(lambda x: tf.data.Dataset.range(x), cycle_length=1)
    assert ints(one) == ints(a.flat_map(lambda x: tf.data.Dataset.range(x)))
    with pytest.raises(tf.errors.InvalidArgumentError, match="block_length must be greater than zero"):
        a.interleave(lambda x: tf.data.Dataset.range(x), cycle_length=2, block_length=0)


def test_nested_datasets_see_the_outer_element():
    inner = tf.data.Dataset.range(3).flat_map(lambda v: tf.data.Dataset.range(v).map(lambda w: w + 10 * v))
    assert ints(inner) == [10, 20, 21]
    shuffled = tf.data.Dataset.range(1, 4).flat_map(
        lambda v: tf.data.Dataset.range(v * 10, v * 10 + 5).shuffle(5, seed=1))
    got = ints(shuffled)
    assert [sorted(got[i:i + 5]) for i in (0, 5, 10)] == [list(range(10, 15)), list(range(20, 25)),
                                                          list(range(30, 35))]
