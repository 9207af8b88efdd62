"""CheckpointHook: TF1 names, every K steps and at the end, max_to_keep across runs, the program's meta."""
import json
import os

import numpy as np

import allreduce
import trainer as tg
from trainer.data import Pipeline
from trainer.program import CheckpointHook, RankSessionCreator, StopAtStepHook, find_checkpoint


def build():
    graph = tg.Graph()
    with graph.as_default():
        w = tg.get_variable("w", [3], tg.float64, initializer=tg.zeros_initializer())
        noise = tg.nn.dropout(tg.ones([3], tg.float64), rate=0.5, seed=1)
        train_op = tg.train.GradientDescentOptimizer(0.5).minimize(
            tg.reduce_sum(w * noise), global_step=tg.train.get_or_create_global_step())
    return graph, noise, train_op


def run(directory, steps, every=None, keep=2):
    """`steps` SGD steps of a dropout model on w, resuming from directory like `ringflow train`."""
    communicator = allreduce.create_communicator("ring")
    pipeline = Pipeline((np.arange(10.0),), batch_size=4, seed=2)
    graph, noise, train_op = build()
    with graph.as_default():
        saver = tg.train.Saver(max_to_keep=keep)
        found = find_checkpoint(directory, saver, tg.global_variables())
        hooks = [StopAtStepHook(steps),
                 CheckpointHook(communicator, directory, saver, pipeline, {"model": "m"}, every_steps=every)]
        with tg.train.MonitoredSession(RankSessionCreator(tg.train.Scaffold(saver=saver), "cpu", found),
                                       hooks) as sess:
            while not sess.should_stop():
                pipeline.next_batch()
                sess.run(train_op)


def names(directory):
    return sorted(os.listdir(directory))


def test_saves_every_k_steps_and_at_the_end_under_tf1_names(tmp_path):
    run(str(tmp_path), 7, every=3, keep=5)
    assert names(tmp_path) == ["checkpoint", "model.ckpt-3.npz", "model.ckpt-6.npz", "model.ckpt-7.npz"]
    state = tg.train.get_checkpoint_state(str(tmp_path))
    assert state.model_checkpoint_path == str(tmp_path / "model.ckpt-7")
    assert tg.train.load_variable(str(tmp_path), "global_step") == 7


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
    assert names(tmp_path) == ["checkpoint", "model.ckpt-6.npz", "model.ckpt-8.npz"]
    state = tg.train.get_checkpoint_state(str(tmp_path))
    assert [os.path.basename(p) for p in state.all_model_checkpoint_paths] == ["model.ckpt-6", "model.ckpt-8"]


def test_a_run_without_steps_saves_nothing(tmp_path):
    run(str(tmp_path), 3)
    before = {name: (tmp_path / name).read_bytes() for name in names(tmp_path)}
    run(str(tmp_path), 3)
    run(str(tmp_path), 2)  # already past its last step
    assert {name: (tmp_path / name).read_bytes() for name in names(tmp_path)} == before
