"""A plan's steps that only the fed arrays' shapes decide (an RNN's zero state) run once per feed shape: the values
of every run as without it, each run's arrays its own, errors raised every time, constant_folding = OFF turning it
off."""
import numpy as np
import pytest

import trainer as tg
from trainer.client.config import RewriterConfig

OFF = tg.ConfigProto(graph_options=tg.GraphOptions(
    rewrite_options=RewriterConfig(constant_folding=RewriterConfig.OFF)))
BATCHES = (5, 2, 5, 5, 2, 2, 3)


def _zero_states():
    """A fed batch, the zero states dynamic_rnn and Keras' LSTM make from it, and a value that reads them."""
    x = tg.placeholder(tg.float32, [None, 3], name="x")
    state = tg.fill(tg.stack([tg.shape(x)[0], 4]), 0.0)  # BasicLSTMCell.zero_state
    keras = tg.tile(tg.expand_dims(tg.reduce_sum(tg.zeros_like(x), axis=1), 1), [1, 4])  # Keras' initial state
    y = tg.matmul(x, tg.ones([3, 4])) + state + keras + tg.zeros(tg.shape(x)[:1])[:, None]
    y += tg.fill(tg.stack([tg.shape(x)[0], 4]), 1.0) + x[:, :1]  # an add may take the ones' buffer in place
    return x, state, keras, y


@pytest.mark.parametrize("config", [None, OFF], ids=["folding", "off"])
def test_a_zero_state_is_right_for_every_batch_and_each_run_gets_its_own(config):
    with tg.Graph().as_default():
        x, state, keras, y = _zero_states()
        with tg.Session(config=config) as sess:
            for batch in BATCHES:
                values = np.arange(batch * 3, dtype=np.float32).reshape(batch, 3)
                s, k, v = sess.run([state, keras, y], {x: values})
                for zeros in (s, k):
                    assert zeros.shape == (batch, 4) and zeros.dtype == np.float32 and not zeros.any()
                    zeros += 1  # the caller's array: the next run must not see it
                np.testing.assert_array_equal(v, values.sum(axis=1, keepdims=True) + 1 + values[:, :1] + np.zeros((1, 4)))


def test_runs_with_a_feed_shape_seen_before_skip_the_folded_steps_and_off_keeps_them():
    with tg.Graph().as_default():
        x, state, keras, y = _zero_states()
        folded = tg.Session().plan([y], [x])
        kept = tg.Session(config=OFF).plan([y], [x])
    assert kept.folding is None
    assert {op.type for op in folded.folding.folded} >= {"Shape", "StridedSlice", "Pack", "Fill", "ZerosLike", "Sum",
                                                        "ExpandDims", "Tile", "Zeros"}
    assert len(folded.folding.steps) < len(folded.steps) - 6
    for batch in BATCHES:
        values = np.ones((batch, 3), np.float32)
        a, = folded.execute([values])
        b, = kept.execute([values])
        assert a.tobytes() == b.tobytes()


def test_nothing_fed_or_random_or_variable_folds():
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [None, 3], name="x")
        v = tg.Variable(np.ones(3, np.float32))
        n = tg.placeholder_with_default(tg.constant(2), [])
        shaped = [tg.fill(tg.stack([tg.shape(x)[0], n]), 1.0),  # a fed value, not only a shape
                  tg.fill(tg.shape(v), 2.0) + x,  # a variable's shape: its value may be assigned another
                  tg.random_uniform(tg.stack([tg.shape(x)[0], 2]))]
        with tg.Session() as sess:
            sess.run(v.initializer)
            plan = sess.plan(shaped, [x, n])
            first = sess.run(shaped, {x: np.zeros((2, 3), np.float32), n: 3})
            second = sess.run(shaped, {x: np.zeros((2, 3), np.float32), n: 1})
            sess.run(v.assign(np.full(3, 5.0, np.float32)))
            third = sess.run(shaped, {x: np.zeros((2, 3), np.float32), n: 1})
    # the batch and the random op's shape [batch, 2] alone
    assert sorted(op.name for op in plan.folding.folded) == ["Shape", "Shape_2", "stack_1", "strided_slice",
                                                           "strided_slice_1"]
    assert first[0].shape == (2, 3) and second[0].shape == (2, 1)
    assert (second[1] == 2).all() and (third[1] == 2).all()
    assert not np.array_equal(first[2], second[2]) and not np.array_equal(second[2], third[2])


def test_a_folded_step_that_fails_fails_on_every_run():
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [None], name="x")
        y = tg.fill(tg.stack([tg.shape(x)[0] - 3, 2]), 1.0)  # negative for batches under 3
        with tg.Session() as sess:
            for _ in range(2):
                with pytest.raises(tg.errors.InvalidArgumentError, match="Fill"):
                    sess.run(y, {x: np.zeros(2, np.float32)})
            assert sess.run(y, {x: np.zeros(4, np.float32)}).shape == (1, 2)
