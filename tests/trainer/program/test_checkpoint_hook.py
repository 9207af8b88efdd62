"""CheckpointHook: TF1 names, every K steps and at the end, max_to_keep across runs, the program's meta."""
import errno
import json
import os
import time

import numpy as np
import pytest

import allreduce
import trainer as tg
from trainer.data import Pipeline
from trainer.program import CheckpointHook, RankSessionCreator, StopAtStepHook, find_checkpoint
from trainer.train.meta_graph import read_meta_graph_file


def build():
    graph = tg.Graph()
    with graph.as_default():
        w = tg.get_variable("w", [3], tg.float64, initializer=tg.zeros_initializer())
        noise = tg.nn.dropout(tg.ones([3], tg.float64), rate=0.5, seed=1)
        train_op = tg.train.GradientDescentOptimizer(0.5).minimize(
            tg.reduce_sum(w * noise), global_step=tg.train.get_or_create_global_step())
    return graph, noise, train_op


def run(directory, steps, every=None, keep=2, every_secs=None, clock=None):
    """`steps` SGD steps of a dropout model on w, resuming from directory like `ringflow train`."""
    communicator = allreduce.create_communicator("ring")
    pipeline = Pipeline((np.arange(10.0),), batch_size=4, seed=2)
    graph, noise, train_op = build()
    with graph.as_default():
        saver = tg.train.Saver(max_to_keep=keep)
        found = find_checkpoint(directory, saver, tg.global_variables())
        hooks = [StopAtStepHook(steps),
                 CheckpointHook(communicator, directory, saver, pipeline, {"model": "m"}, every_steps=every,
                                every_secs=every_secs)]
        with tg.train.MonitoredSession(RankSessionCreator(tg.train.Scaffold(saver=saver), "cpu", found),
                                       hooks) as sess:
            while not sess.should_stop():
                pipeline.next_batch()
                if clock is not None:
                    clock.tick()
                sess.run(train_op)


def names(directory):
    return sorted(os.listdir(directory))


def tf_files(*steps):
    """The state file and TF's files of the checkpoints model.ckpt-<step> (the graph in .meta, as TF's Saver
    writes it), sorted."""
    return sorted(["checkpoint"] + [f"model.ckpt-{step}{ext}" for step in steps
                                    for ext in (".index", ".data-00000-of-00001", ".meta")])


def test_saves_every_k_steps_and_at_the_end_under_tf1_names(tmp_path):
    run(str(tmp_path), 7, every=3, keep=5)
    assert names(tmp_path) == tf_files(3, 6, 7)
    state = tg.train.get_checkpoint_state(str(tmp_path))
    assert state.model_checkpoint_path == str(tmp_path / "model.ckpt-7")
    assert tg.train.load_variable(str(tmp_path), "global_step") == 7


def test_each_checkpoint_has_the_graph_beside_it_as_tfs_saver_writes_it(tmp_path):
    run(str(tmp_path), 3, every=3)
    meta = read_meta_graph_file(str(tmp_path / "model.ckpt-3.meta"))
    assert meta.saver_def.restore_op_name == "save/restore_all"
    assert {"w", "global_step", "save/SaveV2"} <= {node.name for node in meta.graph_def.node}


def test_meta_holds_the_data_position_and_every_ranks_random_streams(tmp_path):
    run(str(tmp_path), 5)
    meta = tg.train.checkpoint_meta(str(tmp_path / "model.ckpt-5"))
    assert meta["model"] == "m"
    assert meta["data"]["position"] == 5 * 4 and meta["data"]["num_examples"] == 10
    graph, noise, _ = build()
    with tg.Session(graph=graph) as oracle:  # the dropout stream after 5 draws
        for _ in range(5):
            oracle.run(noise)
        expected = json.loads(json.dumps(oracle.random_state()))
    assert meta["random"] == [expected]  # one rank's streams


def test_max_to_keep_counts_the_previous_runs_checkpoints(tmp_path):
    run(str(tmp_path), 4, every=2)
    run(str(tmp_path), 8, every=2)
    assert names(tmp_path) == tf_files(6, 8)
    state = tg.train.get_checkpoint_state(str(tmp_path))
    assert [os.path.basename(p) for p in state.all_model_checkpoint_paths] == ["model.ckpt-6", "model.ckpt-8"]


def test_a_run_without_steps_saves_nothing(tmp_path):
    run(str(tmp_path), 3)
    before = {name: (tmp_path / name).read_bytes() for name in names(tmp_path)}
    run(str(tmp_path), 3)
    run(str(tmp_path), 2)  # already past its last step
    assert {name: (tmp_path / name).read_bytes() for name in names(tmp_path)} == before


def test_the_previous_runs_checkpoints_count_even_without_a_state_file(tmp_path):
    run(str(tmp_path), 4, every=1, keep=3)
    (tmp_path / "checkpoint").unlink()
    with pytest.warns(RuntimeWarning, match="is missing: resuming from the newest intact checkpoint file"):
        run(str(tmp_path), 6, every=1, keep=3)
    assert names(tmp_path) == tf_files(4, 5, 6)


class Clock:
    """time for the hook and its vote: 10 s pass with every step."""

    strftime, localtime = staticmethod(time.strftime), staticmethod(time.localtime)

    def __init__(self):
        self.now = 0.0

    def tick(self):
        self.now += 10.0

    def monotonic(self):
        return self.now

    perf_counter = monotonic

    def time(self):
        return 1e9 + self.now


def test_timed_checkpoints_follow_rank_0s_clock_and_restart_it_with_each_save(tmp_path, monkeypatch):
    from trainer.program import step_vote
    from trainer.program.hooks import checkpoint_hook
    clock = Clock()
    monkeypatch.setattr(checkpoint_hook, "time", clock)
    monkeypatch.setattr(step_vote, "time", clock)
    run(str(tmp_path), 12, every=5, keep=10, every_secs=25, clock=clock)
    # due 25 s after the start or the last save (at 10 s a step: step 3, 8), and every 5 steps (5, 10), and the end
    assert names(tmp_path) == tf_files(3, 5, 8, 10, 12)


class FullDisk:
    def __init__(self, real):
        self.real, self.calls = real, 0

    def __call__(self, prefix, arrays, shards=None):
        self.calls += 1
        if self.calls > 1:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), prefix + ".data-00000-of-00001.tmp-4242")
        return self.real(prefix, arrays, shards)


def test_a_failed_save_names_the_flag_file_step_and_the_checkpoint_kept(tmp_path, monkeypatch):
    from trainer.train import checkpoint
    monkeypatch.setattr(checkpoint, "write_bundle", FullDisk(checkpoint.write_bundle))
    with pytest.raises(OSError) as err:
        run(str(tmp_path), 6, every=2, keep=5)
    assert str(err.value) == (
        f"--checkpoint-dir '{tmp_path}': writing the checkpoint of step 4 to "
        f"'{tmp_path / 'model.ckpt-4.data-00000-of-00001'}' failed (No space left on device); the newest intact "
        f"checkpoint, '{tmp_path / 'model.ckpt-2'}', is kept: free space (or give --checkpoint-dir on another file "
        "system) and run the same command again to resume from it")
    assert err.value.errno == errno.ENOSPC
    assert names(tmp_path) == tf_files(2)
