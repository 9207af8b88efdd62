import os
import struct
import sys

import pytest

from trainer.summary import ScalarWriter


def read_scalars(logdir):
    """(tag, step, value) from TFRecord event files, decoded with tensorboardX's own protobufs."""
    from tensorboardX.proto import event_pb2
    found = []
    for name in os.listdir(logdir):
        raw = open(os.path.join(logdir, name), "rb").read()
        pos = 0
        while pos < len(raw):
            (length,) = struct.unpack("<Q", raw[pos:pos + 8])
            event = event_pb2.Event.FromString(raw[pos + 12:pos + 12 + length])
            pos += 12 + length + 4
            found += [(v.tag, event.step, v.simple_value) for v in event.summary.value]
    return found


def test_scalars_land_in_event_files(tmp_path):
    pytest.importorskip("tensorboardX")
    w = ScalarWriter(str(tmp_path))
    w.scalars(3, {"loss": 0.5, "accuracy": 0.25})
    w.scalars(6, {"loss": 0.125})
    w.close()
    assert sorted(read_scalars(tmp_path)) == [("train/accuracy", 3, 0.25), ("train/loss", 3, 0.5),
                                              ("train/loss", 6, 0.125)]


def test_scalars_need_no_tensorboardx(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "tensorboardX", None)  # makes `import tensorboardX` fail
    w = ScalarWriter(str(tmp_path))
    w.scalars(1, {"loss": 2.0}, prefix="final/")
    w.close()
    monkeypatch.undo()
    pytest.importorskip("tensorboardX")
    assert read_scalars(tmp_path) == [("final/loss", 1, 2.0)]
