"""decode_raw, decode_csv and parse_example beyond the conformance family's cases (tests/trainer/conformance/
cases_queues.py, recorded from TensorFlow): binary strings, tf.train.Example features and their errors."""
import numpy as np
import pytest

import trainer as tg


def _example(**features):
    kinds = {int: ("int64_list", tg.train.Int64List), float: ("float_list", tg.train.FloatList),
             bytes: ("bytes_list", tg.train.BytesList)}
    built = {}
    for key, values in features.items():
        field, cls = kinds[type(values[0])]
        built[key] = tg.train.Feature(**{field: cls(value=values)})
    return tg.train.Example(features=tg.train.Features(feature=built)).SerializeToString()


def test_decode_raw_keeps_every_byte_of_binary_strings():
    with tg.Graph().as_default(), tg.Session() as sess:
        raw = tg.placeholder(tg.string, [2])
        values = sess.run(tg.decode_raw(raw, tg.uint8), {raw: np.array([b"a\x00\x00", b"\x00\x01\xff"], object)})
    assert values.tolist() == [[97, 0, 0], [0, 1, 255]]


def test_parse_single_example_fills_defaults_and_names_what_is_missing():
    serialized = _example(label=[3], pixels=[0.5, 1.5])
    with tg.Graph().as_default(), tg.Session() as sess:
        parsed = tg.parse_single_example(serialized, {
            "label": tg.FixedLenFeature([], tg.int64), "pixels": tg.FixedLenFeature([2], tg.float32),
            "weight": tg.FixedLenFeature([], tg.float32, default_value=1.0)})
        assert {k: v.shape.as_list() for k, v in parsed.items()} == {"label": [], "pixels": [2], "weight": []}
        values = sess.run(parsed)
        assert (values["label"], values["pixels"].tolist(), values["weight"]) == (3, [0.5, 1.5], 1.0)
        with pytest.raises(tg.errors.InvalidArgumentError, match="Feature: missing .* is required"):
            sess.run(tg.parse_single_example(serialized, {"missing": tg.FixedLenFeature([], tg.float32)}))
        with pytest.raises(tg.errors.InvalidArgumentError, match="data types don't match"):
            sess.run(tg.parse_single_example(serialized, {"label": tg.FixedLenFeature([], tg.float32)}))
        with pytest.raises(tg.errors.InvalidArgumentError, match="values size: 2 but output shape: \\[3\\]"):
            sess.run(tg.parse_single_example(serialized, {"pixels": tg.FixedLenFeature([3], tg.float32)}))


def test_var_len_features_parse_into_sparse_tensors_as_tf1_does():
    # the values TF 1.15's parse_example gives for these records (recorded once from TensorFlow)
    records = [_example(w=[b"a", b"bc"], n=[1, 2, 3]), _example(n=[4]), _example(w=[b"z"], n=[5, 6], y=[1.5])]
    with tg.Graph().as_default(), tg.Session() as sess:
        parsed = tg.parse_example(tg.constant(records), {
            "w": tg.VarLenFeature(tg.string), "n": tg.VarLenFeature(tg.int64),
            "y": tg.FixedLenFeature([], tg.float32, default_value=0.0)})
        n = parsed["n"]
        assert isinstance(n, tg.SparseTensor)
        assert (n.indices.shape.as_list(), n.values.shape.as_list(), n.dense_shape.shape.as_list(),
                n.shape.as_list()) == ([None, 2], [None], [2], [None, None])
        values = sess.run(parsed)
        assert values["n"].indices.tolist() == [[0, 0], [0, 1], [0, 2], [1, 0], [2, 0], [2, 1]]
        assert values["n"].values.tolist() == [1, 2, 3, 4, 5, 6] and values["n"].dense_shape.tolist() == [3, 3]
        assert values["w"].indices.tolist() == [[0, 0], [0, 1], [2, 0]]
        assert values["w"].values.tolist() == [b"a", b"bc", b"z"] and values["w"].dense_shape.tolist() == [3, 2]
        assert values["y"].tolist() == [0.0, 0.0, 1.5]
        assert sess.run(tg.sparse_tensor_to_dense(n)).tolist() == [[1, 2, 3], [4, 0, 0], [5, 6, 0]]
        one = sess.run(tg.parse_single_example(records[1], {"w": tg.VarLenFeature(tg.string),
                                                           "n": tg.VarLenFeature(tg.int64)}))
        assert (one["n"].indices.tolist(), one["n"].values.tolist(), one["n"].dense_shape.tolist()) == (
            [[0]], [4], [1])
        assert (one["w"].indices.shape, one["w"].values.tolist(), one["w"].dense_shape.tolist()) == ((0, 1), [], [0])
        batch = tg.placeholder(tg.string, [None])
        empty = sess.run(tg.parse_example(batch, {"n": tg.VarLenFeature(tg.int64)}), {batch: records[:0]})["n"]
        assert (empty.indices.shape, empty.dense_shape.tolist()) == ((0, 2), [0, 0])
        with pytest.raises(tg.errors.InvalidArgumentError, match="data types don't match"):
            sess.run(tg.parse_example(tg.constant(records), {"n": tg.VarLenFeature(tg.float32)}))


def test_unsupported_feature_specs_are_named():
    with tg.Graph().as_default():
        with pytest.raises(ValueError, match="only float32, int64 and string"):
            tg.parse_example(tg.constant([_example(a=[1])]), {"a": tg.FixedLenFeature([], tg.int32)})
