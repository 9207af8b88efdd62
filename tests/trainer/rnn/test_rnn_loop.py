"""dynamic_rnn and bidirectional_dynamic_rnn over a time axis unknown while building (TF1's while_loop): one
[None, None, depth] graph fed sequences of several lengths gives the values and gradients of the unrolled graphs
built for each length with the same variables, and the gradients of finite differences; a char-level model
over a [None, None] int placeholder trains."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.client.test_device_standin import strict_sessions
from tests.trainer.op_oracle import numerical_gradient

rnn_cell = tg.nn.rnn_cell
DEPTH, BATCH = 2, 3
CELLS = {
    "basic_rnn": lambda: rnn_cell.BasicRNNCell(4),
    "gru": lambda: rnn_cell.GRUCell(4),
    "basic_lstm": lambda: rnn_cell.BasicLSTMCell(4, forget_bias=0.5),  # one BlockLSTM op: the fused path
    "lstm_peep_proj": lambda: rnn_cell.LSTMCell(4, use_peepholes=True, num_proj=3, cell_clip=0.8),
    "multi": lambda: rnn_cell.MultiRNNCell([rnn_cell.LSTMCell(3, use_peepholes=True), rnn_cell.GRUCell(3)]),
}
LENGTHS = {5: [5, 2, 0], 3: [1, 3, 2]}  # per number of steps, one length per example


@pytest.fixture(autouse=True)
def graph():
    with tg.Graph().as_default() as g:
        yield g


def _flatten(structure):
    if isinstance(structure, tg.Tensor):
        return [structure]
    return [leaf for part in structure for leaf in _flatten(part)]


def _loss(outputs, state, seed):
    """A scalar that reads every output and every leaf of the final state (fixed random weights)."""
    weights = np.random.default_rng(seed).standard_normal(outputs.shape.as_list()[-1])
    return tg.add_n([tg.reduce_sum(tg.sin(outputs) * weights)]
                    + [tg.reduce_sum(tg.square(leaf)) for leaf in _flatten(state)])


def _rnn_graph(cell, inputs, lengths, time_major, seed=0, rnn=tg.nn.dynamic_rnn):
    outputs, state = rnn(cell, inputs, sequence_length=lengths, dtype=tg.float64, time_major=time_major)
    return outputs, state, _loss(outputs, state, seed)


def _compare(sess, dynamic, static, feeds_dynamic, feeds_static):
    got, want = sess.run(dynamic, feeds_dynamic), sess.run(static, feeds_static)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-10)
    return got


@pytest.mark.parametrize("time_major", [False, True], ids=["batch_major", "time_major"])
@pytest.mark.parametrize("with_lengths", [False, True], ids=["all_steps", "sequence_length"])
@pytest.mark.parametrize("kind", sorted(CELLS))
def test_unknown_time_matches_the_unrolled_graph_of_each_length(kind, with_lengths, time_major):
    cell = CELLS[kind]()
    lengths = tg.placeholder(tg.int32, [None]) if with_lengths else None
    dims = lambda steps: [steps, BATCH, DEPTH] if time_major else [BATCH, steps, DEPTH]  # noqa: E731
    inputs = tg.placeholder(tg.float64, dims(None))
    outputs, state, loss = _rnn_graph(cell, inputs, lengths, time_major)
    assert outputs.shape.as_list()[0 if time_major else 1] is None
    variables = tg.trainable_variables()
    dynamic = [outputs, loss, *_flatten(state), *tg.gradients(loss, [inputs] + variables)]
    statics = {}
    for steps in LENGTHS:
        fixed = tg.placeholder(tg.float64, dims(steps))
        o, s, l = _rnn_graph(cell, fixed, lengths, time_major)  # noqa: E741 - the same cell: the same variables
        statics[steps] = fixed, [o, l, *_flatten(s), *tg.gradients(l, [fixed] + variables)]
    assert tg.trainable_variables() == variables
    sess = tg.Session()
    sess.run(tg.global_variables_initializer())
    for steps, (fixed, static) in statics.items():
        x = np.random.default_rng(steps).standard_normal(dims(steps))
        feeds = {lengths: LENGTHS[steps]} if with_lengths else {}
        got = _compare(sess, dynamic, static, {inputs: x, **feeds}, {fixed: x, **feeds})
        assert got[0].shape == tuple(dims(steps)[:2]) + (got[0].shape[-1],)
        if with_lengths:  # past each example's length: zero outputs
            for b, n in enumerate(LENGTHS[steps]):
                np.testing.assert_array_equal(got[0][n:, b] if time_major else got[0][b, n:], 0.0)


def test_gradients_match_finite_differences():
    inputs = tg.placeholder(tg.float64, [None, None, DEPTH])
    lengths = tg.placeholder(tg.int32, [None])
    cell = CELLS["multi"]()
    outputs, state, loss = _rnn_graph(cell, inputs, lengths, False)
    variables = tg.trainable_variables()
    grads = tg.gradients(loss, [inputs] + variables)
    sess = tg.Session()
    sess.run(tg.global_variables_initializer())
    x, n = np.random.default_rng(1).standard_normal((2, 4, DEPTH)), [4, 2]
    got = sess.run(grads, {inputs: x, lengths: n})
    starts = sess.run(variables)

    def objective(values):
        for var, value in zip(variables, values[1:]):
            var.load(value, sess)
        return sess.run(loss, {inputs: values[0], lengths: n})
    for var, g, w in zip([inputs] + variables, got, numerical_gradient(objective, [x] + starts)):
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-8, err_msg=var.name)


def test_initial_state_and_an_empty_batch():
    cell = rnn_cell.LSTMCell(3, num_proj=2)
    init = rnn_cell.LSTMStateTuple(tg.placeholder(tg.float64, [None, 3]), tg.placeholder(tg.float64, [None, 2]))
    inputs, fixed = tg.placeholder(tg.float64, [None, None, DEPTH]), tg.placeholder(tg.float64, [2, 4, DEPTH])
    built = []
    for x in (inputs, fixed):
        outputs, state = tg.nn.dynamic_rnn(cell, x, initial_state=init)
        loss = _loss(outputs, state, 3)
        built.append([outputs, *_flatten(state), *tg.gradients(loss, [x, *init] + tg.trainable_variables())])
    sess = tg.Session()
    sess.run(tg.global_variables_initializer())
    rng = np.random.default_rng(2)
    x, c, h = rng.standard_normal((2, 4, DEPTH)), rng.standard_normal((2, 3)), rng.standard_normal((2, 2))
    _compare(sess, built[0], built[1], {inputs: x, init.c: c, init.h: h}, {fixed: x, init.c: c, init.h: h})
    empty = sess.run(built[0], {inputs: np.zeros((0, 4, DEPTH)), init.c: np.zeros((0, 3)), init.h: np.zeros((0, 2))})
    assert [a.shape for a in empty[:6]] == [(0, 4, 2), (0, 3), (0, 2), (0, 4, DEPTH), (0, 3), (0, 2)]


@pytest.mark.parametrize("kind", sorted(CELLS))
def test_an_empty_batch_with_sequence_length(kind):
    inputs, lengths = tg.placeholder(tg.float64, [None, None, DEPTH]), tg.placeholder(tg.int32, [None])
    outputs, state, loss = _rnn_graph(CELLS[kind](), inputs, lengths, False)
    grads = tg.gradients(loss, [inputs] + tg.trainable_variables())
    sess = tg.Session()
    sess.run(tg.global_variables_initializer())
    got = sess.run([outputs, loss] + grads, {inputs: np.zeros((0, 4, DEPTH)), lengths: np.zeros(0, np.int32)})
    assert got[0].shape[:2] == (0, 4) and got[1] == 0 and got[2].shape == (0, 4, DEPTH)
    assert all(not g.any() for g in got[3:])


@pytest.mark.parametrize("with_lengths", [False, True], ids=["all_steps", "sequence_length"])
def test_bidirectional_dynamic_rnn_over_unknown_time(with_lengths):
    cell_fw, cell_bw = rnn_cell.GRUCell(3), rnn_cell.BasicRNNCell(2)
    lengths = tg.placeholder(tg.int32, [None]) if with_lengths else None
    inputs, fixed = tg.placeholder(tg.float64, [None, None, DEPTH]), tg.placeholder(tg.float64, [BATCH, 5, DEPTH])
    built = []
    for x in (inputs, fixed):
        (out_fw, out_bw), state = tg.nn.bidirectional_dynamic_rnn(cell_fw, cell_bw, x, sequence_length=lengths,
                                                                  dtype=tg.float64)
        loss = _loss(out_fw, state, 4) + _loss(out_bw, [], 5)
        built.append([out_fw, out_bw, *_flatten(state), *tg.gradients(loss, [x] + tg.trainable_variables())])
    sess = tg.Session()
    sess.run(tg.global_variables_initializer())
    x = np.random.default_rng(3).standard_normal((BATCH, 5, DEPTH))
    feeds = {lengths: LENGTHS[5]} if with_lengths else {}
    got = _compare(sess, built[0], built[1], {inputs: x, **feeds}, {fixed: x, **feeds})
    if with_lengths:  # the backward direction's first output reads each whole sequence: nonzero where length > 0
        assert np.all(got[1][:2, 0] != 0) and np.all(got[1][2] == 0)


def test_char_level_model_over_unknown_lengths_trains():
    text = "hello ringflow, hello loops. "
    vocab = sorted(set(text))
    ids = np.array([vocab.index(ch) for ch in text * 4], dtype=np.int32)
    tg.set_random_seed(0)
    chars = tg.placeholder(tg.int32, [None, None])
    targets = tg.placeholder(tg.int32, [None, None])
    outputs, _ = tg.nn.dynamic_rnn(rnn_cell.GRUCell(24), tg.one_hot(chars, len(vocab)), dtype=tg.float32)
    logits = tg.layers.dense(tg.reshape(outputs, [-1, 24]), len(vocab))  # as char-rnn programs flatten time
    loss = tg.reduce_mean(tg.nn.sparse_softmax_cross_entropy_with_logits(labels=tg.reshape(targets, [-1]),
                                                                         logits=logits))
    train = tg.train.AdamOptimizer(0.03).minimize(loss)
    sess = tg.Session()
    sess.run(tg.global_variables_initializer())
    rng = np.random.default_rng(0)
    losses = []
    for step in range(80):
        steps = (7, 12)[step % 2]  # two lengths through one graph
        starts = rng.integers(0, len(ids) - steps - 1, size=8)
        x = np.stack([ids[s:s + steps] for s in starts])
        y = np.stack([ids[s + 1:s + steps + 1] for s in starts])
        losses.append(sess.run([loss, train], {chars: x, targets: y})[0])
    assert np.mean(losses[-10:]) < 0.4 * np.mean(losses[:10]), losses[::10]


def test_runs_on_the_strict_device_standin():
    x = np.random.default_rng(5).standard_normal((3, 4, DEPTH))

    def run():
        with tg.Graph().as_default():
            tg.set_random_seed(1)
            inputs = tg.placeholder(tg.float64, [None, None, DEPTH])
            fw = rnn_cell.DropoutWrapper(rnn_cell.LSTMCell(3, use_peepholes=True, num_proj=2), output_keep_prob=0.7)
            (o_fw, o_bw), _ = tg.nn.bidirectional_dynamic_rnn(fw, rnn_cell.BasicLSTMCell(2), inputs, [4, 1, 3],
                                                              dtype=tg.float64)
            fused, _ = tg.nn.dynamic_rnn(rnn_cell.BasicLSTMCell(2), inputs, [4, 0, 2], dtype=tg.float64, scope="fused")
            loss = tg.reduce_sum(o_fw * o_fw) + tg.reduce_sum(o_bw) + tg.reduce_sum(tg.sin(fused))
            grads = tg.gradients(loss, [inputs] + tg.trainable_variables())
            sess = tg.Session()
            sess.run(tg.global_variables_initializer())
            return [np.asarray(a) for a in sess.run([loss] + grads, {inputs: x})]

    host = run()
    with strict_sessions():
        device = run()
    for h, d in zip(host, device):
        np.testing.assert_allclose(d, h, rtol=1e-12, atol=1e-15)
