"""The checkpoint file format under tg.train.Saver: atomic, pickle-free .npz files, and their damage check."""
import os
import zipfile

import numpy as np
import pytest

from trainer.train import checkpoint


def arrays():
    return {"dense/kernel": np.arange(6, dtype=np.float32).reshape(2, 3),
            "dense/kernel/Adam": np.full((2, 3), 0.5), "global_step": np.array(7, dtype=np.int64)}


def test_round_trip_is_exact_and_needs_no_pickle(tmp_path):
    path = checkpoint.write_npz(str(tmp_path / "model.ckpt-7.npz"), arrays(), {"data": {"position": 70}})
    with np.load(path, allow_pickle=False) as f:  # loads without pickle
        assert set(f.files) == set(arrays()) | {checkpoint.META}
    got, meta = checkpoint.read_npz(path)
    assert meta == {"data": {"position": 70}}
    for k, v in arrays().items():
        assert got[k].dtype == v.dtype and np.array_equal(got[k], v)
    assert checkpoint.problem(path) is None


def test_object_arrays_are_refused(tmp_path):
    with pytest.raises(ValueError):
        checkpoint.write_npz(tmp_path / "x.npz", {"a": np.array([{}], dtype=object)})
    assert not os.listdir(tmp_path)  # no half-written or temporary file is left


def test_a_failed_save_keeps_the_previous_file(tmp_path):
    path = tmp_path / "final.npz"
    checkpoint.write_npz(path, {"w:0": np.ones(3)})
    with pytest.raises(ValueError):
        checkpoint.write_npz(path, {"w:0": np.ones(3), "bad": np.array([None], dtype=object)})
    got, _ = checkpoint.read_npz(path)
    assert np.array_equal(got["w:0"], np.ones(3)) and os.listdir(tmp_path) == ["final.npz"]


def test_problem_names_truncated_and_foreign_files(tmp_path):
    path = checkpoint.write_npz(str(tmp_path / "a.npz"), arrays(), {})
    with open(path, "r+b") as f:
        f.truncate(os.path.getsize(path) // 2)
    assert "BadZipFile" in checkpoint.problem(path)
    (tmp_path / "b.npz").write_bytes(b"not a zip")
    assert checkpoint.problem(str(tmp_path / "b.npz")) is not None
    np.savez(tmp_path / "c.npz", w=np.ones(2))  # an .npz, but not a checkpoint: it has no record
    assert "'__meta__'" in checkpoint.problem(str(tmp_path / "c.npz"))
    assert "FileNotFoundError" in checkpoint.problem(str(tmp_path / "missing.npz"))


def test_problem_finds_a_flipped_data_byte(tmp_path):
    path = checkpoint.write_npz(str(tmp_path / "a.npz"), arrays(), {})
    raw = bytearray(open(path, "rb").read())
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo("dense/kernel.npy")
    raw[info.header_offset + 30 + len(info.filename) + 100] ^= 0xFF  # a data byte, not the header
    open(path, "wb").write(bytes(raw))
    assert "CRC" in checkpoint.problem(path)
