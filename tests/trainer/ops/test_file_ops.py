"""Whole files (read_file, write_file, matching_files, match_filenames_once) and readers' errors; what readers read
from queues is compared with TensorFlow's runs in tests/trainer/train/test_queue_pipelines.py."""
import pytest

import trainer as tg


def test_write_file_then_read_file_and_matching_files_sorted(tmp_path):
    with tg.Graph().as_default(), tg.Session() as sess:
        for name in ("b.txt", "a.txt", "c.bin"):
            sess.run(tg.write_file(str(tmp_path / name), name.encode() + b"\x00"))
        assert sess.run(tg.read_file(str(tmp_path / "b.txt"))) == b"b.txt\x00"
        found = sess.run(tg.matching_files(str(tmp_path / "*.txt")))
        assert [f.decode() for f in found] == [str(tmp_path / "a.txt"), str(tmp_path / "b.txt")]


def test_match_filenames_once_is_a_local_variable_set_at_initialization(tmp_path):
    (tmp_path / "x.csv").write_text("1\n")
    with tg.Graph().as_default():
        names = tg.train.match_filenames_once(str(tmp_path / "*.csv"))
        assert names in tg.local_variables() and names not in tg.global_variables()
        with tg.Session() as sess:
            sess.run(tg.local_variables_initializer())
            (tmp_path / "y.csv").write_text("2\n")  # found once: a file made later is not listed
            assert [n.decode() for n in sess.run(names)] == [str(tmp_path / "x.csv")]


def test_a_missing_file_is_not_found_naming_it(tmp_path):
    missing = str(tmp_path / "nope.tfrecord")
    with tg.Graph().as_default(), tg.Session() as sess:
        with pytest.raises(tg.errors.NotFoundError, match="nope.tfrecord"):
            sess.run(tg.read_file(missing))
        queue = tg.FIFOQueue(2, [tg.string], shapes=[[]])
        sess.run(queue.enqueue([missing]))
        with pytest.raises(tg.errors.NotFoundError, match="nope.tfrecord"):
            sess.run(tg.TFRecordReader().read(queue))
