"""tf.data's sources and transformations (trainer/data/), each against a closed form or a numpy reference."""
import collections

import numpy as np
import pytest

import trainer as tf
from tests.trainer.data.tf_data_util import drain, fresh_graph, ints  # noqa: F401  (fresh_graph: autouse)


@pytest.mark.parametrize("args", [(5,), (2, 5), (1, 5, 2), (1, 5, -2), (5, 1), (5, 1, -2), (0,), (-3, 4, 3)])
def test_range_follows_pythons_range_as_int64_scalars(args):
    ds = tf.data.Dataset.range(*args)
    assert ds.output_types == tf.int64 and ds.output_shapes == ()
    assert ints(ds) == list(range(*args))


def test_range_rejects_a_zero_step_and_bad_argument_counts():
    with pytest.raises(ValueError, match="step must be a non-zero integer"):
        tf.data.Dataset.range(0, 5, 0)
    with pytest.raises(ValueError, match="Invalid arguments to RangeDataset"):
        tf.data.Dataset.range()


def test_from_tensor_slices_slices_tuples_dicts_and_takes_a_list_as_one_tensor():
    ds = tf.data.Dataset.from_tensor_slices([[1, 2], [3, 4], [5, 6]])  # TF1: a list is a value, not a structure
    assert ds.output_types == tf.int32 and ds.output_shapes == (2,)
    assert [v.tolist() for v in drain(ds)] == [[1, 2], [3, 4], [5, 6]]
    x, y = np.arange(12.0).reshape(4, 3), np.array([0, 1, 0, 1])
    pairs = drain(tf.data.Dataset.from_tensor_slices((x, y)))
    assert len(pairs) == 4 and all(np.array_equal(a, x[i]) and b == y[i] for i, (a, b) in enumerate(pairs))
    ds = tf.data.Dataset.from_tensor_slices({"image": x, "label": y.astype(np.int64)})
    assert ds.output_types == {"image": tf.float64, "label": tf.int64}
    assert ds.output_shapes == {"image": (3,), "label": ()}
    assert [d["label"] for d in drain(ds)] == [0, 1, 0, 1]
    assert tf.data.Dataset.from_tensor_slices([1.5]).output_types == tf.float32  # Python floats: float32


def test_from_tensor_slices_needs_one_first_dimension_and_no_scalars():
    with pytest.raises(ValueError, match="Dimensions 3 and 2 are not compatible"):
        tf.data.Dataset.from_tensor_slices((np.zeros(3), np.zeros(2)))
    with pytest.raises(ValueError, match="is a scalar"):
        tf.data.Dataset.from_tensor_slices(1.0)


def test_from_tensors_is_one_element_of_the_whole_structure():
    ds = tf.data.Dataset.from_tensors((np.arange(3), {"k": 2.0}))
    assert ds.output_shapes == ((3,), {"k": ()})
    (only,) = drain(ds)
    assert only[0].tolist() == [0, 1, 2] and only[1]["k"] == 2.0


def test_batch_sizes_and_static_shapes_follow_drop_remainder():
    ds = tf.data.Dataset.range(10).batch(4)
    assert ds.output_shapes == (None,)
    assert [b.tolist() for b in drain(ds)] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    dropped = tf.data.Dataset.range(10).batch(4, drop_remainder=True)
    assert dropped.output_shapes == (4,)
    assert [b.tolist() for b in drain(dropped)] == [[0, 1, 2, 3], [4, 5, 6, 7]]
    nested = tf.data.Dataset.from_tensor_slices((np.ones((5, 2)), np.arange(5))).batch(2).batch(2)
    assert nested.output_shapes == ((None, None, 2), (None, None))
    assert [b[1].tolist() for b in drain(nested)] == [[[0, 1], [2, 3]], [[4]]]


def test_batch_rejects_a_size_below_one_and_elements_of_different_shapes():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Batch size must be greater than zero"):
        tf.data.Dataset.range(3).batch(0)
    ragged = tf.data.Dataset.range(1, 4).map(lambda n: tf.fill(tf.expand_dims(n, 0), n)).batch(2)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"component 0. First element had shape \[1\] and "
                                                             r"element 1 had shape \[2\]"):
        drain(ragged)


def test_padded_batch_pads_to_the_longest_or_to_a_fixed_shape_with_the_padding_value():
    seqs = tf.data.Dataset.range(1, 6).map(lambda n: tf.fill(tf.expand_dims(n, 0), n))
    padded = seqs.padded_batch(2, padded_shapes=[None])
    assert padded.output_shapes == (None, None)
    expected = [[[1, 0], [2, 2]], [[3, 3, 3, 0], [4, 4, 4, 4]], [[5, 5, 5, 5, 5]]]
    assert [b.tolist() for b in drain(padded)] == expected
    fixed = seqs.padded_batch(2, padded_shapes=[6], padding_values=np.int64(-1), drop_remainder=True)
    assert fixed.output_shapes == (2, 6)
    assert drain(fixed)[1].tolist() == [[3, 3, 3, -1, -1, -1], [4, 4, 4, 4, -1, -1]]
    pairs = seqs.map(lambda v: {"ids": v, "len": tf.size(v)}).padded_batch(3, {"ids": [None], "len": []})
    first = drain(pairs)[0]
    assert first["ids"].tolist() == [[1, 0, 0], [2, 2, 0], [3, 3, 3]] and first["len"].tolist() == [1, 2, 3]


def test_padded_batch_errors_name_the_culprit():
    seqs = tf.data.Dataset.range(1, 4).map(lambda n: tf.fill(tf.expand_dims(n, 0), n))
    with pytest.raises(tf.errors.DataLossError, match="Attempted to pad to a smaller size"):
        drain(seqs.padded_batch(3, padded_shapes=[2]))
    with pytest.raises(ValueError, match="not compatible with the corresponding input component shape"):
        tf.data.Dataset.from_tensor_slices(np.zeros((4, 3))).padded_batch(2, padded_shapes=[2])
    with pytest.raises(TypeError, match="does not match output type: int64"):
        seqs.padded_batch(2, padded_shapes=[None], padding_values=-1)  # TF1: a Python int is int32


def test_shuffle_is_a_permutation_that_a_seed_repeats_and_a_buffer_of_one_leaves_alone():
    orders = [ints(tf.data.Dataset.range(50).shuffle(10, seed=s)) for s in (7, 7, 8)]
    assert sorted(orders[0]) == list(range(50)) and orders[0] == orders[1] != orders[2]
    assert orders[0] != list(range(50))
    assert ints(tf.data.Dataset.range(20).shuffle(1, seed=3)) == list(range(20))
    graph_seeded = []
    for _ in range(2):  # a graph-level seed alone makes it reproducible too
        with tf.Graph().as_default():
            tf.set_random_seed(11)
            graph_seeded.append(ints(tf.data.Dataset.range(30).shuffle(30)))
    assert graph_seeded[0] == graph_seeded[1] != list(range(30))


def test_shuffle_draws_only_from_its_buffer_of_the_next_inputs():
    n, size = 200, 8
    for seed in range(5):
        order = ints(tf.data.Dataset.range(n).shuffle(size, seed=seed))
        # output j is picked from a buffer holding inputs up to j + size - 1: it cannot come from further ahead
        assert all(v <= j + size - 1 for j, v in enumerate(order))
        assert sorted(order) == list(range(n))


def test_shuffle_picks_uniformly_from_the_buffer():
    counts = collections.Counter(ints(tf.data.Dataset.range(4).shuffle(4, seed=s).take(1))[0] for s in range(800))
    assert sorted(counts) == [0, 1, 2, 3] and all(150 < c < 250 for c in counts.values()), counts


def test_reshuffle_each_iteration_gives_each_epoch_its_own_order():
    epochs = ints(tf.data.Dataset.range(20).shuffle(20, seed=1).repeat(3))
    first, second, third = epochs[:20], epochs[20:40], epochs[40:]
    assert sorted(first) == sorted(second) == sorted(third) == list(range(20))
    assert first != second and second != third
    fixed = ints(tf.data.Dataset.range(20).shuffle(20, seed=1, reshuffle_each_iteration=False).repeat(3))
    assert fixed[:20] == fixed[20:40] == fixed[40:] != list(range(20))


def test_repeat_take_skip_and_shard_follow_their_closed_forms():
    r = tf.data.Dataset.range
    assert ints(r(3).repeat(2)) == [0, 1, 2, 0, 1, 2]
    assert ints(r(3).repeat().take(7)) == [0, 1, 2, 0, 1, 2, 0]
    assert ints(r(0).repeat()) == []  # an empty pass ends an endless repeat (TF1)
    assert ints(r(10).take(3)) == [0, 1, 2] and ints(r(3).take(-1)) == [0, 1, 2] and ints(r(3).take(9)) == [0, 1, 2]
    assert ints(r(10).skip(7)) == [7, 8, 9] and ints(r(3).skip(-1)) == [] and ints(r(3).skip(5)) == []
    for k in (1, 3, 4):
        for i in range(k):
            assert ints(r(11).shard(k, i)) == list(range(i, 11, k))  # round robin: i, i + k, i + 2k, ...


def test_shard_rejects_bad_worker_arguments_when_the_iterator_starts():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Number of shards must be greater than zero"):
        drain(tf.data.Dataset.range(4).shard(0, 0))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Index must be between 0 and 1 \(currently index = 2\)"):
        drain(tf.data.Dataset.range(4).shard(2, 2))
    index = tf.placeholder(tf.int64, [])
    with pytest.raises(tf.errors.InvalidArgumentError, match="currently index = 5"):
        drain(tf.data.Dataset.range(4).shard(3, index), feed_dict={index: 5})


def test_zip_concatenate_and_apply():
    a, b = tf.data.Dataset.range(1, 4), tf.data.Dataset.range(4, 8)
    assert drain(tf.data.Dataset.zip((a, b))) == [(1, 4), (2, 5), (3, 6)]  # stops at the shortest
    z = drain(tf.data.Dataset.zip({"x": a, "y": (b, a)}))
    assert z[0] == {"x": 1, "y": (4, 1)}
    with pytest.raises(TypeError, match="please use a tuple instead"):
        tf.data.Dataset.zip([a, b])
    with pytest.raises(ValueError, match="needs at least one dataset"):
        tf.data.Dataset.zip(())
    assert ints(a.concatenate(b)) == [1, 2, 3, 4, 5, 6, 7]
    with pytest.raises(TypeError, match="Two datasets to concatenate have different types"):
        a.concatenate(tf.data.Dataset.from_tensor_slices([1.0]))
    assert ints(a.apply(lambda d: d.map(lambda v: v * 10))) == [10, 20, 30]
    with pytest.raises(TypeError, match="`transformation_func` must return a Dataset"):
        a.apply(lambda d: 3)


def test_cache_replays_the_first_complete_pass_without_calling_the_source_again():
    calls = []

    def gen():
        calls.append(1)
        yield from range(3)
    ds = tf.data.Dataset.from_generator(gen, tf.int64, tf.TensorShape([])).cache().repeat(3)
    assert ints(ds) == [0, 1, 2] * 3 and len(calls) == 1
    calls.clear()
    uncached = tf.data.Dataset.from_generator(gen, tf.int64).repeat(3)
    assert ints(uncached) == [0, 1, 2] * 3 and len(calls) == 3  # a generator is called anew each pass
    calls.clear()
    partial = tf.data.Dataset.from_generator(gen, tf.int64).cache().take(2).repeat(2)
    assert ints(partial) == [0, 1, 0, 1] and len(calls) == 2  # an unfinished pass keeps nothing


def test_from_generator_converts_and_checks_what_the_generator_yields():
    def pairs(n):
        for i in range(int(n)):
            yield i, [1.0] * i
    ds = tf.data.Dataset.from_generator(pairs, (tf.int32, tf.float32), (tf.TensorShape([]), tf.TensorShape([None])),
                                        args=(3,))
    assert ds.output_types == (tf.int32, tf.float32) and ds.output_shapes == ((), (None,))
    got = drain(ds)
    assert [g[0] for g in got] == [0, 1, 2] and [g[1].tolist() for g in got] == [[], [1.0], [1.0, 1.0]]
    assert got[0][1].dtype == np.float32
    with pytest.raises(tf.errors.InvalidArgumentError, match="did not match the expected structure"):
        drain(tf.data.Dataset.from_generator(lambda: iter([1]), (tf.int32, tf.int32)))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"element of shape \(2,\) where an element of shape "):
        drain(tf.data.Dataset.from_generator(lambda: iter([[1, 2]]), tf.int32, tf.TensorShape([3])))
    with pytest.raises(TypeError, match="`generator` must be callable"):
        tf.data.Dataset.from_generator([1, 2], tf.int32)


def failing(error):
    def generate():
        yield 1
        raise error
    return generate


@pytest.mark.parametrize("error, tf_class", [(ValueError("bad"), "InvalidArgumentError"),
                                             (TypeError("bad"), "InvalidArgumentError"),
                                             (RuntimeError("bad"), "UnknownError"), (IndexError("bad"), "UnknownError"),
                                             (KeyError("bad"), "UnknownError")])
def test_what_a_generator_raises_is_the_op_error_tfs_py_func_makes_of_it(error, tf_class):
    ds = tf.data.Dataset.from_generator(failing(error), tf.int32)
    with pytest.raises(getattr(tf.errors, tf_class)) as caught:
        drain(ds)
    assert caught.value.op is not None and caught.value.op.type == "IteratorGetNext"
    assert "bad" in str(caught.value)


def test_prefetch_is_transparent_and_autotune_is_minus_one():
    assert tf.data.experimental.AUTOTUNE == -1
    assert ints(tf.data.Dataset.range(5).prefetch(tf.data.experimental.AUTOTUNE)) == list(range(5))


def test_output_classes_and_repr_read_like_tf1():
    ds = tf.data.Dataset.from_tensor_slices((np.zeros((2, 3), np.float32), np.zeros(2, np.int64)))
    assert ds.output_classes == (tf.Tensor, tf.Tensor)
    assert repr(ds) == "<DatasetV1Adapter shapes: ((3,), ()), types: (tf.float32, tf.int64)>"
    assert tf.compat.v1.data.get_output_types(ds) == (tf.float32, tf.int64)
    assert tf.compat.v1.data.get_output_shapes(ds) == ((3,), ())
    with pytest.raises(RuntimeError, match="only supported inside of tf.function or when eager"):
        iter(ds)


def test_experimental_transformations_equal_their_unfused_forms():
    fused = ints(tf.data.Dataset.range(10).apply(tf.data.experimental.shuffle_and_repeat(10, count=2, seed=4)))
    plain = ints(tf.data.Dataset.range(10).shuffle(10, seed=4).repeat(2))
    assert sorted(fused[:10]) == sorted(fused[10:]) == list(range(10)) and len(fused) == 20
    assert len(plain) == 20
    mb = drain(tf.data.Dataset.range(5).apply(tf.data.experimental.map_and_batch(lambda v: v * 2, 2)))
    assert [b.tolist() for b in mb] == [[0, 2], [4, 6], [8]]
    ub = tf.data.Dataset.range(7).batch(3).apply(tf.data.experimental.unbatch())
    assert ub.output_shapes == () and ints(ub) == list(range(7))
    pairs = tf.data.Dataset.from_tensor_slices(np.arange(6).reshape(3, 2)).unbatch()
    assert drain(pairs.enumerate(start=10)) == [(10, 0), (11, 1), (12, 2), (13, 3), (14, 4), (15, 5)]
    with pytest.raises(ValueError, match="Cannot unbatch an input with scalar components"):
        tf.data.Dataset.range(3).unbatch()


def test_experimental_counter_and_enumerate_dataset():
    counted = tf.data.experimental.Counter(5, -2, tf.int32).take(3)
    assert counted.output_types == tf.int32 and ints(counted) == [5, 3, 1]
    pairs = tf.data.Dataset.from_tensor_slices([7, 8]).apply(tf.data.experimental.enumerate_dataset(10))
    assert [tuple(map(int, p)) for p in drain(pairs)] == [(10, 7), (11, 8)]
