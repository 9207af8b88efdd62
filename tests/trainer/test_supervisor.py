"""The chief's checkpoints resume random streams too: a run with dropout stopped and resumed equals one run."""
import numpy as np

import allreduce
import trainer as tg
from trainer.data import Pipeline
from trainer.supervisor import Supervisor


def train(steps, checkpoint_dir, every=None):
    """Train a dropout model for `steps` steps (resuming from checkpoint_dir), return the final weights."""
    rng = np.random.default_rng(0)
    data = (rng.standard_normal((40, 5)), rng.standard_normal((40, 1)))
    graph = tg.Graph()
    with graph.as_default():
        tg.set_random_seed(7)
        x, y = tg.placeholder(tg.float64, [None, 5]), tg.placeholder(tg.float64, [None, 1])
        w = tg.get_variable("w", [5, 1], tg.float64)
        hidden = tg.nn.dropout(x, rate=0.5, seed=3)
        loss = tg.reduce_mean(tg.square(tg.matmul(hidden, w) - y))
        step = tg.train.get_or_create_global_step()
        train_op = tg.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step)
        init = tg.global_variables_initializer()
    session = tg.Session(graph)
    pipeline = Pipeline(data, batch_size=8, seed=1)
    sv = Supervisor(session, allreduce.create_communicator("ring"), checkpoint_dir, every_steps=every)
    sv.prepare(init, pipeline)
    for k in range(int(session.run(step)) + 1, steps + 1):
        bx, by = pipeline.next_batch()
        session.run(train_op, {x: bx, y: by})
        sv.after_step(k, pipeline)
    return session.run(w)


def test_resumed_dropout_run_equals_uninterrupted_run(tmp_path):
    whole = train(10, None)
    train(4, str(tmp_path), every=4)
    resumed = train(10, str(tmp_path))
    np.testing.assert_array_equal(resumed, whole)


def test_random_state_round_trip_continues_the_stream():
    x = tg.Graph()
    with x.as_default():
        r = tg.random_uniform([3], seed=1)
    a, b = tg.Session(x), tg.Session(x)
    a.run(r)
    b.set_random_state(a.random_state())
    np.testing.assert_array_equal(a.run(r), b.run(r))
