"""tf.data's file readers: the lines, records and fixed-length records of files, in TF's order."""
import gzip

import numpy as np
import pytest

import trainer as tg
from tests.trainer.data.tf_data_util import drain as elements, fresh_graph  # noqa: F401  (fresh_graph: autouse)
from trainer.platform.tfrecord import encode_record


@pytest.fixture
def files(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_bytes(b"1,one\r\n2,two\n\n3,three")  # a blank line is an element, a missing last newline is fine
    b.write_bytes(b"4,four\n")
    return str(a), str(b)


def test_text_lines_of_each_file_in_order_or_round_robin(files, tmp_path):
    lines = [b"1,one", b"2,two", b"", b"3,three", b"4,four"]
    dataset = tg.data.TextLineDataset(list(files))
    assert dataset.output_types == tg.string and dataset.output_shapes.ndims == 0
    assert elements(dataset) == lines
    assert elements(tg.data.TextLineDataset(list(files), num_parallel_reads=2)) == [
        b"1,one", b"4,four", b"2,two", b"", b"3,three"]
    packed = tmp_path / "c.txt.gz"
    packed.write_bytes(gzip.compress(b"x\ny\n"))
    assert elements(tg.data.TextLineDataset(str(packed), compression_type="GZIP")) == [b"x", b"y"]
    names = tg.placeholder(tg.string, [None])
    assert elements(tg.data.TextLineDataset(names), {names: np.array([files[1].encode()], object)}) == [b"4,four"]


def test_lines_map_through_the_string_ops(files):
    def parse(line):
        parts = tg.string_split([line], sep=",").values
        return tg.string_to_number(parts[0], tg.int32), parts[1]
    dataset = tg.data.TextLineDataset(files[0]).filter(lambda line: tg.strings.length(line) > 0).map(parse)
    assert elements(dataset) == [(1, b"one"), (2, b"two"), (3, b"three")]


def test_tfrecord_and_fixed_length_records(tmp_path):
    records = tmp_path / "data.tfrecord"
    records.write_bytes(b"".join(encode_record(r) for r in (b"first", b"", b"third")))
    assert elements(tg.data.TFRecordDataset(str(records))) == [b"first", b"", b"third"]
    packed = tmp_path / "data.tfrecord.gz"
    packed.write_bytes(gzip.compress(records.read_bytes()))
    assert elements(tg.data.TFRecordDataset(str(packed), compression_type="GZIP")) == [b"first", b"", b"third"]
    broken = tmp_path / "broken.tfrecord"
    broken.write_bytes(encode_record(b"first")[:-1] + b"?")
    with pytest.raises(tg.errors.DataLossError, match="checksum"):
        elements(tg.data.TFRecordDataset(str(broken)))
    fixed = tmp_path / "fixed.bin"
    fixed.write_bytes(b"HH" + b"abcdef" + b"F")
    assert elements(tg.data.FixedLengthRecordDataset(str(fixed), 3, header_bytes=2, footer_bytes=1)) == [
        b"abc", b"def"]
    with pytest.raises(tg.errors.InvalidArgumentError, match="not an exact multiple"):
        elements(tg.data.FixedLengthRecordDataset(str(fixed), 4, header_bytes=2, footer_bytes=1))
    with pytest.raises(tg.errors.NotFoundError, match="nowhere.txt"):
        elements(tg.data.TextLineDataset(str(tmp_path / "nowhere.txt")))

