"""tg.nn.raw_rnn: TF1's documented loop_fn over an unknown number of steps gives dynamic_rnn's outputs, state and
gradients with the same cell; loop_state, an emit structure, the emitted outputs' TensorArray methods, errors."""
import numpy as np
import pytest

import trainer as tg

rnn_cell = tg.nn.rnn_cell


@pytest.fixture(autouse=True)
def graph():
    with tg.Graph().as_default() as g:
        yield g


def _reader(inputs, lengths, cell, emit=None):
    """TF1's raw_rnn example loop_fn, reading time-major inputs with gather where TF1 reads a TensorArray."""
    batch, steps = tg.shape(inputs)[1], tg.shape(inputs)[0]

    def loop_fn(time, output, state, loop_state):
        done = time >= lengths
        next_input = tg.cond(tg.reduce_all(done), lambda: tg.zeros([batch, 2], tg.float64),
                             lambda: tg.gather(inputs, tg.minimum(time, steps - 1)))
        if output is None:
            return done, next_input, cell.zero_state(batch, tg.float64), emit, None
        return done, next_input, state, output if emit is None else emit(output), None
    return loop_fn


def test_raw_rnn_matches_dynamic_rnn_with_the_same_cell():
    inputs, lengths = tg.placeholder(tg.float64, [None, None, 2]), tg.placeholder(tg.int32, [None])
    cell = rnn_cell.BasicRNNCell(3)
    emitted, state, loop_state = tg.nn.raw_rnn(cell, _reader(inputs, lengths, cell))
    outputs = emitted.stack()
    assert loop_state is None and outputs.shape.as_list() == [None, None, 3]
    d_outputs, d_state = tg.nn.dynamic_rnn(cell, inputs, sequence_length=lengths, dtype=tg.float64, time_major=True)
    assert len(tg.trainable_variables()) == 2  # one cell, one set of variables
    losses = [tg.reduce_sum(tg.sin(o)) + tg.reduce_sum(s * s) for o, s in ((outputs, state), (d_outputs, d_state))]
    grads = [tg.gradients(loss, [inputs] + tg.trainable_variables()) for loss in losses]
    sess = tg.Session()
    sess.run(tg.global_variables_initializer())
    x = np.random.default_rng(0).standard_normal((5, 3, 2))
    for n in ([4, 2, 3], [1, 1, 1]):
        got = sess.run([outputs, state, emitted.size(), emitted.read(0)] + grads[0], {inputs: x, lengths: n})
        want = sess.run([d_outputs, d_state] + grads[1], {inputs: x, lengths: n})
        assert got[2] == max(n)  # the loop stops once every example has finished
        np.testing.assert_allclose(got[0], want[0][:max(n)], rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(got[3], want[0][0], rtol=1e-12, atol=1e-15)
        for g, w in zip(got[1:2] + got[4:], want[1:]):
            np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)


def test_loop_state_and_emit_structure():
    inputs, lengths = tg.placeholder(tg.float64, [None, None, 2]), tg.placeholder(tg.int32, [None])
    cell = rnn_cell.GRUCell(2)
    reader = _reader(inputs, lengths, cell)

    def loop_fn(time, output, state, loop_state):
        done, next_input, next_state, _, _ = reader(time, output, state, loop_state)
        if output is None:  # the emit structure: one scalar per example; the loop state counts steps
            return done, next_input, next_state, tg.zeros([tg.shape(inputs)[1]], tg.float64), tg.constant(0)
        return done, next_input, next_state, tg.reduce_sum(output, 1), loop_state + 1
    emitted, _, steps = tg.nn.raw_rnn(cell, loop_fn)
    sums = emitted.stack()
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        got, count = sess.run([sums, steps], {inputs: np.ones((4, 2, 2)), lengths: [3, 1]})
    assert count == 3 and got.shape == (3, 2)
    assert np.all(got[1:, 1] == 0) and np.all(got[:, 0] != 0)  # zeros once an example has finished


def test_errors_name_the_culprit():
    cell = rnn_cell.GRUCell(2)
    x = tg.zeros([3, 2])
    with pytest.raises(ValueError, match="must return the initial cell state"):
        tg.nn.raw_rnn(cell, lambda t, o, s, ls: (tg.constant([False]), x, None, None, None))
    with pytest.raises(TypeError, match="finished must be a bool vector"):
        tg.nn.raw_rnn(cell, lambda t, o, s, ls: (tg.constant([0]), x, cell.zero_state(3, tg.float32), None, None))
    with pytest.raises(TypeError, match="loop_fn must be a callable"):
        tg.nn.raw_rnn(cell, None)
