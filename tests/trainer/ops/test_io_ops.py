"""SaveV2 and RestoreV2 (TF's checkpoint ops) and the Saver graph built on them, whose SaverDef TF1 programs run by
name: `sess.run(saver_def.restore_op_name, {saver_def.filename_tensor_name: prefix})`, against TF-written files."""
import json
import pathlib

import numpy as np
import pytest

import trainer as tg
from trainer.ops.io_ops import merge_v2_checkpoints, restore_v2, save_v2, sharded_filename

FIXTURES = pathlib.Path(__file__).resolve().parent.parent / "train" / "fixtures" / "tf_files"


def test_save_v2_writes_a_checkpoint_restore_v2_and_tensorflow_read(tmp_path):
    prefix = str(tmp_path / "ops")
    values = {"a": np.arange(6, dtype=np.float32).reshape(2, 3), "n": np.array([1, -2], np.int64),
              "s": np.array([b"x", b"yz"], dtype=object)}
    with tg.Graph().as_default():
        save = save_v2(prefix, list(values), [""] * 3, [tg.constant(v) for v in values.values()])
        restored = restore_v2(prefix, ["s", "a"], ["", ""], [tg.string, tg.float32])
        with tg.Session() as sess:
            assert sess.run(save) is None
            got = sess.run(restored)
    assert list(got[0]) == [b"x", b"yz"]
    np.testing.assert_array_equal(got[1], values["a"])
    reader = tg.train.load_checkpoint(prefix)
    np.testing.assert_array_equal(reader.get_tensor("n"), values["n"])


def test_sharded_filename_parts_merge_into_one_checkpoint_of_their_data_files(tmp_path):
    prefix, parts_prefix = str(tmp_path / "merged"), str(tmp_path / "merged_temp" / "part")
    with tg.Graph().as_default():
        parts = [sharded_filename(parts_prefix, i, 2) for i in range(2)]
        saves = [save_v2(parts[0], ["a"], [""], [tg.constant([1.0, 2.0])]),
                 save_v2(parts[1], ["b"], [""], [tg.constant([3, 4, 5], tg.int64)])]
        with tg.control_dependencies(saves):
            merge = merge_v2_checkpoints(parts, prefix)
        restored = restore_v2(prefix, ["b", "a"], ["", ""], [tg.int64, tg.float32])
        with tg.Session() as sess:
            assert sess.run(parts[1]) == (parts_prefix + "-00001-of-00002").encode()
            sess.run(merge)
            b, a = sess.run(restored)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["merged.data-00000-of-00002", "merged.data-00001-of-00002",
                                                        "merged.index"]  # the parts' directory is gone
    assert a.tolist() == [1.0, 2.0] and b.tolist() == [3, 4, 5]


def test_restore_v2_names_a_missing_key_or_file_a_wrong_dtype_and_refuses_slices(tmp_path):
    prefix = str(tmp_path / "ops")
    with tg.Graph().as_default(), tg.Session() as sess:
        sess.run(save_v2(prefix, ["a"], [""], [tg.constant([1.0, 2.0])]))
        cases = [(restore_v2(prefix, ["b"], [""], [tg.float32]), tg.errors.NotFoundError, "Key b not found"),
                 (restore_v2(str(tmp_path / "none"), ["a"], [""], [tg.float32]), tg.errors.NotFoundError,
                  "Failed to find any matching files for .*none"),
                 (restore_v2(prefix, ["a"], [""], [tg.int32]), tg.errors.InvalidArgumentError,
                  "expected dtype int32 does not equal original dtype float32"),
                 (restore_v2(prefix, ["a"], ["2 0,1"], [tg.float32]), tg.errors.UnimplementedError,
                  "whole tensors only")]
        for tensors, error, message in cases:
            with pytest.raises(error, match=message):
                sess.run(tensors)


def _model():
    graph = tg.Graph()
    with graph.as_default():
        w = tg.get_variable("dense/kernel", initializer=np.arange(6, dtype=np.float32).reshape(2, 3))
        b = tg.get_variable("dense/bias", initializer=np.ones(3, np.float32))
        saver = tg.train.Saver()
    return graph, w, b, saver


def test_the_saver_graph_has_tf1s_ops_and_its_saver_def_names_them(tmp_path):
    graph, w, b, saver = _model()
    saver_def = saver.saver_def
    assert (saver_def.filename_tensor_name, saver_def.save_tensor_name, saver_def.restore_op_name) == \
        ("save/Const:0", "save/control_dependency:0", "save/restore_all")
    assert saver.as_saver_def() == saver_def and saver_def.version == 2
    types = {op.name: op.type for op in graph.get_operations() if op.name.startswith("save/")}
    assert {types[n] for n in ("save/SaveV2", "save/RestoreV2", "save/Assign", "save/Assign_1")} == \
        {"SaveV2", "RestoreV2", "Assign"}
    prefix = str(tmp_path / "by_name")
    with graph.as_default(), tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        assert sess.run(saver_def.save_tensor_name, {saver_def.filename_tensor_name: prefix}) == prefix.encode()
        sess.run([w.assign(w * 0), b.assign(b * 0)])
        sess.run(saver_def.restore_op_name, {saver_def.filename_tensor_name: prefix})
        np.testing.assert_array_equal(sess.run(w), np.arange(6).reshape(2, 3))
        sess.run(w.assign(w * 0))
        saver.restore(sess, prefix)  # the Python path, on the same Assign ops
        np.testing.assert_array_equal(sess.run(w), np.arange(6).reshape(2, 3))
    assert sorted(tg.train.load_checkpoint(prefix).get_variable_to_shape_map()) == ["dense/bias", "dense/kernel"]


def test_an_exported_graph_carries_the_saver_def_and_import_reuses_its_ops(tmp_path):
    graph, w, b, saver = _model()
    with graph.as_default(), tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        prefix = saver.save(sess, str(tmp_path / "model.ckpt"), global_step=1)
    with tg.Graph().as_default() as imported:
        restored = tg.train.import_meta_graph(prefix + ".meta")
        assert restored.saver_def.restore_op_name == "save/restore_all"
        assert not [op.name for op in imported.get_operations() if op.name.startswith("save_1")]
        with tg.Session() as sess:
            sess.run(restored.saver_def.restore_op_name, {restored.saver_def.filename_tensor_name: prefix})
            np.testing.assert_array_equal(sess.run("dense/bias:0"), np.ones(3))


def test_the_graph_tensorflow_wrote_restores_through_its_own_saver_def(tmp_path):
    record = json.loads((FIXTURES / "values.json").read_text())
    with tg.Graph().as_default():
        saver = tg.train.import_meta_graph(str(FIXTURES / "model.ckpt-5.meta"))
        saver_def = saver.saver_def
        with tg.Session() as sess:
            sess.run(saver_def.restore_op_name, {saver_def.filename_tensor_name: str(FIXTURES / "model.ckpt-5")})
            got = sess.run("y:0", {"x:0": np.asarray(record["input"], np.float32)})
            np.testing.assert_array_equal(got, np.asarray(record["output"], np.float32))
            resaved = str(tmp_path / "resaved")
            sess.run(saver_def.save_tensor_name, {saver_def.filename_tensor_name: resaved})
    reader = tg.train.load_checkpoint(resaved)
    for name, value in record["values"].items():
        np.testing.assert_array_equal(reader.get_tensor(name), np.asarray(value, record["dtypes"][name]))
