"""Resume through the program's hooks: variables, data position and random streams continue exactly."""
import numpy as np
import pytest

import allreduce
import trainer as tg
from trainer.data import Pipeline
from trainer.program import CheckpointHook, RankSessionCreator, RestoreBroadcastHook, StopAtStepHook, find_checkpoint


def train(steps, checkpoint_dir=None, every=None):
    """Train a dropout model to `steps` (resuming from checkpoint_dir); the weights and the restored step."""
    rng = np.random.default_rng(0)
    data = (rng.standard_normal((40, 5)), rng.standard_normal((40, 1)))
    communicator = allreduce.create_communicator("ring")
    graph = tg.Graph()
    with graph.as_default():
        tg.set_random_seed(7)
        x, y = tg.placeholder(tg.float64, [None, 5]), tg.placeholder(tg.float64, [None, 1])
        w = tg.get_variable("w", [5, 1], tg.float64)
        hidden = tg.nn.dropout(x, rate=0.5, seed=3)
        loss = tg.reduce_mean(tg.square(tg.matmul(hidden, w) - y))
        train_op = tg.train.GradientDescentOptimizer(0.1).minimize(
            loss, global_step=tg.train.get_or_create_global_step())
        saver = tg.train.Saver(max_to_keep=2, save_format="npz")
        pipeline = Pipeline(data, batch_size=8, seed=1)
        found = find_checkpoint(checkpoint_dir, saver, tg.global_variables()) if checkpoint_dir else None
        restore = RestoreBroadcastHook(communicator, pipeline, found)
        hooks = [restore, StopAtStepHook(steps)]
        if checkpoint_dir:
            hooks.append(CheckpointHook(communicator, checkpoint_dir, saver, pipeline, {"model": "test"}, every))
        creator = RankSessionCreator(tg.train.Scaffold(saver=saver), "cpu", found)
        weights = []
        with tg.train.MonitoredSession(session_creator=creator, hooks=hooks) as sess:
            while not sess.should_stop():
                bx, by = pipeline.next_batch()
                sess.run(train_op, {x: bx, y: by})
            weights = sess.run_step_fn(lambda step_context: step_context.session.run(w))
    return weights, restore.restored_step


def test_resumed_dropout_run_equals_uninterrupted_run(tmp_path):
    whole, restored = train(10)
    assert restored is None
    train(4, str(tmp_path), every=4)
    resumed, restored = train(10, str(tmp_path))
    assert restored == 4
    np.testing.assert_array_equal(resumed, whole)


def test_a_finished_run_resumed_runs_no_step(tmp_path):
    done, _ = train(6, str(tmp_path), every=3)
    again, restored = train(6, str(tmp_path))
    assert restored == 6
    np.testing.assert_array_equal(again, done)
    assert tg.train.latest_checkpoint(str(tmp_path)).endswith("model.ckpt-6")


def test_a_checkpoint_without_the_programs_meta_restores_weights_and_warns(tmp_path):
    graph = tg.Graph()
    with graph.as_default():
        tg.get_variable("w", [5, 1], tg.float64, initializer=tg.ones_initializer())
        tg.train.get_or_create_global_step()
        with tg.Session(graph=graph) as sess:
            sess.run(tg.global_variables_initializer())
            tg.train.Saver().save(sess, str(tmp_path / "model.ckpt"), global_step=0)
    with pytest.warns(UserWarning, match="has no data position"):
        weights, restored = train(0, str(tmp_path))
    assert restored == 0 and np.array_equal(weights, np.ones((5, 1)))


def test_random_state_round_trip_continues_the_stream():
    x = tg.Graph()
    with x.as_default():
        r = tg.random_uniform([3], seed=1)
    a, b = tg.Session(x), tg.Session(x)
    a.run(r)
    b.set_random_state(a.random_state())
    np.testing.assert_array_equal(a.run(r), b.run(r))
