"""The tf.data family: tf.data.experimental's transformations, sources and ops, and the Dataset methods they back,
each read to its end through an initializable iterator (cases.py's "drain"): every element's values in order, the
element's dtypes, static shapes and classes, and the error that ends it, as real TensorFlow gives them.

A seeded shuffle (Dataset.shuffle, shuffle_and_repeat, list_files) is TF's order bit for bit: its buffer draws
Philox uint32s as TF's does. sample_from_datasets and RandomDataset draw from numpy, so those cases compare the
multiset (sorted) or dtypes and shapes only."""
import os
import sqlite3
import tempfile

import numpy as np

from .cases import call, t

CSV_ROWS = ["a,b,c", "1,2.5,x", "3,,y", '4,0.5,"z, w"']


def ds(build):
    """An argument that is a dataset made by build(tf)."""
    return {"build": build}


def data(fn, *args, on=None, **kwargs):
    """A call whose result is a dataset (or, with `on`, a transformation applied to the dataset `on`), drained."""
    return dict(call(fn, *args, **kwargs), drain=True, then=None if on is None else [on])


def value(fn, *args, runs=1, **kwargs):
    """A call whose result is tensors, fetched `runs` times in one session."""
    return dict(call(fn, *args, **kwargs), runs=runs)


def r(n, *more):
    return ds(lambda tf: tf.data.Dataset.range(n, *more))


def ints(values, dtype="int64"):
    return ds(lambda tf: tf.data.Dataset.from_tensor_slices(np.array(values, dtype)))


def lengths(*sizes):
    """Elements of different lengths: a vector of `size` copies of size, for each size."""
    return ds(lambda tf: tf.data.Dataset.from_tensor_slices(np.array(sizes, np.int64)).map(
        lambda n: tf.fill(tf.reshape(n, [1]), n)))


def fn(make):
    """A function argument made by make(tf) (the functions map, scan, reduce and friends apply)."""
    return {"build": make}


def sorted_all(dataset):
    """A dataset drawn in a random order, as one sorted batch (its multiset)."""
    return lambda tf: dataset["build"](tf).batch(1000).map(lambda x: tf.sort(x))


def csv_file(rows=CSV_ROWS, name="data.csv"):
    def path(tf):
        folder = tempfile.mkdtemp(prefix="data2_csv_")
        with open(os.path.join(folder, name), "w") as f:
            f.write("\n".join(rows) + "\n")
        return os.path.join(folder, name)
    return {"build": path}


def sqlite_file():
    def path(tf):
        name = os.path.join(tempfile.mkdtemp(prefix="data2_sql_"), "people.db")
        with sqlite3.connect(name) as db:
            db.execute("CREATE TABLE people (name TEXT, age INTEGER, height REAL)")
            db.executemany("INSERT INTO people VALUES (?, ?, ?)", [("ann", 31, 1.62), ("bob", 27, 1.80),
                                                                   ("cy", 45, 1.71)])
        return name
    return {"build": path}


def _experimental():
    ex = "data.experimental."
    gather = fn(lambda tf: lambda i: tf.gather(tf.constant([10, 20, 30]), i))
    yield "ignore_errors/map", data(ex + "ignore_errors", on=ds(
        lambda tf: tf.data.Dataset.from_tensor_slices(np.array([0, 5, 1, 7, 2], np.int32)).map(
            lambda i: tf.gather(tf.constant([10, 20, 30]), i))))
    yield "ignore_errors/none", data(ex + "ignore_errors", on=ints([0, 1], "int32"))
    yield "map_error_ends_the_data", data("data.Dataset.map", ints([0, 5, 1], "int32"), gather)
    yield "take_while", data(ex + "take_while", fn(lambda tf: lambda x: x < 4), on=r(10))
    yield "take_while/none", data(ex + "take_while", fn(lambda tf: lambda x: x > 4), on=r(10))
    yield "take_while/not_bool", data(ex + "take_while", fn(lambda tf: lambda x: x), on=r(10))
    yield "scan", data(ex + "scan", np.int64(0), fn(lambda tf: lambda s, x: (s + x, s * 2)), on=r(5))
    yield "scan/tuple_state", data(ex + "scan", (np.int64(1), np.float32(0.5)),
                                   fn(lambda tf: lambda s, x: ((s[0] * 2, s[1] + 1.0), (s[0] + x, s[1]))), on=r(4))
    yield "scan/state_dtype_changes", data(ex + "scan", np.int32(0), fn(lambda tf: lambda s, x: (x, x)), on=r(3))
    yield "unique", data(ex + "unique", on=ints([1, 2, 1, 3, 2, 5]))
    yield "unique/int32", data(ex + "unique", on=ints([4, 4, 4, -1], "int32"))
    yield "unique/strings", data(ex + "unique", on=ds(
        lambda tf: tf.data.Dataset.from_tensor_slices(tf.constant(["a", "b", "a", "c"]))))
    yield "unique/float_refused", data(ex + "unique", on=ints([1.0, 2.0], "float32"))
    yield "group_by_window", data(ex + "group_by_window", fn(lambda tf: lambda x: x % 2),
                                  fn(lambda tf: lambda k, d: d.batch(2)), 3, on=r(10))
    yield "group_by_window/window_size_func", data(
        ex + "group_by_window", fn(lambda tf: lambda x: x % 3), fn(lambda tf: lambda k, d: d.batch(4)),
        window_size_func=fn(lambda tf: lambda k: k + 1), on=r(12))
    yield "group_by_window/key_not_int64", data(ex + "group_by_window", fn(lambda tf: lambda x: tf.cast(x, tf.int32)),
                                                fn(lambda tf: lambda k, d: d.batch(2)), 2, on=r(4))
    yield "group_by_reducer", data(ex + "group_by_reducer", fn(lambda tf: lambda x: x % 3), {"build": lambda tf: (
        tf.data.experimental.Reducer(lambda k: np.int64(0), lambda s, x: s + x, lambda s: s * 10))}, on=r(10))
    yield "group_by_reducer/tuple_state", data(ex + "group_by_reducer", fn(lambda tf: lambda x: x % 2), {
        "build": lambda tf: tf.data.experimental.Reducer(lambda k: (k, np.int64(0)), lambda s, x: (s[0], s[1] + 1),
                                                         lambda s: s)}, on=r(5))
    yield "bucket_by_sequence_length", data(
        ex + "bucket_by_sequence_length", fn(lambda tf: lambda x: tf.shape(x)[0]), [3, 5], [2, 2, 2],
        on=lengths(1, 4, 2, 6, 3, 5, 1, 7))
    yield "bucket_by_sequence_length/pad_to_boundary", data(
        ex + "bucket_by_sequence_length", fn(lambda tf: lambda x: tf.shape(x)[0]), [3, 5], [2, 2, 1],
        pad_to_bucket_boundary=True, on=lengths(1, 4, 2, 3))
    yield "bucket_by_sequence_length/pad_past_the_last_boundary", data(
        ex + "bucket_by_sequence_length", fn(lambda tf: lambda x: tf.shape(x)[0]), [3], [2, 2],
        pad_to_bucket_boundary=True, on=lengths(1, 4))
    yield "bucket_by_sequence_length/tuple_no_padding", data(
        ex + "bucket_by_sequence_length", fn(lambda tf: lambda x, y: tf.cast(y, tf.int32)), [2], [2, 1],
        no_padding=True, on=ds(lambda tf: tf.data.Dataset.range(4).map(lambda x: (tf.cast(x, tf.float32), x))))
    yield "bucket_by_sequence_length/bad_sizes", data(
        ex + "bucket_by_sequence_length", fn(lambda tf: lambda x: tf.shape(x)[0]), [3, 5], [2, 2],
        on=lengths(1, 2))
    two = ds(lambda tf: [tf.data.Dataset.range(0, 3), tf.data.Dataset.range(10, 13)])
    yield "choose_from_datasets", data(ex + "choose_from_datasets", two, ints([0, 1, 1, 0, 1, 0, 0]))
    yield "choose_from_datasets/bad_choice_dtype", data(ex + "choose_from_datasets", two, ints([0, 1], "int32"))
    yield "choose_from_datasets/out_of_range", data(ex + "choose_from_datasets", two, ints([0, 2]))
    yield "sample_from_datasets/sorted", data("data.Dataset.map", ds(lambda tf: tf.data.experimental.sample_from_datasets(
        [tf.data.Dataset.range(0, 5), tf.data.Dataset.range(10, 15)], [0.3, 0.7], seed=3).batch(100)),
        fn(lambda tf: lambda x: tf.sort(x)))
    yield "sample_from_datasets/one_weight", data(ex + "sample_from_datasets", ds(
        lambda tf: [tf.data.Dataset.range(4), tf.data.Dataset.range(10, 12)]), [1.0, 0.0], seed=1)
    yield "sample_from_datasets/bad_weights", data(ex + "sample_from_datasets", ds(
        lambda tf: [tf.data.Dataset.range(4), tf.data.Dataset.range(10, 12)]), [1.0, 0.0, 0.5])
    yield "Counter", data(ex + "Counter", 3, 2)
    yield "Counter/int32", data("data.Dataset.take", ds(lambda tf: tf.data.experimental.Counter(
        5, -1, tf.int32)), 4)
    yield "enumerate_dataset", data(ex + "enumerate_dataset", 3, on=ints([7, 8]))
    yield "map_and_batch", data(ex + "map_and_batch", fn(lambda tf: lambda x: x * 2), 3, on=r(7))
    yield "map_and_batch/drop_remainder", data(ex + "map_and_batch", fn(lambda tf: lambda x: (x, -x)), 3,
                                               drop_remainder=True, on=r(7))
    yield "map_and_batch/both_parallel_args", data(ex + "map_and_batch", fn(lambda tf: lambda x: x), 3,
                                                   num_parallel_batches=1, num_parallel_calls=1, on=r(7))
    yield "shuffle_and_repeat/multiset", data("data.Dataset.map", ds(lambda tf: tf.data.Dataset.range(5).apply(
        tf.data.experimental.shuffle_and_repeat(5, 2, seed=4)).batch(100)), fn(lambda tf: lambda x: tf.sort(x)))
    yield "shuffle_and_repeat", data(ex + "shuffle_and_repeat", 4, 2, seed=6, on=r(6))
    yield "parallel_interleave", data(ex + "parallel_interleave", fn(
        lambda tf: lambda x: tf.data.Dataset.from_tensors(x).repeat(x)), 2, on=r(1, 5))
    yield "parallel_interleave/block", data(ex + "parallel_interleave", fn(
        lambda tf: lambda x: tf.data.Dataset.range(x * 10, x * 10 + 3)), 2, 2, on=r(3))
    yield "unbatch", data(ex + "unbatch", on=ds(lambda tf: tf.data.Dataset.range(7).batch(3)))
    yield "unbatch/tuple", data(ex + "unbatch", on=ds(
        lambda tf: tf.data.Dataset.from_tensors((np.arange(6).reshape(3, 2), np.array([1.5, 2.5, 3.5])))))
    yield "get_single_element", value(ex + "get_single_element", ds(
        lambda tf: tf.data.Dataset.from_tensors((np.int32(3), np.array([1.0, 2.0])))), runs=2)
    yield "get_single_element/filtered", value(ex + "get_single_element", ds(
        lambda tf: tf.data.Dataset.range(10).filter(lambda x: tf.equal(x, 4))))
    yield "get_single_element/two", value(ex + "get_single_element", r(2))
    yield "get_single_element/empty", value(ex + "get_single_element", r(0))
    yield "cardinality/range", value(ex + "cardinality", r(10))
    yield "cardinality/batch", value(ex + "cardinality", ds(lambda tf: tf.data.Dataset.range(10).batch(3)))
    yield "cardinality/batch_drop", value(ex + "cardinality", ds(
        lambda tf: tf.data.Dataset.range(10).batch(3, drop_remainder=True)))
    yield "cardinality/repeat", value(ex + "cardinality", ds(lambda tf: tf.data.Dataset.range(3).repeat()))
    yield "cardinality/repeat_take", value(ex + "cardinality", ds(
        lambda tf: tf.data.Dataset.range(3).repeat().take(7)))
    yield "cardinality/filter", value(ex + "cardinality", ds(
        lambda tf: tf.data.Dataset.range(3).filter(lambda x: x > 0)))
    yield "cardinality/zip_concat_skip", value(ex + "cardinality", ds(lambda tf: tf.data.Dataset.zip(
        (tf.data.Dataset.range(5), tf.data.Dataset.range(8))).concatenate(
        tf.data.Dataset.zip((tf.data.Dataset.range(2), tf.data.Dataset.range(2)))).skip(3)))
    yield "cardinality/slices_map_shard", value(ex + "cardinality", ds(lambda tf: tf.data.Dataset.from_tensor_slices(
        np.arange(10)).map(lambda x: x + 1).shard(3, 1)))
    yield "cardinality/empty_repeat", value(ex + "cardinality", ds(lambda tf: tf.data.Dataset.range(0).repeat()))
    yield "assert_cardinality", data(ex + "assert_cardinality", 4, on=r(4))
    yield "assert_cardinality/fewer", data(ex + "assert_cardinality", 5, on=r(4))
    yield "assert_cardinality/more", data(ex + "assert_cardinality", 3, on=r(4))
    yield "assert_cardinality/cardinality", value(ex + "cardinality", ds(
        lambda tf: tf.data.Dataset.range(4).filter(lambda x: x > 1).apply(
            tf.data.experimental.assert_cardinality(2))))
    yield "prefetch_to_device", data(ex + "prefetch_to_device", "/cpu:0", on=r(3))
    yield "copy_to_device", data(ex + "copy_to_device", "/cpu:0", on=ds(
        lambda tf: tf.data.Dataset.from_tensor_slices({"a": np.arange(4.0), "b": np.arange(4)})))
    yield "RandomDataset", dict(data(ex + "RandomDataset", seed=5), values=False)  # dtypes and shapes only
    yield "SqlDataset", data(ex + "SqlDataset", "sqlite", sqlite_file(), "SELECT name, age, height FROM people",
                             ({"dtype": "string"}, {"dtype": "int32"}, {"dtype": "float64"}))
    yield "SqlDataset/where", data(ex + "SqlDataset", "sqlite", sqlite_file(),
                                   "SELECT age FROM people WHERE age > 30", ({"dtype": "int64"},))
    yield "SqlDataset/bad_driver", data(ex + "SqlDataset", "mysql", sqlite_file(), "SELECT age FROM people",
                                        ({"dtype": "int64"},))
    yield "SqlDataset/bad_query", data(ex + "SqlDataset", "sqlite", sqlite_file(), "SELECT nope FROM people",
                                       ({"dtype": "int64"},))
    yield "CsvDataset", data(ex + "CsvDataset", csv_file(), [[0], [-1.0], ["?"]], header=True)
    yield "CsvDataset/select_cols", data(ex + "CsvDataset", csv_file(), [[np.int64(0)], ["?"]], header=True,
                                         select_cols=[0, 2])
    yield "CsvDataset/required_missing", data(ex + "CsvDataset", csv_file(), {"list": [[0], {"build": lambda tf: tf.constant(
        [], tf.float32)}, ["?"]]}, header=True)
    yield "CsvDataset/no_header_na", data(ex + "CsvDataset", csv_file(["1;NA", "NA;2"]), [[7], [8]],
                                          field_delim=";", na_value="NA")
    yield "make_csv_dataset", data(ex + "make_csv_dataset", csv_file(), 2, shuffle=False, num_epochs=1,
                                   column_defaults=[0, 0.0, ""])
    yield "make_csv_dataset/label", data(ex + "make_csv_dataset", csv_file(["x,y,label", "1,2,0", "3,4,1", "5,6,0"]),
                                         2, label_name="label", shuffle=False, num_epochs=1)
    yield "make_csv_dataset/inferred_types", data(ex + "make_csv_dataset", csv_file(
        ["i,f,s", "1,2.5,a", "3,4,b"]), 5, shuffle=False, num_epochs=1, select_columns=["s", "i", "f"])
    yield "make_csv_dataset/bad_label", data(ex + "make_csv_dataset", csv_file(), 2, label_name="nope",
                                             shuffle=False, num_epochs=1)
    labelled = ds(lambda tf: tf.data.Dataset.range(9).map(lambda x: (x % 3, x * 10)))
    yield "rejection_resample/same_distribution", data(ex + "rejection_resample", fn(lambda tf: lambda c, x: c),
                                                       [0.2, 0.3, 0.5], initial_dist=[0.2, 0.3, 0.5], on=labelled)
    yield "rejection_resample/drop_a_class", data(ex + "rejection_resample", fn(lambda tf: lambda c, x: c),
                                                  [0.5, 0.5, 0.0], initial_dist=[1 / 3, 1 / 3, 1 / 3], seed=3,
                                                  on=labelled)
    yield "rejection_resample/estimated", dict(data(
        ex + "rejection_resample", fn(lambda tf: lambda x: tf.cast(x % 2, tf.int32)), [0.5, 0.5], seed=3,
        on=r(8)), values=False)
    yield "parse_example_dataset", data(ex + "parse_example_dataset", {"build": features},
                                        on=ds(lambda tf: examples(tf).batch(2)))
    yield "make_batched_features_dataset", data(ex + "make_batched_features_dataset", {"build": example_file}, 2,
                                                {"build": features}, label_key="label", shuffle=False, num_epochs=1)
    yield "make_batched_features_dataset/forever", data("data.Dataset.take", ds(
        lambda tf: tf.data.experimental.make_batched_features_dataset(example_file(tf), 2, features(tf),
                                                                      shuffle=False)), 3)
    yield "make_batched_features_dataset/bad_label", data(ex + "make_batched_features_dataset",
                                                          {"build": example_file}, 2, {"build": features},
                                                          label_key="nope", shuffle=False, num_epochs=1)
    yield "map_and_batch_with_legacy_function", data(ex + "map_and_batch_with_legacy_function",
                                                     fn(lambda tf: lambda x: x + 1), 2, on=r(5))
    yield "from_list", data(ex + "from_list", [(1, "a"), (2, "b"), (3, "c")])
    yield "from_list/dicts", data(ex + "from_list", [{"x": 1.5, "y": [1, 2]}, {"x": 2.5, "y": [3, 4]}])
    yield "from_list/empty", data(ex + "from_list", {"list": []})
    yield "pad_to_cardinality", data(ex + "pad_to_cardinality", 4, on=ds(
        lambda tf: tf.data.Dataset.from_tensor_slices({"a": np.arange(2), "b": np.ones((2, 2), np.float32)})))
    yield "pad_to_cardinality/not_a_dict", data(ex + "pad_to_cardinality", 4, on=r(2))
    words = ds(lambda tf: tf.data.Dataset.from_tensor_slices(tf.constant(["the", "cat", "sat"])))
    yield "index_table_from_dataset", dict(value(ex + "index_table_from_dataset", words),
                                           method=["lookup", {"s": ["sat", "dog", "the"]}])
    yield "index_table_from_dataset/oov", dict(value(ex + "index_table_from_dataset", words, num_oov_buckets=2),
                                               method=["lookup", {"s": ["sat", "dog", "the"]}])
    yield "table_from_dataset", dict(value(ex + "table_from_dataset", ds(lambda tf: tf.data.Dataset.zip((
        tf.data.Dataset.range(3), tf.data.Dataset.from_tensor_slices(tf.constant([0.5, 1.5, 2.5]))))),
        default_value=-1.0), method=["lookup", {"build": lambda tf: tf.constant([2, 7, 0], tf.int64)}])
    yield "snapshot", data("data.Dataset.repeat", ds(lambda tf: tf.data.Dataset.range(4).map(lambda x: x * 2).apply(
        tf.data.experimental.snapshot(tempfile.mkdtemp(prefix="data2_snapshot_")))), 2)
    yield "snapshot/applied", data(ex + "snapshot", {"build": lambda tf: tempfile.mkdtemp(prefix="data2_snapshot_")},
                                   on=ints([3, 1, 2]))
    yield "dense_to_sparse_batch", data(ex + "dense_to_sparse_batch", 2, [5], on=lengths(1, 3, 2))
    yield "dense_to_sparse_batch/unknown_row", data(ex + "dense_to_sparse_batch", 2, [-1], on=lengths(2, 1, 3))
    yield "dense_to_sparse_batch/matrix", data(ex + "dense_to_sparse_batch", 3, [2, 3], on=ds(
        lambda tf: tf.data.Dataset.from_tensor_slices(np.arange(12.0).reshape(2, 2, 3))))
    yield "dense_to_sparse_batch/largest_row", data(ex + "dense_to_sparse_batch", 2, [None], on=lengths(2, 1, 3))
    yield "dense_to_sparse_batch/too_long", data(ex + "dense_to_sparse_batch", 2, [2], on=lengths(1, 3))
    yield "with_options", data("data.Dataset.with_options", r(3), {"build": options})
    yield "Options/threading", data("data.Dataset.with_options", r(2), {"build": lambda tf: options(
        tf, threading=True)})


def records(tf):
    """Three serialized tf.train.Example protos: an int64 label, two float32 values, a string."""
    out = []
    for i in range(3):
        out.append(tf.train.Example(features=tf.train.Features(feature={
            "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[i])),
            "x": tf.train.Feature(float_list=tf.train.FloatList(value=[i * 0.5, -i])),
            "s": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"ab"[:i]]))})).SerializeToString())
    return out


def examples(tf):
    return tf.data.Dataset.from_tensor_slices(tf.constant(records(tf)))


def example_file(tf):
    path = os.path.join(tempfile.mkdtemp(prefix="data2_examples_"), "examples.tfrecord")
    with tf.python_io.TFRecordWriter(path) as writer:
        for record in records(tf):
            writer.write(record)
    return path


def features(tf):
    return {"label": tf.FixedLenFeature([], tf.int64), "x": tf.FixedLenFeature([2], tf.float32),
            "s": tf.FixedLenFeature([], tf.string, default_value="?")}


def options(tf, threading=False):
    o = tf.data.Options()
    o.experimental_deterministic = True
    o.experimental_optimization.map_parallelization = True
    o.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
    if threading:
        o.experimental_threading = tf.data.experimental.ThreadingOptions()
        o.experimental_threading.private_threadpool_size = 2
    return o


def _methods():
    D = "data.Dataset."
    yield "Dataset.shuffle/small_buffer", data(D + "shuffle", r(10), 3, seed=5)
    yield "Dataset.shuffle/large_buffer", data(D + "shuffle", r(10), 100, seed=7)
    yield "Dataset.shuffle/graph_seed", dict(data(D + "shuffle", r(8), 8, seed=2), graph_seed=4)
    yield "Dataset.shuffle/reshuffle_each_pass", data("data.Dataset.repeat", ds(
        lambda tf: tf.data.Dataset.range(6).shuffle(6, seed=1)), 3)
    yield "Dataset.shuffle/same_order_each_pass", data("data.Dataset.repeat", ds(
        lambda tf: tf.data.Dataset.range(6).shuffle(6, seed=1, reshuffle_each_iteration=False)), 2)
    yield "Dataset.shuffle/tuples", data(D + "shuffle", ds(lambda tf: tf.data.Dataset.from_tensor_slices(
        (np.arange(7), np.arange(7) * 0.5))), 4, seed=11)
    yield "Dataset.list_files/shuffled", data(D + "list_files", {"build": lambda tf: list_glob()}, seed=9)
    yield "Dataset.reduce", value(D + "reduce", r(5), np.int64(0), fn(lambda tf: lambda s, x: s + x))
    yield "Dataset.reduce/tuple", value(D + "reduce", ints([1.0, 2.0, 4.0], "float32"), (np.float32(0), np.int64(0)),
                                        fn(lambda tf: lambda s, x: (s[0] + x, s[1] + 1)))
    yield "Dataset.reduce/empty", value(D + "reduce", r(0), np.int64(7), fn(lambda tf: lambda s, x: s + x))
    yield "Dataset.reduce/dtype_changes", value(D + "reduce", r(3), np.int32(0), fn(lambda tf: lambda s, x: s + x))
    yield "Dataset.list_files", data(D + "list_files", {"build": lambda tf: list_glob()}, shuffle=False)
    yield "Dataset.list_files/sorted", data("data.Dataset.map", ds(lambda tf: tf.data.Dataset.list_files(
        list_glob(), seed=2).batch(10)), fn(lambda tf: lambda x: tf.sort(tf.strings.length(x))))
    yield "Dataset.list_files/none", data(D + "list_files", {"build": lambda tf: "/nonexistent_data2/*.txt"})
    yield "Dataset.filter_with_legacy_function", data(D + "filter_with_legacy_function", r(6),
                                                      fn(lambda tf: lambda x: x % 2 > 0))
    yield "Dataset.map_with_legacy_function", data(D + "map_with_legacy_function", r(3),
                                                   fn(lambda tf: lambda x: (x, tf.cast(x, tf.float32) / 2)))
    yield "Dataset.from_sparse_tensor_slices", data(D + "from_sparse_tensor_slices", {"sparse": [
        [[0, 1], [2, 0], [2, 2]], t("float32", (3,)), [4, 3]]})
    sparse = {"sparse": [[[0, 1], [2, 0], [2, 2]], t("float32", (3,)), [4, 3]]}
    yield "Dataset.from_tensor_slices/sparse", data(D + "from_tensor_slices", sparse)
    yield "Dataset.from_tensors/sparse", data(D + "from_tensors", sparse)
    yield "Dataset.batch/sparse", data(D + "batch", ds(lambda tf: tf.data.Dataset.from_tensor_slices(
        tf.SparseTensor([[0, 1], [2, 0], [2, 2]], [1.0, 2.0, 3.0], [4, 3]))), 3)
    yield "Dataset.map/to_sparse", data(D + "map", r(1, 4), fn(
        lambda tf: lambda x: (x, tf.SparseTensor([[0]], tf.reshape(x * 2, [1]), tf.reshape(x, [1])))))
    yield "Dataset.map/from_sparse", data(D + "map", ds(lambda tf: tf.data.Dataset.from_tensor_slices(
        tf.SparseTensor([[0, 1], [2, 0], [2, 2]], [1.0, 2.0, 3.0], [4, 3]))), fn(
        lambda tf: lambda s: (tf.reduce_sum(s.values), s.dense_shape)))
    yield "Dataset.sparse_batch", data(D + "sparse_batch", lengths(1, 3, 2), 2, [4])
    yield "Dataset.rejection_resample", data(D + "rejection_resample", ds(
        lambda tf: tf.data.Dataset.range(6).map(lambda x: (x % 2, x))), fn(lambda tf: lambda c, x: c), [1.0, 0.0],
        initial_dist=[0.5, 0.5], seed=1)
    yield "Dataset.window", data("data.Dataset.flat_map", ds(lambda tf: tf.data.Dataset.range(7).window(3)),
                                 fn(lambda tf: lambda w: w.batch(3)))
    yield "Dataset.window/shift_drop", data("data.Dataset.flat_map", ds(
        lambda tf: tf.data.Dataset.range(7).window(3, shift=2, drop_remainder=True)),
        fn(lambda tf: lambda w: w.batch(3)))
    yield "Dataset.window/stride_tuple", data("data.Dataset.flat_map", ds(
        lambda tf: tf.data.Dataset.from_tensor_slices((np.arange(6), np.arange(6) * 1.5)).window(2, 3, 2)),
        fn(lambda tf: lambda a, b: tf.data.Dataset.zip((a.batch(2), b.batch(2)))))
    yield "Dataset.window/shift_past_size", data("data.Dataset.flat_map", ds(
        lambda tf: tf.data.Dataset.range(10).window(2, shift=4)), fn(lambda tf: lambda w: w.batch(2)))
    yield "Dataset.window/interleave", data("data.Dataset.interleave", ds(
        lambda tf: tf.data.Dataset.range(6).window(3, 1, drop_remainder=True)), fn(lambda tf: lambda w: w),
        cycle_length=2)
    yield "Dataset.padded_batch/scalar_and_vector", data(D + "padded_batch", ds(
        lambda tf: tf.data.Dataset.range(1, 4).map(lambda x: (x, tf.fill(tf.reshape(x, [1]), x)))), 2,
        ([], [None]))
    yield "Dataset.padded_batch/explicit", data(D + "padded_batch", lengths(1, 3), 2, [4], padding_values=np.int64(-1))
    yield "Dataset.padded_batch/too_small", data(D + "padded_batch", lengths(1, 3), 2, [2])
    yield "Dataset.padded_batch/drop_remainder", data(D + "padded_batch", lengths(1, 3, 2), 2, [None],
                                                      drop_remainder=True)
    yield "Dataset.padded_batch/strings", data(D + "padded_batch", ds(lambda tf: tf.data.Dataset.from_tensor_slices(
        tf.constant(["a b", "c", "d e f"])).map(lambda s: tf.strings.split([s]).values)), 2, [None])
    yield "Dataset.shard/bad_index", data(D + "shard", r(5), 2, 2)
    yield "Dataset.shard/no_shards", data(D + "shard", r(5), 0, 0)
    yield "Dataset.interleave/cycle_block", data(D + "interleave", r(1, 4), fn(
        lambda tf: lambda x: tf.data.Dataset.from_tensors(x).repeat(3)), cycle_length=2, block_length=2)
    yield "Dataset.interleave/parallel_calls", data(D + "interleave", r(1, 4), fn(
        lambda tf: lambda x: tf.data.Dataset.range(x)), cycle_length=3, num_parallel_calls=2)
    yield "Dataset.cache/file", data(D + "repeat", ds(lambda tf: tf.data.Dataset.range(4).map(lambda x: x * 3).cache(
        os.path.join(tempfile.mkdtemp(prefix="data2_cache_"), "cache"))), 2)
    yield "Dataset.options", data(D + "with_options", r(2), {"build": lambda tf: tf.data.Options()})


def list_glob():
    """A glob of three files, in a folder of a fixed name: the file names are the values compared."""
    folder = os.path.join(tempfile.gettempdir(), "ringflow_conformance_data2_files")
    os.makedirs(folder, exist_ok=True)
    for name in ("a.txt", "bb.txt", "ccc.txt", "skip.csv"):
        with open(os.path.join(folder, name), "w") as f:
            f.write(name)
    return os.path.join(folder, "*.txt")


def _readers():
    def fixed(tf):
        path = os.path.join(tempfile.mkdtemp(prefix="data2_fixed_"), "records.bin")
        with open(path, "wb") as f:
            f.write(b"HEAD" + b"abcdefghijkl" + b"FT")
        return path

    def tfrecords(tf):
        path = os.path.join(tempfile.mkdtemp(prefix="data2_records_"), "r.tfrecord")
        with tf.python_io.TFRecordWriter(path) as writer:
            for record in (b"one", b"", b"three"):
                writer.write(record)
        return path
    yield "TextLineDataset", data("data.TextLineDataset", csv_file())
    yield "TextLineDataset/missing_file", data("data.TextLineDataset", "/nonexistent_data2/x.txt")
    yield "TFRecordDataset", data("data.TFRecordDataset", {"build": tfrecords})
    yield "FixedLengthRecordDataset", data("data.FixedLengthRecordDataset", {"build": fixed}, 4, header_bytes=4,
                                           footer_bytes=2)
    yield "FixedLengthRecordDataset/ragged_body", data("data.FixedLengthRecordDataset", {"build": fixed}, 5,
                                                       header_bytes=4, footer_bytes=2)
    yield "make_one_shot_iterator", dict(value("data.make_one_shot_iterator", ds(
        lambda tf: tf.data.Dataset.range(3).map(lambda x: (x, -x))), runs=3), method=["get_next"])
    yield "make_one_shot_iterator/past_the_end", dict(value("data.make_one_shot_iterator", r(2), runs=3),
                                                      method=["get_next"])
    yield "make_initializable_iterator/not_initialized", dict(value("data.make_initializable_iterator", r(2)),
                                                              method=["get_next"])


def _optional():
    ex = "data.experimental."
    one_shot = {"build": lambda tf: tf.data.make_one_shot_iterator(tf.data.Dataset.range(3))}
    yield "get_next_as_optional/has_value", dict(value(ex + "get_next_as_optional", one_shot, runs=4),
                                                 method=["has_value"])
    yield "get_next_as_optional/get_value", dict(value(ex + "get_next_as_optional", one_shot, runs=3),
                                                 method=["get_value"])
    yield "get_next_as_optional/past_the_end", dict(value(ex + "get_next_as_optional", one_shot, runs=4),
                                                    method=["get_value"])
    yield "Optional.from_value", dict(value(ex + "Optional.from_value", (np.int32(3), np.array([1.0, 2.0]))),
                                      method=["get_value"])
    yield "Optional.from_value/has_value", dict(value(ex + "Optional.from_value", np.int32(3)),
                                                method=["has_value"])


def _writer():
    def path(tf):
        return os.path.join(tempfile.mkdtemp(prefix="data2_tfrecord_"), "out.tfrecord")
    strings = ds(lambda tf: tf.data.Dataset.from_tensor_slices(tf.constant(["x", "yy", "zzz"])))
    yield "TFRecordWriter/write", dict(call("data.experimental.TFRecordWriter", {"build": path}),
                                       method=["write", strings])
    yield "TFRecordWriter/not_strings", dict(call("data.experimental.TFRecordWriter", {"build": path}),
                                             method=["write", r(3)])


def cases():
    found = {}
    for generate in (_experimental, _methods, _readers, _optional, _writer):
        found.update((f"data2/{name}", case) for name, case in generate())
    return found
