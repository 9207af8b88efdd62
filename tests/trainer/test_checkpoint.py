import os
import zipfile

import numpy as np
import pytest

from trainer import checkpoint


def arrays():
    return {"dense/kernel:0": np.arange(6, dtype=np.float32).reshape(2, 3),
            "dense/kernel/Adam:0": np.full((2, 3), 0.5), "global_step:0": np.array(7, dtype=np.int64)}


def test_round_trip_is_exact_and_needs_no_pickle(tmp_path):
    path = checkpoint.save(tmp_path, 7, arrays(), {"data": {"position": 70}})
    with np.load(path, allow_pickle=False) as f:  # loads without pickle
        assert set(f.files) == set(arrays()) | {checkpoint.META}
    got, meta = checkpoint.read_npz(path)
    assert meta == {"data": {"position": 70}, "step": 7}
    for k, v in arrays().items():
        assert got[k].dtype == v.dtype and np.array_equal(got[k], v)


def test_object_arrays_are_refused(tmp_path):
    with pytest.raises(ValueError):
        checkpoint.write_npz(tmp_path / "x.npz", {"a": np.array([{}], dtype=object)})
    assert not os.listdir(tmp_path)  # no half-written or temporary file is left


def test_keeps_the_newest_and_touches_nothing_else(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    (tmp_path / "ckpt-final.npz").write_text("mine too")
    for step in (1, 2, 3, 10, 20):
        checkpoint.save(tmp_path, step, arrays(), {}, keep=3)
    assert [s for s, _ in checkpoint.list_checkpoints(tmp_path)] == [3, 10, 20]
    assert (tmp_path / "notes.txt").read_text() == "mine" and (tmp_path / "ckpt-final.npz").exists()


def test_latest_skips_damaged_files_with_a_warning(tmp_path):
    good = checkpoint.save(tmp_path, 5, arrays(), {})
    bad = checkpoint.save(tmp_path, 6, arrays(), {})
    with open(bad, "r+b") as f:
        f.truncate(os.path.getsize(bad) // 2)
    (tmp_path / "ckpt-00000007.npz").write_bytes(b"not a zip")
    (tmp_path / "ckpt-00000008.npz.tmp-123").write_bytes(b"interrupted")
    with pytest.warns(RuntimeWarning) as record:
        assert checkpoint.latest_checkpoint(tmp_path) == good
    messages = " ".join(str(w.message) for w in record)
    assert "ckpt-00000007" in messages and "ckpt-00000006" in messages


def test_latest_rejects_a_flipped_byte(tmp_path):
    good = checkpoint.save(tmp_path, 1, arrays(), {})
    bad = checkpoint.save(tmp_path, 2, arrays(), {})
    raw = bytearray(open(bad, "rb").read())
    with zipfile.ZipFile(bad) as zf:
        info = zf.getinfo("dense/kernel:0.npy")
    raw[info.header_offset + 30 + len(info.filename) + 100] ^= 0xFF  # a data byte, not the header
    open(bad, "wb").write(bytes(raw))
    with pytest.warns(RuntimeWarning, match="CRC"):
        assert checkpoint.latest_checkpoint(tmp_path) == good


def test_no_checkpoint(tmp_path):
    assert checkpoint.latest_checkpoint(tmp_path) is None
    assert checkpoint.latest_checkpoint(tmp_path / "missing") is None
    assert checkpoint.latest_checkpoint(None) is None


def test_a_failed_save_keeps_the_previous_file(tmp_path):
    path = tmp_path / "final.npz"
    checkpoint.write_npz(path, {"w:0": np.ones(3)})
    with pytest.raises(ValueError):
        checkpoint.write_npz(path, {"w:0": np.ones(3), "bad": np.array([None], dtype=object)})
    got, _ = checkpoint.read_npz(path)
    assert np.array_equal(got["w:0"], np.ones(3)) and os.listdir(tmp_path) == ["final.npz"]
