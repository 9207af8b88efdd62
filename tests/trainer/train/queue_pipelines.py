"""Small queue-based input pipelines, built in whichever TF1-style module they are given: `tf.compat.v1` in
scripts/record_tf_queues.py, which records what real TensorFlow dequeues into fixtures/tf_queues.json, and
`trainer` in test_queue_pipelines.py, which replays them. This module imports neither.

Each pipeline returns (fetches, needs_runners); `drain` runs the fetches until OutOfRangeError (or `limit` runs)
and records each run's values, so the fixture holds the values in order, the batch shapes, the epochs and where
the data ended. Only unshuffled pipelines are compared value by value (shuffles match TF's only in seed-free
properties: which values, how many).
"""
import os
import tempfile

import numpy as np

WAIT_MS = 20000  # no run of these pipelines waits this long unless it would wait forever
LIMIT = 40  # runs per pipeline at most: every pipeline here ends well before (a hang would show as 40 runs)


def slice_batch(tf):
    x = np.arange(10, dtype=np.int32)
    a, b = tf.train.slice_input_producer([x, x * 10.0], num_epochs=2, shuffle=False)
    return tf.train.batch([a, b], batch_size=3, allow_smaller_final_batch=True), True


def slice_batch_full_only(tf):
    x = np.arange(7, dtype=np.int64)
    (a,) = tf.train.slice_input_producer([x], num_epochs=1, shuffle=False)
    return tf.train.batch([a], batch_size=3), True


def string_producer(tf):
    q = tf.train.string_input_producer(["a", "b", "c"], num_epochs=2, shuffle=False)
    return q.dequeue(), True


def range_producer_many(tf):
    q = tf.train.range_input_producer(5, num_epochs=3, shuffle=False, capacity=4)
    return q.dequeue_many(4), True


def batch_dict_enqueue_many(tf):
    rows = {"x": np.arange(12, dtype=np.float32).reshape(6, 2), "y": np.arange(6, dtype=np.int32)}
    (x, y) = tf.train.slice_input_producer([rows["x"], rows["y"]], num_epochs=1, shuffle=False)
    return tf.train.batch({"x": x, "y": y}, batch_size=4, allow_smaller_final_batch=True), True


def shuffled_slice(tf):
    x = np.arange(8, dtype=np.int32)
    (a,) = tf.train.slice_input_producer([x], num_epochs=2, shuffle=True, seed=3)
    return tf.train.shuffle_batch([a], batch_size=4, capacity=16, min_after_dequeue=2,
                                  allow_smaller_final_batch=True, seed=5), True


def padded_batch(tf):
    q = tf.FIFOQueue(10, [tf.int32], shapes=[[]])
    n = q.dequeue()
    seq = tf.range(n)
    tf.train.add_queue_runner(tf.train.QueueRunner(q, [q.enqueue_many([[1, 3, 2, 4, 0]])]))
    return tf.train.batch([seq], batch_size=2, dynamic_pad=True), True


def maybe_batch_odd(tf):
    x = np.arange(9, dtype=np.int32)
    (a,) = tf.train.slice_input_producer([x], num_epochs=1, shuffle=False)
    return tf.train.maybe_batch([a], keep_input=tf.equal(a % 2, 1), batch_size=2,
                                allow_smaller_final_batch=True), True


def fifo_ops(tf):
    """No runners: a queue's own ops in one session, in order, then a closed queue's errors."""
    q = tf.FIFOQueue(4, [tf.int32, tf.string], shapes=[[2], []], name="q")
    steps = [q.enqueue_many([[[1, 2], [3, 4], [5, 6]], ["a", "b", "c"]]), q.size(), q.dequeue(), q.is_closed(),
             q.enqueue(([7, 8], "d")), q.close(), q.is_closed(), q.dequeue_many(4), q.dequeue_up_to(5),
             q.dequeue(), q.enqueue(([9, 9], "e")), q.size()]
    return steps, False


def priority_queue(tf):
    q = tf.PriorityQueue(8, [tf.string], shapes=[[]])
    steps = [q.enqueue_many([[3, 1, 2, 1], ["c", "a", "b", "a2"]]), q.dequeue_many(4)]
    return steps, False


def padding_queue(tf):
    q = tf.PaddingFIFOQueue(5, [tf.int32], shapes=[[None]])
    steps = [q.enqueue([[1, 2, 3]]), q.enqueue([[4]]), q.dequeue_many(2), q.close(), q.dequeue_many(1)]
    return steps, False


def _files(tf):
    """Input files in the pipeline's directory: CSV with a header, fixed-length records, TFRecords of Examples."""
    with open(os.path.join(DIR[0], "a.csv"), "w") as f:
        f.write('x,y,name\n1,2.5,"p, q"\n3,,r\n')
    with open(os.path.join(DIR[0], "b.csv"), "w") as f:
        f.write("x,y,name\n5,6.5,s\n")
    with open(os.path.join(DIR[0], "c.bin"), "wb") as f:
        f.write(b"HD" + np.arange(12, dtype="<u2").tobytes() + b"FOOT")
    with tf.python_io.TFRecordWriter(os.path.join(DIR[0], "d.tfrecord")) as w:
        for i in range(3):
            w.write(tf.train.Example(features=tf.train.Features(feature={
                "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[i])),
                "pixels": tf.train.Feature(float_list=tf.train.FloatList(value=[i / 2, -i])),
                "word": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"w%d" % i]))})).SerializeToString())
    with tf.python_io.TFRecordWriter(os.path.join(DIR[0], "e.tfrecord")) as w:
        for record in (b"abc", b"", b"\x00\xff"):
            w.write(record)


def csv_lines(tf):
    _files(tf)
    names = tf.train.match_filenames_once(os.path.join(DIR[0], "*.csv"))
    files = tf.train.string_input_producer(names, num_epochs=1, shuffle=False)
    reader = tf.TextLineReader(skip_header_lines=1)
    key, line = reader.read(files)
    x, y, name = tf.decode_csv(line, record_defaults=[[0], [-1.0], ["?"]])
    with tf.control_dependencies([key]):  # counted after this run's read, in TF's schedule as in ringflow's
        count = reader.num_records_produced()
    return [key, x, y, name, count], True


def fixed_length_records(tf):
    _files(tf)
    files = tf.train.string_input_producer([os.path.join(DIR[0], "c.bin")], num_epochs=1, shuffle=False)
    reader = tf.FixedLengthRecordReader(record_bytes=8, header_bytes=2, footer_bytes=4)
    key, value = reader.read(files)
    return [key, tf.decode_raw(value, tf.uint16)], True


def tfrecord_examples(tf):
    _files(tf)
    files = tf.train.string_input_producer([os.path.join(DIR[0], "d.tfrecord")], num_epochs=2, shuffle=False)
    key, value = tf.TFRecordReader().read(files)
    parsed = tf.parse_single_example(value, {
        "label": tf.FixedLenFeature([], tf.int64), "pixels": tf.FixedLenFeature([2], tf.float32),
        "word": tf.FixedLenFeature([], tf.string), "missing": tf.FixedLenFeature([1], tf.float32, [7.0])})
    return tf.train.batch(parsed, batch_size=2, allow_smaller_final_batch=True), True


def tfrecord_read_up_to(tf):
    _files(tf)
    files = tf.train.string_input_producer([os.path.join(DIR[0], "e.tfrecord")] * 2, num_epochs=1, shuffle=False)
    reader = tf.TFRecordReader()
    keys, values = reader.read_up_to(files, 4)
    return [keys, values], True


def whole_files(tf):
    _files(tf)
    files = tf.train.string_input_producer([os.path.join(DIR[0], "b.csv"), os.path.join(DIR[0], "e.tfrecord")],
                                           num_epochs=1, shuffle=False)
    key, value = tf.WholeFileReader().read(files)
    return [key, value, tf.read_file(key)], True


def tfrecord_file_bytes(tf):
    """TFRecordWriter's framing, byte for byte, read back as bytes with read_file."""
    _files(tf)
    contents = tf.read_file(os.path.join(DIR[0], "e.tfrecord"))
    return [tf.decode_raw(contents, tf.uint8)], False


def identity_reader(tf):
    """No runners: a reader's counts and reset, read by read from a queue of work units."""
    q = tf.FIFOQueue(10, [tf.string], shapes=[[]])
    reader = tf.IdentityReader()
    key, value = reader.read(q)
    keys, values = reader.read_up_to(q, 5)
    steps = [q.enqueue_many([["u1", "u2", "u3", "u4"]]), [key, value], reader.num_work_units_completed(),
             [keys, values], reader.num_records_produced(), reader.reset(), reader.num_records_produced(),
             q.close(), [key, value], [key, value]]
    return steps, False


def compressed_records(tf):
    """GZIP and ZLIB TFRecord files, written and read with TFRecordOptions."""
    for kind in ("GZIP", "ZLIB"):
        options = tf.python_io.TFRecordOptions(getattr(tf.python_io.TFRecordCompressionType, kind))
        with tf.python_io.TFRecordWriter(os.path.join(DIR[0], kind), options=options) as w:
            for record in (b"one", b"two"):
                w.write(record)
    files = tf.train.string_input_producer([os.path.join(DIR[0], "GZIP")], num_epochs=1, shuffle=False)
    zlib_files = tf.train.string_input_producer([os.path.join(DIR[0], "ZLIB")], num_epochs=1, shuffle=False)
    gzip_reader = tf.TFRecordReader(options=tf.python_io.TFRecordOptions(tf.python_io.TFRecordCompressionType.GZIP))
    zlib_reader = tf.TFRecordReader(options=tf.python_io.TFRecordOptions(tf.python_io.TFRecordCompressionType.ZLIB))
    return [gzip_reader.read(files)[1], zlib_reader.read(zlib_files)[1]], True


def example_batch(tf):
    """parse_example on a batch: fixed features with defaults, and a padded sequence feature."""
    _files(tf)
    files = tf.train.string_input_producer([os.path.join(DIR[0], "d.tfrecord")], num_epochs=1, shuffle=False)
    _, value = tf.TFRecordReader().read(files)
    serialized = tf.train.batch([value], batch_size=3)
    return tf.parse_example(serialized, {
        "label": tf.FixedLenFeature([1], tf.int64), "pixels": tf.FixedLenSequenceFeature([], tf.float32,
                                                                                         allow_missing=True),
        "word": tf.FixedLenFeature([], tf.string, default_value="-")}), True


def _varlen_records(tf):
    """Examples with a variable-length int64 feature (2 values, none, 1, 3) and a fixed float one."""
    path = os.path.join(DIR[0], "f.tfrecord")
    with tf.python_io.TFRecordWriter(path) as w:
        for values in ([1, 2], [], [3], [4, 5, 6]):
            w.write(tf.train.Example(features=tf.train.Features(feature={
                "ids": tf.train.Feature(int64_list=tf.train.Int64List(value=values)),
                "y": tf.train.Feature(float_list=tf.train.FloatList(value=[len(values)]))})).SerializeToString())
    files = tf.train.string_input_producer([path], num_epochs=1, shuffle=False)
    return tf.TFRecordReader().read(files)[1], {"ids": tf.VarLenFeature(tf.int64),
                                                 "y": tf.FixedLenFeature([], tf.float32)}


def varlen_batch(tf):
    """parse_single_example's SparseTensor through tf.train.batch: one SparseTensor per batch, a row per example."""
    record, spec = _varlen_records(tf)
    return tf.train.batch(tf.parse_single_example(record, spec), batch_size=3, allow_smaller_final_batch=True), True


def varlen_batch_enqueue_many(tf):
    """parse_example's batch SparseTensor split into rows by enqueue_many and batched again."""
    record, spec = _varlen_records(tf)
    parsed = tf.parse_example(tf.reshape(record, [1]), spec)
    return tf.train.batch(parsed, batch_size=2, enqueue_many=True), True


def text_read_up_to(tf):
    _files(tf)
    files = tf.train.string_input_producer([os.path.join(DIR[0], "a.csv"), os.path.join(DIR[0], "b.csv")],
                                           num_epochs=1, shuffle=False)
    return list(tf.TextLineReader().read_up_to(files, 2)), True


PIPELINES = {f.__name__: f for f in (slice_batch, slice_batch_full_only, string_producer, range_producer_many,
                                     batch_dict_enqueue_many, shuffled_slice, padded_batch, maybe_batch_odd,
                                     fifo_ops, priority_queue, padding_queue, csv_lines, fixed_length_records,
                                     tfrecord_examples, tfrecord_read_up_to, whole_files, tfrecord_file_bytes,
                                     identity_reader, compressed_records, example_batch, text_read_up_to,
                                     varlen_batch, varlen_batch_enqueue_many)}
DIR = [None]  # the directory the running pipeline writes its input files into (its name is left out of keys)


def plain(value):
    """A fetched value as JSON: arrays as lists (bytes as str), with the dtype and shape beside them."""
    if value is None:
        return None
    if isinstance(value, dict):
        return {k: plain(v) for k, v in sorted(value.items())}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    array = np.asarray(value)
    if array.dtype.kind in "SO":  # tf.string: bytes, as TF and ringflow both fetch them
        text = np.vectorize(lambda b: b.decode("latin-1").replace(DIR[0] or "\0", "<dir>"), otypes=[object])
        items = text(array).tolist() if array.size else []
        return {"dtype": "string", "shape": list(array.shape), "value": items}
    return {"dtype": str(array.dtype), "shape": list(array.shape), "value": array.tolist()}


def drain(tf, name):
    """What running pipeline `name` gives, run by run: {"runs": [values...], "end": error class name or None,
    "static": the fetched tensors' static shapes, "names": the names of the fetched tensors and ops}."""
    graph = tf.Graph()
    with tempfile.TemporaryDirectory() as DIR[0], graph.as_default():
        fetches, runners = PIPELINES[name](tf)
        # a deadline, so that a pipeline that would wait forever fails instead (DeadlineExceededError)
        sess = tf.Session(config=tf.ConfigProto(operation_timeout_in_ms=WAIT_MS))
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord) if runners else []
        steps = [fetches] * LIMIT if runners else fetches
        runs, end = [], None
        for step in steps:
            try:
                runs.append(plain(sess.run(step)))
            except tf.errors.OpError as e:
                end = type(e).__name__
                if runners:
                    break
                runs.append(end)
                end = None
        coord.request_stop()
        coord.join(threads)
        sess.close()
        static = [str(t.shape) for t in _tensors(fetches) if hasattr(t, "shape")]
        names = [t.name for t in _tensors(fetches)]
    return {"runs": runs, "end": end, "static": static, "names": names}


def _tensors(fetches):
    if isinstance(fetches, dict):
        return [t for _, v in sorted(fetches.items()) for t in _tensors(v)]
    if isinstance(fetches, (list, tuple)):
        return [t for v in fetches for t in _tensors(v)]
    if hasattr(fetches, "dense_shape"):  # a SparseTensor: its three tensors
        return [fetches.indices, fetches.values, fetches.dense_shape]
    return [fetches]
