"""Sharded checkpoints: Saver(sharded=True) writes a data file per device with one index, as TF1 does, and every
reader takes them, TensorFlow's own included (a fixture recorded by scripts/record_tf_files.py sharded)."""
import json
import os
import pathlib

import numpy as np
import pytest

import trainer as tg

SHARDED = pathlib.Path(__file__).parent / "fixtures" / "tf_sharded"
SHARD_FILES = [".data-00000-of-00002", ".data-00001-of-00002", ".index"]


def tf_values():
    record = json.loads((SHARDED / "values.json").read_text())
    return {k: np.asarray(v, dtype=record["dtypes"][k]) for k, v in record["values"].items()}


def model(values, devices=("/cpu:0", "/cpu:1"), **saver_args):
    """The fixture's variables, those under a/ on the first device and those under b/ on the second."""
    graph = tg.Graph()
    with graph.as_default():
        variables = {}
        for name, value in values.items():
            with tg.device(devices[0] if name.startswith("a/") else devices[1]):
                variables[name] = tg.get_variable(name, initializer=tg.zeros_initializer(), shape=value.shape,
                                                  dtype=value.dtype)
        saver = tg.train.Saver(**saver_args)
    return graph, variables, saver


def restored(prefix, values, **saver_args):
    graph, variables, saver = model(values, **saver_args)
    with tg.Session(graph=graph) as sess:
        saver.restore(sess, prefix)
        return dict(zip(variables, sess.run(list(variables.values()))))


def assert_values(got, want):
    for name, value in want.items():
        assert got[name].dtype == value.dtype and np.array_equal(got[name], value), name


def test_restores_and_reads_the_sharded_checkpoint_tensorflow_wrote():
    prefix = str(SHARDED / "model.ckpt-3")
    values = tf_values()
    assert_values(restored(prefix, values), values)
    assert_values(restored(prefix, values, sharded=True), values)
    assert tg.train.latest_checkpoint(str(SHARDED)) == prefix
    reader = tg.train.NewCheckpointReader(prefix)
    assert reader.get_variable_to_shape_map() == {k: list(v.shape) for k, v in values.items()}
    assert tg.train.list_variables(str(SHARDED)) == sorted((k, list(v.shape)) for k, v in values.items())
    assert np.array_equal(tg.train.load_variable(prefix, "b/w"), values["b/w"])
    assert tg.train.checkpoint_exists(prefix) and not tg.train.checkpoint_exists(prefix + "0")
    assert tg.train.get_checkpoint_mtimes([prefix, prefix + "0"]) == [os.path.getmtime(prefix + ".index")]


def test_a_sharded_saver_writes_a_data_file_per_device_and_restores_them(tmp_path):
    values = tf_values()
    graph, variables, saver = model(values, sharded=True, max_to_keep=1)
    with tg.Session(graph=graph) as sess:
        for name, var in variables.items():
            var.load(values[name], sess)
        first = saver.save(sess, str(tmp_path / "model.ckpt"), global_step=1, write_meta_graph=False)
        assert sorted(os.listdir(tmp_path)) == ["checkpoint"] + [f"model.ckpt-1{ext}" for ext in SHARD_FILES]
        for ext in SHARD_FILES:  # TF's bytes: its shards hold the same tensors as ringflow's
            assert (tmp_path / f"model.ckpt-1{ext}").read_bytes() == (SHARDED / f"model.ckpt-3{ext}").read_bytes()
        second = saver.save(sess, str(tmp_path / "model.ckpt"), global_step=2, write_meta_graph=False)
    assert sorted(os.listdir(tmp_path)) == ["checkpoint"] + [f"model.ckpt-2{ext}" for ext in SHARD_FILES]
    assert not tg.train.checkpoint_exists(first)  # pruning removed every shard
    assert_values(restored(second, values), values)


def test_the_graphs_own_save_op_run_by_name_writes_the_same_shards_as_tensorflow(tmp_path):
    values = tf_values()
    graph, variables, saver = model(values, sharded=True)
    saver_def = saver.saver_def
    assert saver_def.sharded and saver_def.save_tensor_name == "save/Identity:0"  # TF's names
    with tg.Session(graph=graph) as sess:
        for name, var in variables.items():
            var.load(values[name], sess)
        prefix = str(tmp_path / "model.ckpt-3")
        assert sess.run(saver_def.save_tensor_name, {saver_def.filename_tensor_name: prefix}) == prefix.encode()
        assert sorted(os.listdir(tmp_path)) == [f"model.ckpt-3{ext}" for ext in SHARD_FILES]  # the parts merged
        for ext in SHARD_FILES:
            assert (tmp_path / f"model.ckpt-3{ext}").read_bytes() == (SHARDED / f"model.ckpt-3{ext}").read_bytes()
        sess.run(tg.global_variables_initializer())
        sess.run(saver_def.restore_op_name, {saver_def.filename_tensor_name: str(SHARDED / "model.ckpt-3")})
        assert_values(dict(zip(variables, sess.run(list(variables.values())))), values)


def test_tensorflows_sharded_saver_imported_with_its_graph_saves_and_restores_by_name(tmp_path):
    values = tf_values()
    with tg.Graph().as_default():
        saver = tg.train.import_meta_graph(str(SHARDED / "model.ckpt-3.meta"))
        saver_def = saver.saver_def
        assert saver_def.sharded and saver_def.save_tensor_name == "save/Identity:0"
        with tg.Session() as sess:
            sess.run(saver_def.restore_op_name, {saver_def.filename_tensor_name: str(SHARDED / "model.ckpt-3")})
            sess.run(saver_def.save_tensor_name, {saver_def.filename_tensor_name: str(tmp_path / "model.ckpt-3")})
    assert sorted(os.listdir(tmp_path)) == [f"model.ckpt-3{ext}" for ext in SHARD_FILES]
    for ext in SHARD_FILES:
        assert (tmp_path / f"model.ckpt-3{ext}").read_bytes() == (SHARDED / f"model.ckpt-3{ext}").read_bytes()
    assert_values(restored(str(tmp_path / "model.ckpt-3"), values), values)


def test_a_sharded_saver_of_one_device_writes_one_data_file(tmp_path):
    values = tf_values()
    graph, variables, saver = model(values, devices=("", ""), sharded=True)
    with tg.Session(graph=graph) as sess:
        sess.run(tg.global_variables_initializer())
        saver.save(sess, str(tmp_path / "m"), write_meta_graph=False, meta={"epoch": 2})
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "m.data-00000-of-00001", "m.index"]
    assert tg.train.checkpoint_meta(str(tmp_path / "m")) == {"epoch": 2}


def test_a_missing_shard_is_named_when_restoring(tmp_path):
    values = tf_values()
    graph, variables, saver = model(values, sharded=True)
    with tg.Session(graph=graph) as sess:
        sess.run(tg.global_variables_initializer())
        prefix = saver.save(sess, str(tmp_path / "m"), write_meta_graph=False)
    os.remove(prefix + ".data-00001-of-00002")
    with pytest.raises(tg.errors.NotFoundError, match=r"m\.data-00001-of-00002'?: copy every file"):
        restored(prefix, values)


def test_init_from_checkpoint_maps_names_and_scopes_onto_the_initializers():
    values = tf_values()
    graph = tg.Graph()
    with graph.as_default():
        with tg.variable_scope("new"):
            w = tg.get_variable("w", [3, 2], tg.float32)
            count = tg.get_variable("count", [], tg.int64)
        other = tg.get_variable("other", [1, 2], tg.float64)
        flags = tg.get_variable("mine/flags", [2], tg.bool)
        kept = tg.get_variable("kept", [2], tg.float32, initializer=tg.ones_initializer())
        tg.train.init_from_checkpoint(str(SHARDED), {"a/": "new/", "b/w": other, "b/flags": "mine/flags"})
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            got = sess.run({"a/w": w, "a/count": count, "b/w": other, "b/flags": flags, "kept": kept})
    assert_values({k: v for k, v in got.items() if k != "kept"}, values)
    assert got["kept"].tolist() == [1, 1]
    with graph.as_default():
        with pytest.raises(ValueError, match=r"Tensor a/nope is not found in .*tf_sharded checkpoint"):
            tg.train.init_from_checkpoint(str(SHARDED), {"a/nope": "kept"})
        with pytest.raises(ValueError, match=r"Shape of variable kept:0 \(\(2,\)\) doesn't match .* a/w \(\[3, 2\]\)"):
            tg.train.init_from_checkpoint(str(SHARDED), {"a/w": "kept"})
