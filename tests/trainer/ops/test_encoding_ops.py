"""tf.io's byte encodings: web-safe base64, zlib and gzip decompression, and tensors as serialized TensorProtos, each
against Python's own codecs (the conformance family "plat" holds TF's answers)."""
import base64
import gzip
import zlib

import numpy as np
import pytest

import trainer as tg
from trainer.framework.tensor_util import TensorProto

STRINGS = [b"", b"a", b"hello?>", bytes(range(256))]


def run(fetch):
    with tg.Session() as sess:
        return sess.run(fetch)


def test_base64_is_web_safe_with_padding_on_request_and_round_trips():
    with tg.Graph().as_default():
        x = tg.constant(np.array(STRINGS, dtype=object).reshape(2, 2))
        plain, padded = tg.io.encode_base64(x), tg.io.encode_base64(x, pad=True)
        assert plain.shape == (2, 2) and plain.dtype == tg.string
        got = run([plain, padded, tg.io.decode_base64(plain), tg.io.decode_base64(padded)])
    want = [base64.urlsafe_b64encode(s) for s in STRINGS]
    assert got[1].ravel().tolist() == want and got[0].ravel().tolist() == [w.rstrip(b"=") for w in want]
    assert got[2].ravel().tolist() == STRINGS and got[3].ravel().tolist() == STRINGS


def test_bad_base64_fails_at_run_time():
    with tg.Graph().as_default():
        bad = tg.io.decode_base64(tg.placeholder(tg.string, [None]))
        with tg.Session() as sess, pytest.raises(tg.errors.InvalidArgumentError, match="Invalid character"):
            sess.run(bad, {bad.op.inputs[0]: np.array([b"ab+/"], dtype=object)})


def test_decompression_of_zlib_gzip_and_none():
    data = [b"hello " * 20, b""]
    with tg.Graph().as_default():
        got = run([tg.io.decode_compressed([zlib.compress(d) for d in data], "ZLIB"),
                   tg.io.decode_compressed([gzip.compress(d) for d in data], compression_type="GZIP"),
                   tg.io.decode_compressed(data)])
        with pytest.raises(ValueError, match="compression_type must be"):
            tg.io.decode_compressed(data, "BZ2")
        with pytest.raises(tg.errors.DataLossError, match="Failed to decompress a GZIP string"):
            run(tg.io.decode_compressed([b"plain"], "GZIP"))
    assert all(g.tolist() == data for g in got)


@pytest.mark.parametrize("value", [np.arange(6, dtype=np.float32).reshape(2, 3), np.int64(-7),
                                   np.array([True, False]), np.zeros((0, 2)), np.array([b"a", b"\x00b"], object)],
                         ids=["float32", "int64_scalar", "bool", "zero_size", "strings"])
def test_a_serialized_tensor_parses_back_to_the_same_value(value):
    with tg.Graph().as_default():
        x = tg.constant(value)
        serialized = tg.io.serialize_tensor(x)
        parsed = tg.io.parse_tensor(serialized, x.dtype)
        assert serialized.shape == () and parsed.dtype == x.dtype and parsed.shape.ndims is None
        proto_bytes, back = run([serialized, parsed])
    assert tg.make_ndarray(TensorProto.FromString(proto_bytes)).tolist() == np.asarray(value).tolist()
    assert np.asarray(back).tolist() == np.asarray(value).tolist() and np.shape(back) == np.shape(value)


def test_parsing_as_another_dtype_or_from_garbage_fails_at_run_time():
    with tg.Graph().as_default():
        serialized = tg.io.serialize_tensor(tg.constant([1.0, 2.0]))
        with pytest.raises(tg.errors.InvalidArgumentError, match=r"parsed tensor \(float32\) and dtype \(int32\)"):
            run(tg.io.parse_tensor(serialized, tg.int32))
        with pytest.raises(tg.errors.InvalidArgumentError, match="Could not parse"):
            run(tg.io.parse_tensor(b"\xff\xff", tg.float32))


def test_a_sparse_batch_serializes_row_by_row_and_comes_back():
    with tg.Graph().as_default():
        sp = tg.SparseTensor([[0, 1], [1, 0], [1, 2], [3, 1]], np.array([b"a", b"bc", b"", b"d"], object), [4, 3])
        one, many = tg.io.serialize_sparse(sp), tg.io.serialize_many_sparse(sp)
        back = tg.io.deserialize_many_sparse(many, tg.string, rank=2)
        assert one.shape == (3,) and many.shape.as_list() == [None, 3] and back.indices.shape.as_list() == [None, 2]
        with tg.Session() as sess:
            whole, rows, value = sess.run([one, many, back])
            assert rows.shape == (4, 3)
            row = tg.io.parse_tensor(rows[1, 1], tg.string)  # row 1's values
            assert sess.run(row).tolist() == [b"bc", b""]
            with pytest.raises(tg.errors.InvalidArgumentError, match="Type mismatch"):
                sess.run(tg.io.deserialize_many_sparse(many, tg.float32))
    # row 2 is empty; the dense shape is the batch by the largest row, as TF makes it
    assert value.indices.tolist() == [[0, 1], [1, 0], [1, 2], [3, 1]] and value.dense_shape.tolist() == [4, 3]
    assert value.values.tolist() == [b"a", b"bc", b"", b"d"] and len(whole) == 3


def test_a_json_example_decodes_to_the_example_it_describes():
    text = ('{"features": {"feature": {"x": {"floatList": {"value": [1.5, 2, "NaN"]}}, '
            '"ids": {"int64_list": {"value": ["3", 4]}}, "raw": {"bytesList": {"value": ["YWJj"]}}}}}')
    with tg.Graph().as_default():
        decoded = tg.io.decode_json_example([text, "{}"])
        parsed = tg.io.parse_single_example(decoded[0], {
            "x": tg.io.FixedLenFeature([3], tg.float32), "ids": tg.io.FixedLenFeature([2], tg.int64),
            "raw": tg.io.FixedLenFeature([], tg.string)})
        with tg.Session() as sess:
            got, empty = sess.run([parsed, decoded[1]])
            with pytest.raises(tg.errors.InvalidArgumentError, match="Error while parsing JSON"):
                sess.run(tg.io.decode_json_example('{"feature": {}}'))
    np.testing.assert_array_equal(got["x"], [1.5, 2.0, np.nan])
    assert got["ids"].tolist() == [3, 4] and got["raw"] == b"abc" and empty == b""
