"""TFRecord files (tf.python_io): framing, compression, damage."""
import pytest

import trainer as tg


@pytest.mark.parametrize("compression", ["", "GZIP", "ZLIB"])
def test_records_come_back_as_written(tmp_path, compression):
    path = str(tmp_path / "r.tfrecord")
    options = tg.python_io.TFRecordOptions(compression)
    with tg.python_io.TFRecordWriter(path, options) as writer:
        for record in (b"a", b"", b"\x00" * 300):
            writer.write(record)
    assert list(tg.python_io.tf_record_iterator(path, options)) == [b"a", b"", b"\x00" * 300]


def test_a_damaged_record_is_data_loss_naming_the_file(tmp_path):
    path = tmp_path / "r.tfrecord"
    with tg.python_io.TFRecordWriter(str(path)) as writer:
        writer.write(b"payload")
    raw = bytearray(path.read_bytes())
    raw[14] ^= 1
    path.write_bytes(bytes(raw))
    with pytest.raises(tg.errors.DataLossError, match="r.tfrecord"):
        list(tg.python_io.tf_record_iterator(str(path)))


def test_an_unknown_compression_lists_the_known_ones():
    with pytest.raises(tg.errors.InvalidArgumentError, match="GZIP"):
        tg.python_io.TFRecordOptions("LZ4")
