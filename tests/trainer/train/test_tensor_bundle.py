"""TF's checkpoint format in pure Python: crc32c, the index table, the bundle, and TF's own files read back."""
import json
import os
import pathlib

import numpy as np
import pytest

from trainer.framework import tensor_bundle
from trainer.platform import crc32c, sstable

FIXTURES = pathlib.Path(__file__).parent / "fixtures" / "tf_files"  # recorded by scripts/record_tf_files.py


def test_crc32c_matches_the_standard_check_values():
    assert crc32c.crc32c(b"123456789") == 0xE3069283  # RFC 3720's check value for CRC-32C
    assert crc32c.crc32c(b"") == 0
    assert crc32c.crc32c(b"6789", crc32c.crc32c(b"12345")) == 0xE3069283  # extending equals one pass
    assert crc32c.unmask(crc32c.mask(0xE3069283)) == 0xE3069283 and crc32c.mask(0) != 0


@pytest.mark.parametrize("size", [8191, 8192, 700_001, 2 ** 21 + 8197])
def test_crc32c_of_large_buffers_in_lanes_equals_the_byte_loop(size):
    """Buffers of 8 KiB and more go through numpy lanes; pieces under 8 KiB through the table loop."""
    data = np.random.default_rng(size).integers(0, 256, size, dtype=np.uint8).tobytes()
    crc = 0
    for start in range(0, size, 4000):
        crc = crc32c.crc32c(data[start:start + 4000], crc)
    assert crc32c.crc32c(data) == crc
    assert crc32c.crc32c(data[size // 3:], crc32c.crc32c(data[:size // 3])) == crc


def test_table_round_trip_over_several_blocks_and_restarts():
    items = {f"var/{i:05d}".encode(): os.urandom(1 + i % 300) for i in range(3000)}  # ~450 KB: two blocks
    items[b""] = b"header"
    raw = sstable.build_table(items)
    assert sstable.read_table(raw) == items
    assert sstable.read_table(sstable.build_table({})) == {}


@pytest.mark.parametrize("damage, message", [
    (lambda raw: raw[:-1], "no table magic number"),
    (lambda raw: raw[:10], "shorter than a table's footer"),
    (lambda raw: bytes([raw[0] ^ 1]) + raw[1:], "fails its crc32c check"),
])
def test_a_damaged_table_is_named(damage, message):
    raw = sstable.build_table({b"a": b"1", b"b": b"2"})
    with pytest.raises(sstable.TableError, match=f"idx: .*{message}"):
        sstable.read_table(damage(raw), where="idx")


def test_bundle_round_trip_of_every_dtype(tmp_path):
    arrays = {"f32": np.arange(6, dtype=np.float32).reshape(2, 3), "f64": np.array([1 / 3, -2e-300]),
              "f16": np.array([1.5, -2], np.float16), "i8": np.array([-128, 127], np.int8),
              "u16": np.array([65535], np.uint16), "i64": np.array(2 ** 40, np.int64), "b": np.array([True, False]),
              "c64": np.array([1 + 2j], np.complex64), "empty": np.zeros((0, 3), np.float32),
              "s": np.array([b"ab", b"", "\u00e9".encode()], dtype=object), "s0": np.array(b"{}", dtype=object)}
    prefix = str(tmp_path / "ckpt")
    tensor_bundle.write_bundle(prefix, arrays)
    assert sorted(os.listdir(tmp_path)) == ["ckpt.data-00000-of-00001", "ckpt.index"]
    got = tensor_bundle.read_bundle(prefix)
    assert sorted(got) == sorted(arrays)
    for name, value in arrays.items():
        assert got[name].dtype == value.dtype and got[name].shape == value.shape, name
        assert np.array_equal(got[name], value), name
    assert tensor_bundle.read_bundle(prefix, names={"f32"}).keys() == {"f32"}
    assert tensor_bundle.bundle_problem(prefix) is None


def test_damaged_bundles_are_named(tmp_path):
    prefix = str(tmp_path / "m")
    tensor_bundle.write_bundle(prefix, {"w": np.arange(100, dtype=np.float32), "b": np.ones(3)})
    data = pathlib.Path(prefix + tensor_bundle.DATA)
    raw = bytearray(data.read_bytes())
    raw[-50] ^= 0xFF  # inside w
    data.write_bytes(bytes(raw))
    with pytest.raises(tensor_bundle.BundleError, match=r"tensor 'w' fails its crc32c check"):
        tensor_bundle.read_bundle(prefix)
    data.write_bytes(bytes(raw[:40]))
    assert "the file is truncated" in tensor_bundle.bundle_problem(prefix)
    os.remove(prefix + tensor_bundle.INDEX)
    assert "does not exist" in tensor_bundle.bundle_problem(prefix)


def test_reads_the_checkpoint_real_tensorflow_wrote():
    record = json.loads((FIXTURES / "values.json").read_text())
    got = tensor_bundle.read_bundle(str(FIXTURES / "model.ckpt-5"))
    assert sorted(got) == sorted(record["values"])
    for name, value in record["values"].items():
        want = np.asarray(value, dtype=record["dtypes"][name])
        assert got[name].dtype == want.dtype and np.array_equal(got[name], want), name
    header, _ = tensor_bundle.read_index(str(FIXTURES / "model.ckpt-5"))
    assert header.num_shards == 1 and header.version.producer == tensor_bundle.VERSION


def test_writes_the_bytes_real_tensorflow_writes(tmp_path):
    """TF's files for the same tensors, byte for byte: same order, layout, checksums and index keys."""
    record = json.loads((FIXTURES / "values.json").read_text())
    arrays = {k: np.asarray(v, dtype=record["dtypes"][k]) for k, v in record["values"].items()}
    tensor_bundle.write_bundle(str(tmp_path / "m"), arrays)
    for ext in (tensor_bundle.DATA, tensor_bundle.INDEX):
        assert (tmp_path / ("m" + ext)).read_bytes() == (FIXTURES / ("model.ckpt-5" + ext)).read_bytes(), ext


SHARDED = pathlib.Path(__file__).parent / "fixtures" / "tf_sharded"  # TF's Saver(sharded=True), two devices
SHARDS = [["a/count", "a/w"], ["b/flags", "b/w"]]  # the variables on /cpu:0, then those on /cpu:1


def sharded_values():
    record = json.loads((SHARDED / "values.json").read_text())
    return {k: np.asarray(v, dtype=record["dtypes"][k]) for k, v in record["values"].items()}


def test_reads_a_sharded_checkpoint_real_tensorflow_wrote():
    got = tensor_bundle.read_bundle(str(SHARDED / "model.ckpt-3"))
    for name, want in sharded_values().items():
        assert got[name].dtype == want.dtype and np.array_equal(got[name], want), name
    assert tensor_bundle.data_files(str(SHARDED / "model.ckpt-3")) == [
        str(SHARDED / "model.ckpt-3.data-00000-of-00002"), str(SHARDED / "model.ckpt-3.data-00001-of-00002")]


def test_writes_the_shards_and_the_merged_index_real_tensorflow_writes(tmp_path):
    tensor_bundle.write_bundle(str(tmp_path / "m"), sharded_values(), SHARDS)
    for ext in (".index", ".data-00000-of-00002", ".data-00001-of-00002"):
        assert (tmp_path / ("m" + ext)).read_bytes() == (SHARDED / ("model.ckpt-3" + ext)).read_bytes(), ext


def test_a_missing_or_damaged_shard_is_named(tmp_path):
    prefix = str(tmp_path / "m")
    tensor_bundle.write_bundle(prefix, sharded_values(), SHARDS)
    second = pathlib.Path(prefix + ".data-00001-of-00002")
    raw = second.read_bytes()
    second.write_bytes(raw[:-1] + bytes([raw[-1] ^ 1]))
    with pytest.raises(tensor_bundle.BundleError, match=r"data-00001-of-00002'?: tensor 'b/w' fails its crc32c"):
        tensor_bundle.read_bundle(prefix)
    assert tensor_bundle.read_bundle(prefix, names={"a/w"}).keys() == {"a/w"}  # the other shard is intact
    second.unlink()
    assert tensor_bundle.bundle_problem(prefix) == f"its file {str(second)!r} does not exist"
    with pytest.raises(ValueError, match=r"must name each of .*'b/w'.* once"):
        tensor_bundle.write_bundle(prefix, sharded_values(), SHARDS[:1])
