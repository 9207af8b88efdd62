"""tf.train.Saver and the checkpoint helpers: TF1's names, state file, pruning and errors, on TF's checkpoint files
(and ringflow's earlier .npz ones)."""
import os
import zipfile

import numpy as np
import pytest

import trainer as tg
from trainer.train import saver as saver_module


def _model(seed=0):
    """A fresh graph with dense/kernel, dense/bias and a global step; returns (graph, variables, values)."""
    rng = np.random.default_rng(seed)
    values = {"dense/kernel": rng.standard_normal((3, 2)).astype(np.float32),
              "dense/bias": rng.standard_normal(2).astype(np.float32)}
    graph = tg.Graph()
    with graph.as_default():
        with tg.variable_scope("dense"):
            kernel = tg.get_variable("kernel", initializer=values["dense/kernel"])
            bias = tg.get_variable("bias", initializer=values["dense/bias"])
        step = tg.train.get_or_create_global_step()
    return graph, {"dense/kernel": kernel, "dense/bias": bias, "global_step": step}, values


def _files(*prefixes):
    """The files TF1's Saver writes for each checkpoint prefix (a base name)."""
    return [p + ext for p in prefixes for ext in (".data-00000-of-00001", ".index", ".meta")]


def _session(graph, init=True):
    sess = tg.Session(graph=graph)
    if init:
        with graph.as_default():
            sess.run(tg.global_variables_initializer())
    return sess


def test_save_restore_round_trip_with_tf1_names_and_state_file(tmp_path):
    graph, variables, values = _model()
    with graph.as_default():
        saver = tg.train.Saver()
    sess = _session(graph)
    sess.run(variables["global_step"].assign(np.int64(10)))
    prefix = saver.save(sess, str(tmp_path / "model.ckpt"), global_step=variables["global_step"])
    assert prefix == str(tmp_path / "model.ckpt-10")
    assert sorted(os.listdir(tmp_path)) == ["checkpoint"] + _files("model.ckpt-10")
    assert (tmp_path / "checkpoint").read_text() == ('model_checkpoint_path: "model.ckpt-10"\n'
                                                     'all_model_checkpoint_paths: "model.ckpt-10"\n')
    np.testing.assert_array_equal(tg.train.load_variable(prefix, "dense/kernel"), values["dense/kernel"])
    assert tg.train.list_variables(prefix) == [("dense/bias", [2]), ("dense/kernel", [3, 2]), ("global_step", [])]
    assert tg.train.load_variable(str(tmp_path), "global_step:0") == 10

    graph2, variables2, _ = _model(seed=1)
    with graph2.as_default():
        restorer = tg.train.Saver()
    sess2 = _session(graph2, init=False)  # restore initializes the variables
    restorer.restore(sess2, tg.train.latest_checkpoint(str(tmp_path)))
    for name, var in variables2.items():
        want = values.get(name, 10)
        np.testing.assert_array_equal(sess2.run(var), want)


def test_dict_var_list_names_the_checkpoint_keys(tmp_path):
    graph, variables, values = _model()
    with graph.as_default():
        saver = tg.train.Saver({"w": variables["dense/kernel"]})
    prefix = saver.save(_session(graph), str(tmp_path / "m"))
    assert prefix == str(tmp_path / "m") and tg.train.list_variables(prefix) == [("w", [3, 2])]
    with tg.Graph().as_default() as g2:
        other = tg.Variable(np.zeros((3, 2), np.float64), name="renamed")  # float64: converted on restore
        tg.train.Saver({"w": other}).restore(sess := tg.Session(graph=g2), prefix)
        np.testing.assert_allclose(sess.run(other), values["dense/kernel"])


def test_max_to_keep_prunes_only_its_own_checkpoints(tmp_path):
    graph, variables, _ = _model()
    (tmp_path / "notes.txt").write_text("keep me")
    (tmp_path / "model.ckpt-0.npz").write_bytes(b"someone else's file")
    with graph.as_default():
        saver = tg.train.Saver(max_to_keep=2)
    sess = _session(graph)
    for step in [1, 2, 3, 4]:
        saver.save(sess, str(tmp_path / "model.ckpt"), global_step=step)
    assert sorted(os.listdir(tmp_path)) == sorted(["checkpoint", "model.ckpt-0.npz", "notes.txt"]
                                                  + _files("model.ckpt-3", "model.ckpt-4"))
    assert saver.last_checkpoints == [str(tmp_path / "model.ckpt-3"), str(tmp_path / "model.ckpt-4")]
    state = tg.train.get_checkpoint_state(str(tmp_path))
    assert state.model_checkpoint_path == str(tmp_path / "model.ckpt-4")
    assert state.all_model_checkpoint_paths == saver.last_checkpoints
    # Saving the same step again does not list it twice.
    saver.save(sess, str(tmp_path / "model.ckpt"), global_step=4)
    assert saver.last_checkpoints == [str(tmp_path / "model.ckpt-3"), str(tmp_path / "model.ckpt-4")]


def test_keep_checkpoint_every_n_hours_keeps_one_per_period(tmp_path, monkeypatch):
    clock = [0.0]
    monkeypatch.setattr(saver_module.time, "time", lambda: clock[0])
    graph, _, _ = _model()
    with graph.as_default():
        saver = tg.train.Saver(max_to_keep=1, keep_checkpoint_every_n_hours=1.0)  # next keep after t=3600
    sess = _session(graph)
    for step, t in [(1, 10.0), (2, 4000.0), (3, 4100.0), (4, 4200.0)]:
        clock[0] = t
        saver.save(sess, str(tmp_path / "m"), global_step=step)
    # 1 (t=10) is pruned, 2 (t=4000, past the hour) is kept for good, 3 (t=4100, within the next hour) is pruned.
    assert sorted(os.listdir(tmp_path)) == ["checkpoint"] + _files("m-2", "m-4")


def test_recover_last_checkpoints_then_prune(tmp_path):
    graph, _, _ = _model()
    with graph.as_default():
        first, second = tg.train.Saver(), tg.train.Saver(max_to_keep=2)
    sess = _session(graph)
    paths = [first.save(sess, str(tmp_path / "m"), global_step=s) for s in (1, 2)]
    second.recover_last_checkpoints(paths + [str(tmp_path / "missing")])
    assert second.last_checkpoints == paths
    second.save(sess, str(tmp_path / "m"), global_step=3)
    assert sorted(os.listdir(tmp_path)) == ["checkpoint"] + _files("m-2", "m-3")
    second.set_last_checkpoints_with_time([(paths[1], 5.0)])
    assert second.last_checkpoints == [paths[1]]


def test_latest_checkpoint_skips_missing_and_damaged_files(tmp_path):
    assert tg.train.latest_checkpoint(str(tmp_path)) is None and tg.train.get_checkpoint_state(str(tmp_path)) is None
    graph, _, _ = _model()
    with graph.as_default():
        saver = tg.train.Saver()
    sess = _session(graph)
    p1, p2, p3 = (saver.save(sess, str(tmp_path / "m"), global_step=s) for s in (1, 2, 3))
    assert tg.train.latest_checkpoint(str(tmp_path)) == p3
    with open(p3 + ".data-00000-of-00001", "r+b") as f:  # a crash mid-copy: the data is cut short
        f.truncate(10)
    os.remove(p2 + ".index")
    with pytest.warns(RuntimeWarning) as record:
        assert tg.train.latest_checkpoint(str(tmp_path)) == p1
    messages = " ".join(str(w.message) for w in record)
    assert "m-3" in messages and "m-2" in messages and "does not exist" in messages


def test_restore_errors_name_the_culprit(tmp_path):
    graph, variables, _ = _model()
    with graph.as_default():
        saver = tg.train.Saver(variables)
    sess = _session(graph)
    prefix = saver.save(sess, str(tmp_path / "m"))
    with pytest.raises(ValueError, match=r"not a valid checkpoint: .*nope.*holds: checkpoint, m\.data-00000-of-00001, "
                                         r"m\.index, m\.meta"):
        saver.restore(sess, str(tmp_path / "nope"))
    with pytest.raises(ValueError, match="Can't load save_path when it is None"):
        saver.restore(sess, None)
    with tg.Graph().as_default() as g2:
        w = tg.Variable(np.zeros(2, np.float32), name="W")
        with pytest.raises(tg.errors.NotFoundError, match=r"Key W not found in checkpoint .*'W:0'"):
            tg.train.Saver([w]).restore(tg.Session(graph=g2), prefix)
        with pytest.raises(tg.errors.InvalidArgumentError, match=r"'W:0' has shape \(2,\).*'dense/kernel'.*\(3, 2\)"):
            tg.train.Saver({"dense/kernel": w}).restore(tg.Session(graph=g2), prefix)
        ints = tg.Variable(np.zeros(2, np.int32), name="ints")
        with pytest.raises(tg.errors.InvalidArgumentError, match=r"'ints:0' is int32 .* float32"):
            tg.train.Saver({"dense/bias": ints}).restore(tg.Session(graph=g2), prefix)
        flat = tg.Variable(np.zeros((2, 3), np.float32), name="flat")
        tg.train.Saver({"dense/kernel": flat}, reshape=True).restore(sess2 := tg.Session(graph=g2), prefix)
        np.testing.assert_array_equal(sess2.run(flat), sess.run(variables["dense/kernel"]).reshape(2, 3))


def test_construction_errors_and_empty_saver(tmp_path):
    with tg.Graph().as_default():
        with pytest.raises(ValueError, match="No variables to save"):
            tg.train.Saver()
        empty = tg.train.Saver(allow_empty=True)
        assert empty.save(tg.Session(), str(tmp_path / "e")) is None and not os.listdir(tmp_path)
        a, b = tg.Variable(1.0, name="a"), tg.Variable(2.0, name="b")
        with pytest.raises(TypeError, match="Variable to save is not a Variable"):
            tg.train.Saver([a + b])
        with pytest.raises(ValueError, match="At least two variables have the same name: a"):
            tg.train.Saver([a, a])
        deferred = tg.train.Saver(defer_build=True)
        with pytest.raises(RuntimeError, match="build"):
            deferred.save(tg.Session(), str(tmp_path / "d"))
        with pytest.raises(ValueError, match="Parent directory of .*no/such/dir/m doesn't exist"):
            tg.train.Saver().save(tg.Session(), str(tmp_path / "no/such/dir/m"))


def test_meta_record_pad_step_and_meta_graph(tmp_path):
    graph, _, _ = _model()
    with graph.as_default():
        saver = tg.train.Saver(pad_step_number=True)
    sess = _session(graph)
    prefix = saver.save(sess, str(tmp_path / "m"), global_step=7, meta={"epoch": 2, "position": [3, 4]},
                        write_meta_graph=True)
    assert prefix.endswith("m-00000007") and sorted(os.listdir(tmp_path)) == ["checkpoint"] + _files("m-00000007")
    assert tg.train.checkpoint_meta(prefix) == {"epoch": 2, "position": [3, 4]}
    assert tg.train.checkpoint_meta(str(tmp_path)) == {"epoch": 2, "position": [3, 4]}
    with pytest.raises(TypeError, match="JSON-serializable"):
        saver.save(sess, str(tmp_path / "m"), meta={"bad": object()})


def test_checkpoint_state_file_round_trip_and_reader(tmp_path):
    odd = tmp_path / 'dir "é"'
    odd.mkdir()
    elsewhere = str(tmp_path / "elsewhere" / "m-1")
    tg.train.update_checkpoint_state(str(odd), str(odd / "m-2"), [elsewhere])
    text = (odd / "checkpoint").read_text(encoding="utf-8")
    assert text.splitlines()[0] == 'model_checkpoint_path: "m-2"' and f'"{elsewhere}"' in text
    state = tg.train.get_checkpoint_state(str(odd))
    assert state.model_checkpoint_path == str(odd / "m-2")
    assert state.all_model_checkpoint_paths == [elsewhere, str(odd / "m-2")]
    (odd / "checkpoint").write_text('model_checkpoint_path: "a\\"b\\303\\251"\n')  # protobuf's C escapes
    assert tg.train.get_checkpoint_state(str(odd)).model_checkpoint_path == str(odd / 'a"bé')
    with pytest.raises(RuntimeError, match="conflicts with path used for checkpoint state"):
        tg.train.update_checkpoint_state(str(odd), str(odd / "checkpoint"))

    graph, _, values = _model()
    with graph.as_default():
        prefix = tg.train.Saver().save(_session(graph), str(tmp_path / "m"))
    reader = tg.train.load_checkpoint(prefix)
    assert reader.has_tensor("dense/bias") and not reader.has_tensor("nope")
    assert reader.get_variable_to_shape_map() == {"dense/kernel": [3, 2], "dense/bias": [2], "global_step": []}
    np.testing.assert_array_equal(reader.get_tensor("dense/kernel:0"), values["dense/kernel"])
    with pytest.raises(tg.errors.NotFoundError, match="Key nope not found in checkpoint"):
        reader.get_tensor("nope")
    assert tg.train.checkpoint_exists(prefix) and not tg.train.checkpoint_exists(prefix + "x")
    assert len(tg.train.get_checkpoint_mtimes([prefix, prefix + "x"])) == 1
    tg.train.remove_checkpoint(prefix)
    assert not tg.train.checkpoint_exists(prefix)
    with pytest.raises(tg.errors.NotFoundError, match="Failed to find any matching files"):
        tg.train.load_checkpoint(prefix)


def test_reads_the_training_loops_checkpoints(tmp_path):
    from trainer.train import checkpoint
    path = checkpoint.write_npz(str(tmp_path / "ckpt-00000005.npz"), {"w": np.arange(3.0)}, {"rank": 0, "step": 5})
    assert zipfile.is_zipfile(path)
    assert tg.train.list_variables(path) == [("w", [3])]
    assert tg.train.checkpoint_meta(path) is None


def test_save_makes_the_last_missing_directory_level_as_tf1_does(tmp_path):
    with tg.Graph().as_default():
        v = tg.Variable(np.float32(3.0), name="v")
        saver = tg.train.Saver()
        with tg.Session() as sess:
            sess.run(v.initializer)
            prefix = saver.save(sess, str(tmp_path / "saved" / "model.ckpt"), global_step=1)
            assert tg.train.latest_checkpoint(str(tmp_path / "saved")) == prefix
            with pytest.raises(ValueError, match="Parent directory of .*deeper/still/model.ckpt doesn't exist"):
                saver.save(sess, str(tmp_path / "deeper" / "still" / "model.ckpt"))


def test_saves_from_two_threads_leave_a_state_file_naming_a_file_that_exists(tmp_path):
    """Supervisor's timer thread and the program's own save share one Saver (as the seed's program does)."""
    import threading
    import warnings
    with tg.Graph().as_default():
        v = tg.Variable(np.zeros(1000, np.float32), name="v")
        saver = tg.train.Saver(max_to_keep=1)
        with tg.Session() as sess:
            sess.run(v.initializer)

            errors = []

            def save(name):
                try:
                    for step in range(80):
                        saver.save(sess, str(tmp_path / name), global_step=step)
                except Exception as exc:  # noqa: BLE001 - reported below, with the other thread's
                    errors.append(exc)
            threads = [threading.Thread(target=save, args=(n,)) for n in ("model.ckpt", "sv.cpk")]
            with warnings.catch_warnings(record=True) as caught:  # unserialized saves prune each other's files
                warnings.simplefilter("always")
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
    assert not errors and not [str(w.message) for w in caught], (errors, caught)
    state = tg.train.get_checkpoint_state(str(tmp_path))
    assert os.path.exists(state.model_checkpoint_path + ".index"), (state, sorted(os.listdir(tmp_path)))
    assert len([f for f in os.listdir(tmp_path) if f.endswith(".index")]) == 1


def test_npz_checkpoints_still_restore_and_save_format_npz_writes_them(tmp_path):
    graph, variables, values = _model()
    with graph.as_default():
        saver = tg.train.Saver(save_format="npz")
        with pytest.raises(ValueError, match="save_format='h5'"):
            tg.train.Saver(save_format="h5")
    prefix = saver.save(_session(graph), str(tmp_path / "m"), global_step=1, meta={"position": 4})
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "m-1.meta", "m-1.npz"]
    assert tg.train.checkpoint_meta(prefix) == {"position": 4}
    graph2, variables2, _ = _model(seed=1)
    with graph2.as_default():
        restorer = tg.train.Saver()  # TF's format by default, and it reads the .npz too
    sess2 = _session(graph2, init=False)
    restorer.restore(sess2, tg.train.latest_checkpoint(str(tmp_path)))
    np.testing.assert_array_equal(sess2.run(variables2["dense/kernel"]), values["dense/kernel"])
    tg.train.remove_checkpoint(prefix)
    assert sorted(os.listdir(tmp_path)) == ["checkpoint"]


def test_the_programs_record_rides_in_the_bundle_and_damage_is_named(tmp_path):
    graph, variables, _ = _model()
    with graph.as_default():
        saver = tg.train.Saver()
    sess = _session(graph)
    first = saver.save(sess, str(tmp_path / "m"), global_step=1, meta={"data": [1, 2]})
    second = saver.save(sess, str(tmp_path / "m"), global_step=2)
    assert tg.train.checkpoint_meta(first) == {"data": [1, 2]} and tg.train.checkpoint_meta(second) is None
    assert [name for name, _ in tg.train.list_variables(first)] == ["dense/bias", "dense/kernel", "global_step"]
    data = tmp_path / "m-2.data-00000-of-00001"
    raw = bytearray(data.read_bytes())
    raw[5] ^= 0xFF
    data.write_bytes(bytes(raw))
    with pytest.raises(tg.errors.DataLossError, match=r"m-2\.data-00000-of-00001'?: tensor 'dense/bias' fails "
                                                      "its crc32c check"):
        saver.restore(sess, second)
    with pytest.warns(RuntimeWarning, match="m-2.*crc32c"):
        assert tg.train.latest_checkpoint(str(tmp_path)) == first


def test_checkpoints_iterator_yields_each_new_checkpoint_then_times_out(tmp_path):
    with tg.Graph().as_default():
        v = tg.Variable(1.0)
        saver = tg.train.Saver()
        with tg.Session() as sess:
            sess.run(v.initializer)
            first = saver.save(sess, str(tmp_path / "model"), global_step=1)
            found = tg.train.checkpoints_iterator(str(tmp_path), timeout=0)
            assert next(found) == first
            second = saver.save(sess, str(tmp_path / "model"), global_step=2)
            assert next(found) == second
            assert list(found) == []  # none newer within the timeout
            waits = []
            again = tg.train.checkpoints_iterator(str(tmp_path / "empty"), timeout=0,
                                                  timeout_fn=lambda: waits.append(1) or len(waits) == 2)
            assert list(again) == [] and len(waits) == 2  # timeout_fn said go on once, then stop
