"""tf.summary: ops, protos and event files, read back with tensorboardX's protobufs as the oracle."""
import bisect
import os
import re
import struct
import sys
import zlib

import numpy as np
import pytest

import trainer as tg
from trainer.platform.errors import DataLossError, InvalidArgumentError
from trainer.platform.crc32c import crc32c
from trainer.platform.tfrecord import encode_record, masked_crc32c

pb = pytest.importorskip("tensorboardX.proto.summary_pb2")
from tensorboardX.proto import event_pb2, graph_pb2  # noqa: E402


@pytest.fixture(autouse=True)
def fresh_graph():
    tg.reset_default_graph()
    yield
    tg.summary.FileWriterCache.clear()


def run(fetch, feed=None):
    with tg.Session() as sess:
        return sess.run(fetch, feed)


def parse(serialized):
    return pb.Summary.FromString(serialized)


def read_events(path):
    """Events of a file, framing and checksums checked independently of trainer's reader."""
    raw, pos, events = open(path, "rb").read(), 0, []
    while pos < len(raw):
        header = raw[pos:pos + 8]
        (length,), (header_crc,) = struct.unpack("<Q", header), struct.unpack("<I", raw[pos + 8:pos + 12])
        data = raw[pos + 12:pos + 12 + length]
        (data_crc,) = struct.unpack("<I", raw[pos + 12 + length:pos + 16 + length])
        assert (header_crc, data_crc) == (_tbx_masked_crc(header), _tbx_masked_crc(data))
        events.append(event_pb2.Event.FromString(data))
        pos += 16 + length
    return events


def _tbx_masked_crc(data):
    from tensorboardX.crc32c import crc32c as tbx_crc
    crc = tbx_crc(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def event_files(logdir):
    return sorted(os.path.join(logdir, n) for n in os.listdir(logdir) if "tfevents" in n)


# --- checksums and framing -----------------------------------------------------------------------
def test_crc32c_known_vectors():
    assert crc32c(b"123456789") == 0xE3069283
    assert crc32c(b"") == 0
    assert crc32c(bytes(32)) == 0x8A9136AA  # RFC 3720, 32 zero bytes
    data = bytes(range(256)) * 3
    assert masked_crc32c(data) == _tbx_masked_crc(data)


def test_summary_iterator_reads_back_and_detects_corruption(tmp_path):
    path = tmp_path / "events.out.tfevents.1.host"
    records = [tg.Event(step=s, summary=tg.Summary(value=[tg.Summary.Value(tag="x", simple_value=s)]))
               for s in (1, -2)]
    path.write_bytes(b"".join(encode_record(e.SerializeToString()) for e in records))
    assert [(e.step, e.summary.value[0].simple_value) for e in tg.train.summary_iterator(str(path))] == \
        [(1, 1.0), (-2, -2.0)]
    raw = bytearray(path.read_bytes())
    raw[14] ^= 1
    path.write_bytes(bytes(raw))
    with pytest.raises(DataLossError, match=r"Corrupted record data at byte 0 of .*events.out"):
        list(tg.train.summary_iterator(str(path)))


# --- protos --------------------------------------------------------------------------------------
def test_summary_proto_matches_protobuf_both_ways():
    ours = tg.Summary(value=[tg.Summary.Value(tag="zero", simple_value=0.0),
                             tg.Summary.Value(tag="h", histo=tg.HistogramProto(min=-1.5, num=2, bucket_limit=[0.0, 1.0],
                                                                               bucket=[1, 1]))])
    ours.value.add(tag="img", image=tg.Summary.Image(height=2, width=3, colorspace=1, encoded_image_string=b"\x89"))
    histo = pb.HistogramProto(min=-1.5, num=2, bucket_limit=[0.0, 1.0], bucket=[1, 1])
    theirs = pb.Summary(value=[pb.Summary.Value(tag="zero", simple_value=0.0), pb.Summary.Value(tag="h", histo=histo)])
    theirs.value.add(tag="img", image=pb.Summary.Image(height=2, width=3, colorspace=1, encoded_image_string=b"\x89"))
    assert ours.SerializeToString() == theirs.SerializeToString()
    assert str(ours) == str(theirs)
    back = tg.Summary.FromString(theirs.SerializeToString())
    assert back == ours and back.value[0].WhichOneof("value") == "simple_value"
    assert back.value[1].histo.bucket_limit == [0.0, 1.0] and back.value[2].image.width == 3
    assert not back.value[0].HasField("histo") and back.value[0].histo.num == 0.0
    again = tg.Summary()
    again.ParseFromString(ours.SerializeToString())
    assert again == ours


def test_event_with_negative_step_and_session_log_matches_protobuf():
    ours = tg.Event(wall_time=1.25, step=-3, session_log=tg.SessionLog(status=tg.SessionLog.CHECKPOINT,
                                                                       checkpoint_path="/ckpt"))
    theirs = event_pb2.Event(wall_time=1.25, step=-3, session_log=event_pb2.SessionLog(
        status=event_pb2.SessionLog.CHECKPOINT, checkpoint_path="/ckpt"))
    assert ours.SerializeToString() == theirs.SerializeToString()
    assert tg.Event.FromString(theirs.SerializeToString()).step == -3


def test_proto_errors_name_the_field():
    # as protobuf: ValueError for an unknown field in the constructor, AttributeError in an assignment
    with pytest.raises(ValueError, match=r"Value has no 'simple' field; its fields are"):
        tg.Summary.Value(simple=1.0)
    with pytest.raises(AttributeError, match=r"no field 'simple' in protocol message Value"):
        tg.Summary.Value().simple = 1.0
    with pytest.raises(TypeError, match=r"Value.image takes a Image"):
        tg.Summary.Value(image=b"png")
    with pytest.raises(TypeError, match=r"'1' has type str, but Value.simple_value takes a float"):
        tg.Summary.Value(simple_value="1")
    with pytest.raises(AttributeError, match=r"composite field 'value'"):
        tg.Summary().value = []


# --- summary ops ---------------------------------------------------------------------------------
def test_scalar_tags_follow_name_scopes_and_families():
    x = tg.constant(2.5)
    with tg.name_scope("outer"):
        a = tg.summary.scalar("loss", x)
    b = tg.summary.scalar("loss", x * 2)
    c = tg.summary.scalar("loss", 7, family="fam")
    d = tg.summary.scalar("bad name!", tg.constant(1, tg.int32))
    assert a.dtype == tg.string and a.op.type == "ScalarSummary"
    got = run([a, b, c, d])
    assert all(isinstance(s, bytes) for s in got)
    values = [(v.tag, v.simple_value) for s in got for v in parse(s).value]
    assert values == [("outer/loss", 2.5), ("loss", 5.0), ("fam/fam/loss", 7.0), ("bad_name_", 1.0)]
    assert [t.op.name for t in (a, b, c, d)] == ["outer/loss", "loss", "fam/loss", "bad_name_"]
    assert tg.get_default_graph().get_collection(tg.GraphKeys.SUMMARIES) == [a, b, c, d]


def test_scalar_of_a_vector_fails_naming_the_tag():
    v = tg.placeholder(tg.float32, [None])
    s = tg.summary.scalar("acc", v)
    with pytest.raises(InvalidArgumentError, match=r"not the same shape: \[\] != \[2\] \(tag 'acc'\)"):
        run(s, {v: np.ones(2, np.float32)})
    with pytest.raises(TypeError, match=r"tg.summary.scalar takes real numbers .* 'flag:0' of dtype bool"):
        tg.summary.scalar("b", tg.placeholder(tg.bool, [], name="flag"))


def _tf1_limits():
    pos, v = [], 1e-12
    while v < 1e20:
        pos.append(v)
        v *= 1.1
    pos.append(sys.float_info.max)
    return [-p for p in reversed(pos)] + [0.0] + pos


def _tf1_histogram(values):
    """TF1's histogram by its definition: 10% buckets, bisect per value, then empty runs collapsed."""
    limits = _tf1_limits()
    counts = [0.0] * len(limits)
    for x in values:
        counts[bisect.bisect_right(limits, x)] += 1
    out_limits, out_counts, i = [], [], 0
    while i < len(limits):
        end, count = limits[i], counts[i]
        i += 1
        if count == 0:
            while i < len(limits) and counts[i] == 0:
                end, i = limits[i], i + 1
        out_limits.append(end)
        out_counts.append(count)
    return out_limits, out_counts


def test_histogram_matches_tf1_definition_and_numpy():
    rng = np.random.default_rng(0)
    values = np.concatenate([rng.normal(0, 3, 200), [0.0, 0.0, -1e-13, 1e-12, 5e19]]).astype(np.float32)
    h = parse(run(tg.summary.histogram("w", tg.constant(values.reshape(5, 41))))).value[0]
    assert h.tag == "w"
    as64 = values.astype(np.float64)
    assert (h.histo.min, h.histo.max, h.histo.num) == (as64.min(), as64.max(), len(values))
    np.testing.assert_allclose([h.histo.sum, h.histo.sum_squares], [as64.sum(), (as64 ** 2).sum()], rtol=1e-12)
    limits, counts = _tf1_histogram(as64)
    assert list(h.histo.bucket_limit) == limits and list(h.histo.bucket) == counts


def test_histogram_of_values_on_and_beside_the_bucket_limits():
    limits = np.array(_tf1_limits()[1:-1])
    values = np.concatenate([limits[::7], np.nextafter(limits[3::11], -np.inf), np.nextafter(limits[5::13], np.inf),
                             [-sys.float_info.max, 0.0, 0.0]])
    np.random.default_rng(1).shuffle(values)
    h = parse(run(tg.summary.histogram("w", tg.constant(values, tg.float64)))).value[0].histo
    assert (list(h.bucket_limit), list(h.bucket)) == _tf1_histogram(values)


def test_histogram_of_nothing_and_of_nan():
    h = parse(run(tg.summary.histogram("e", tg.zeros([0])))).value[0].histo
    assert (h.min, h.max, h.num, list(h.bucket_limit), list(h.bucket)) == (
        sys.float_info.max, -sys.float_info.max, 0, [sys.float_info.max], [0.0])
    p = tg.placeholder(tg.float32, [None])
    with pytest.raises(InvalidArgumentError, match=r"Nan in summary histogram for: 'weights'"):
        run(tg.summary.histogram("weights", p), {p: [1.0, np.nan]})


def decode_png(data):
    """Pixels of a filter-0, 8-bit PNG, by its chunks (PNG spec), checking each chunk's CRC."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, {}
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        assert struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])[0] == zlib.crc32(kind + body)
        chunks[kind] = chunks.get(kind, b"") + body
        pos += 12 + n
    width, height, depth, color = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    channels = {0: 1, 2: 3, 6: 4}[color]
    rows = np.frombuffer(zlib.decompress(chunks[b"IDAT"]), np.uint8).reshape(height, 1 + width * channels)
    assert depth == 8 and not rows[:, 0].any()
    return rows[:, 1:].reshape(height, width, channels)


def test_uint8_images_round_trip_with_tf1_tags():
    rng = np.random.default_rng(1)
    batch = rng.integers(0, 256, (4, 5, 3, 3), dtype=np.uint8)
    got = parse(run(tg.summary.image("pics", tg.constant(batch)))).value
    assert [v.tag for v in got] == ["pics/image/0", "pics/image/1", "pics/image/2"]
    for v, expected in zip(got, batch):
        assert (v.image.height, v.image.width, v.image.colorspace) == (5, 3, 3)
        np.testing.assert_array_equal(decode_png(v.image.encoded_image_string), expected)
    gray = rng.integers(0, 256, (2, 4, 6, 1), dtype=np.uint8)
    one = parse(run(tg.summary.image("g", tg.constant(gray), max_outputs=1))).value
    assert [v.tag for v in one] == ["g/image"] and one[0].image.colorspace == 1
    np.testing.assert_array_equal(decode_png(one[0].image.encoded_image_string), gray[0])


def test_float_images_scale_as_tf1():
    positive = np.array([[[[0.0, 0.25, 0.5, 1.0]], [[0.1, 0.2, 0.3, 0.4]]]], np.float32) * 2  # max 2 -> 255
    mixed = np.array([[[[-1.0], [0.0]], [[0.5], [np.nan]]]], np.float32)
    p = parse(run(tg.summary.image("p", tg.constant(positive)))).value[0]
    np.testing.assert_array_equal(decode_png(p.image.encoded_image_string),
                                  (positive[0] * np.float32(255 / 2)).astype(np.uint8))
    m = parse(run(tg.summary.image("m", tg.constant(mixed)))).value[0]
    # negatives present: 0 -> 128, +-max|x| -> 128 +- 127; the NaN pixel is painted red (gray: 255)
    np.testing.assert_array_equal(decode_png(m.image.encoded_image_string)[..., 0], [[1, 128], [191, 255]])


def test_image_shape_errors_name_the_tensor():
    with pytest.raises(ValueError, match=r"4-D with last dim 1, 3, or 4, not \[2, 4, 4, 2\]: 'two:0'"):
        tg.summary.image("bad", tg.zeros([2, 4, 4, 2], name="two"))
    with pytest.raises(TypeError, match=r"uint8 or float images, got 'ints:0' of dtype int32"):
        tg.summary.image("bad", tg.zeros([1, 2, 2, 1], tg.int32, name="ints"))


def test_text_and_tensor_summaries():
    s = parse(run(tg.summary.text("note", tg.constant("héllo **md**", dtype=tg.string)))).value[0]
    assert s.tag == "note" and s.metadata.plugin_data.plugin_name == "text"
    assert list(s.tensor.string_val) == ["héllo **md**".encode()] and s.tensor.dtype == 7
    with pytest.raises(ValueError, match=r"Expected tensor 'num:0' to have dtype string, got float32"):
        tg.summary.text("x", tg.zeros([2], name="num"))
    values = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = parse(run(tg.summary.tensor_summary("t", tg.constant(values), display_name="T"))).value[0]
    assert [d.size for d in t.tensor.tensor_shape.dim] == [2, 3] and t.metadata.display_name == "T"
    np.testing.assert_array_equal(np.frombuffer(t.tensor.tensor_content, "<f4").reshape(2, 3), values)


def test_merge_and_merge_all():
    assert tg.summary.merge_all() is None
    x = tg.constant(1.0)
    with tg.name_scope("a"):
        s1 = tg.summary.scalar("one", x)
    s2 = tg.summary.histogram("two", x)
    mine = tg.summary.scalar("mine", x, collections=["custom"])
    merged = tg.summary.merge_all()
    assert merged.op.type == "MergeSummary" and merged.op.name == "Merge/MergeSummary"
    assert [v.tag for v in parse(run(merged)).value] == ["a/one", "two"]
    assert [v.tag for v in parse(run(tg.summary.merge_all(scope="a"))).value] == ["a/one"]
    assert [v.tag for v in parse(run(tg.summary.merge_all("custom"))).value] == ["mine"]
    both = tg.summary.merge([merged, mine], name="all")
    assert both.op.name == "all/all" and len(tg.Summary.FromString(run(both)).value) == 3
    with pytest.raises(InvalidArgumentError, match=r"Duplicate tag 'two' found in summary inputs"):
        run(tg.summary.merge([s2, s2]))
    with pytest.raises(TypeError, match=r"string tensors .* 'Const_\d+:0' of dtype float32"):
        tg.summary.merge([s1, tg.constant(2.0)])


# --- FileWriter -----------------------------------------------------------------------------------
def test_file_writer_writes_what_tensorboard_reads(tmp_path):
    x = tg.placeholder(tg.float32, [], name="x")
    y = tg.multiply(x, 2.0, name="y")
    tg.summary.scalar("y", y)  # the scope "y" is taken by the op: TF1 names this one y_1
    tg.summary.histogram("ys", tg.reshape(y, [1]))
    merged = tg.summary.merge_all()
    logdir = tmp_path / "run"
    with tg.Session() as sess, tg.summary.FileWriter(str(logdir), sess.graph, filename_suffix=".v1") as writer:
        assert writer.get_logdir() == str(logdir)
        for step in range(3):
            writer.add_summary(sess.run(merged, {x: float(step)}), global_step=step)
        writer.add_summary(tg.Summary(value=[tg.Summary.Value(tag="manual", simple_value=9.0)]), 10)
        writer.add_session_log(tg.SessionLog(status=tg.SessionLog.START), 11)
    [path] = event_files(logdir)
    assert re.fullmatch(r"events\.out\.tfevents\.\d{10}\.[^/]+\.v1", os.path.basename(path))
    events = read_events(path)
    assert events[0].file_version == "brain.Event:2"
    nodes = {n.name: n for n in graph_pb2.GraphDef.FromString(events[1].graph_def).node}
    assert nodes["y"].op == "Mul" and list(nodes["y"].input)[0] == "x"
    assert nodes["x"].attr["_output_shapes"].list.shape[0].dim == []
    scalars = [(e.step, v.tag, v.simple_value) for e in events for v in e.summary.value if v.HasField("simple_value")]
    assert scalars == [(0, "y_1", 0.0), (1, "y_1", 2.0), (2, "y_1", 4.0), (10, "manual", 9.0)]
    assert events[-1].session_log.status == event_pb2.SessionLog.START and events[-1].step == 11
    assert all(e.wall_time > 1e9 for e in events)


def test_file_writer_queue_close_and_reopen(tmp_path):
    writer = tg.summary.FileWriter(str(tmp_path), max_queue=3, flush_secs=1000)
    for step in range(2):
        writer.add_summary(tg.Summary(value=[tg.Summary.Value(tag="q", simple_value=step)]), step)
    [path] = event_files(tmp_path)
    assert len(read_events(path)) == 1  # only the file_version event has been flushed
    writer.add_summary(tg.Summary(value=[tg.Summary.Value(tag="q", simple_value=2)]), 2)
    assert len(read_events(path)) == 4
    writer.close()
    with pytest.warns(UserWarning, match="closed FileWriter"):
        writer.add_summary(tg.Summary(value=[tg.Summary.Value(tag="q", simple_value=3)]), 3)
    writer.reopen()
    writer.add_summary(tg.Summary(value=[tg.Summary.Value(tag="q", simple_value=4)]), 4)
    writer.flush()
    first, second = (read_events(p) for p in event_files(tmp_path))
    assert [e.step for e in first[1:]] == [0, 1, 2] and [e.step for e in second[1:]] == [4]
    writer.close()


def test_plugin_metadata_is_kept_on_the_first_value_only(tmp_path):
    text = tg.summary.text("t", tg.constant("a", dtype=tg.string))
    with tg.Session() as sess, tg.summary.FileWriter(str(tmp_path)) as writer:
        for step in range(2):
            writer.add_summary(sess.run(text), step)
    values = [v for e in read_events(event_files(tmp_path)[0]) for v in e.summary.value]
    assert [v.HasField("metadata") for v in values] == [True, False]


def test_file_writer_cache_shares_one_writer_per_logdir(tmp_path):
    a = tg.summary.FileWriterCache.get(str(tmp_path))
    assert tg.summary.FileWriterCache.get(str(tmp_path)) is a
    tg.summary.FileWriterCache.clear()
    assert tg.summary.FileWriterCache.get(str(tmp_path)) is not a


def test_add_graph_rejects_other_objects(tmp_path):
    with tg.summary.FileWriter(str(tmp_path)) as writer:
        with pytest.raises(TypeError, match=r"tg.Graph .* got str"):
            writer.add_graph("graph")
        with pytest.raises(TypeError, match=r"tg.Summary or its serialized bytes .* got int"):
            writer.add_summary(3)


def test_add_run_metadata_writes_the_tag_once(tmp_path):
    event_pb2 = pytest.importorskip("tensorboardX.proto.event_pb2")
    with tg.summary.FileWriter(str(tmp_path)) as writer:
        writer.add_run_metadata(tg.RunMetadata(), "step001", global_step=1)
        with pytest.raises(ValueError, match="already used"):
            writer.add_run_metadata(tg.RunMetadata(), "step001")
    path = next(p for p in tmp_path.iterdir() if p.name.startswith("events.out"))
    tagged = [e for e in map(event_pb2.Event.FromString, _records(path.read_bytes()))
              if e.HasField("tagged_run_metadata")]
    assert [(e.step, e.tagged_run_metadata.tag) for e in tagged] == [(1, "step001")]


def test_events_added_by_other_threads_while_flushing_are_all_written(tmp_path):
    import threading
    writer = tg.summary.FileWriter(str(tmp_path), max_queue=3)
    summary = tg.Summary(value=[tg.Summary.Value(tag="x", simple_value=1.0)])

    def add(n):
        for step in range(n):
            writer.add_summary(summary, step)
    threads = [threading.Thread(target=add, args=(500,)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    writer.close()
    path = next(p for p in tmp_path.iterdir() if p.name.startswith("events.out"))
    assert len(list(tg.train.summary_iterator(str(path)))) == 1 + 4 * 500  # file_version + every summary


def _records(data):
    """The payloads of a TFRecord stream (length, crc, data, crc), without checking CRCs."""
    out, i = [], 0
    while i < len(data):
        (n,) = struct.unpack("<Q", data[i:i + 8])
        out.append(data[i + 12:i + 12 + n])
        i += 12 + n + 4
    return out


def test_a_summary_op_output_is_written_as_the_summary_it_holds(tmp_path):
    # add_summary copies a merged summary's bytes into the event; the events read back as those of the parsed Summary
    x = tg.placeholder(tg.float32, [3], name="x")
    tg.summary.scalar("level", tg.reduce_mean(x))
    tg.summary.histogram("xs", x)
    merged = tg.summary.merge_all()
    with tg.Session() as sess, tg.summary.FileWriter(str(tmp_path)) as writer:
        for step in range(2):
            serialized = sess.run(merged, {x: [1.0, -2.0, 3.5 + step]})
            writer.add_summary(serialized, global_step=step)
            writer.add_summary(tg.Summary.FromString(serialized), global_step=step)
    events = read_events(event_files(tmp_path)[0])[1:]
    assert [e.step for e in events] == [0, 0, 1, 1]
    for as_bytes, as_message in zip(events[::2], events[1::2]):
        assert as_bytes.summary == as_message.summary
        assert [v.tag for v in as_bytes.summary.value] == ["level", "xs"]
    assert events[2].summary.value[1].histo.max == 4.5 and events[2].summary.value[0].simple_value == pytest.approx(3.5 / 3)
