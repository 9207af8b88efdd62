"""DropoutWrapper around a cell that runs whole sequences (the LSTM cells' BlockLSTM): dynamic_rnn and static_rnn run
the cell as one op between the dropout of the whole input and of the whole output sequence. Against TF1's masks
(recorded by fixtures/record_dropout_wrapper_masks.py: static_rnn's to the bit, dynamic_rnn's new at each step), the
stepwise graph (variational masks, which both draw alike), and the plain LSTM's outputs and gradients under the mask
a run drew."""
import json
import os

import numpy as np
import pytest

import trainer as tg

rnn_cell = tg.nn.rnn_cell
RNG = np.random.default_rng(23)
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "dropout_wrapper_masks.json")) as f:
    TF_MASKS = json.load(f)


def _run(rnn, cell, inputs, **kwargs):
    """Batch-major outputs and the final state of `rnn` (dynamic or static) over batch-major inputs."""
    if rnn == "static":
        outputs, state = tg.nn.static_rnn(cell, tg.unstack(inputs, axis=1), dtype=inputs.dtype, **kwargs)
        return tg.stack(outputs, axis=1), state
    return tg.nn.dynamic_rnn(cell, inputs, dtype=inputs.dtype, **kwargs)


def _session(graph):
    sess = tg.Session(graph=graph)
    sess.run(tg.global_variables_initializer())
    return sess


def _steps_alike(mask):
    """Whether every step of a [batch, time, units] mask is its first step's."""
    return all(np.array_equal(mask[:, t], mask[:, 0]) for t in range(mask.shape[1]))


@pytest.mark.parametrize("name", sorted(TF_MASKS["cases"]))
def test_masks_are_the_ones_tf1_draws(name):
    case, x = TF_MASKS["cases"][name], np.array(TF_MASKS["x"], np.float32)
    with tg.Graph().as_default() as graph:
        if case["graph_seed"] is not None:
            tg.set_random_seed(case["graph_seed"])
        inputs = tg.placeholder(tg.float32, x.shape)
        out, _ = _run(case["rnn"], rnn_cell.DropoutWrapper(rnn_cell.BasicLSTMCell(8), **case["wrapper"]), inputs)
        sess = _session(graph)
        got = np.array([sess.run(out, {inputs: x}) != 0 for _ in range(2)])
    types = [op.type for op in graph.get_operations()]
    assert types.count("BlockLSTM") == 1 and "LSTMBlockCell" not in types
    want = np.array(case["masks"], bool)
    assert not np.array_equal(got[0], got[1])  # each run draws anew
    if case["rnn"] == "static":  # an op per step, all of one seed: one mask, TF's to the bit
        assert _steps_alike(want[0])
        np.testing.assert_array_equal(got, want)
    else:  # one op in TF's loop draws a new mask at each step (in the order its scheduler runs the steps)
        assert not _steps_alike(want[0]) and not _steps_alike(got[0]) and not _steps_alike(got[1])
        keep = case["wrapper"]["output_keep_prob"]
        assert abs(got.mean() - keep) < 0.1 and abs(want.mean() - keep) < 0.1


@pytest.mark.parametrize("rnn", ["dynamic", "static"])
def test_outputs_and_gradients_are_the_lstms_under_the_drawn_mask(rnn):
    x, r = RNG.standard_normal((3, 5, 2)), RNG.standard_normal((3, 5, 4))
    with tg.Graph().as_default() as graph:
        inputs = tg.placeholder(tg.float64, x.shape)
        keep = tg.placeholder_with_default(tg.constant(0.5, tg.float64), [])
        weights = tg.placeholder(tg.float64, r.shape)
        out, state = _run(rnn, rnn_cell.DropoutWrapper(rnn_cell.BasicLSTMCell(4), output_keep_prob=keep), inputs,
                          sequence_length=[5, 3, 0])
        loss = tg.reduce_sum(out * weights) + tg.reduce_sum(tg.sin(state.c)) + tg.reduce_sum(state.h)
        grads = tg.gradients(loss, [inputs] + tg.trainable_variables())
        sess = _session(graph)
        dropped, got_state, got = sess.run([out, state, grads], {inputs: x, weights: r})
        mask = dropped != 0
        # the same LSTM with nothing dropped, its outputs' gradient masked and scaled as dropout's
        plain, want_state, want = sess.run([out, state, grads], {inputs: x, weights: r * mask / 0.5, keep: 1.0})
    assert "BlockLSTM" in [op.type for op in graph.get_operations()]
    assert 0 < mask[0].sum() < mask[0].size and not mask[1, 3:].any() and not mask[2].any()  # zeros past each length
    assert not _steps_alike(mask[:1])  # no seed: static_rnn's ops each draw their own mask, as dynamic_rnn's loop
    np.testing.assert_allclose(dropped, plain * mask / 0.5, rtol=1e-12, atol=1e-15)
    for g, w in zip(list(got_state) + got, list(want_state) + want):
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("rnn", ["dynamic", "static"])
def test_variational_masks_give_the_stepwise_graphs_values(rnn, monkeypatch):
    """One mask per feature, shared by the steps and the batch: drawn alike by both graphs, so the same values."""
    x, r = RNG.standard_normal((3, 5, 2)), RNG.standard_normal((3, 5, 4))
    values = {}

    def run(fused):
        with tg.Graph().as_default() as graph:
            tg.set_random_seed(5)
            inputs = tg.placeholder(tg.float64, x.shape)
            cell = rnn_cell.DropoutWrapper(rnn_cell.BasicLSTMCell(4), input_keep_prob=0.7, output_keep_prob=0.6,
                                           variational_recurrent=True, input_size=2, dtype=tg.float64, seed=9)
            out, state = _run(rnn, cell, inputs)
            loss = tg.reduce_sum(out * r) + tg.reduce_sum(tg.sin(state.c))
            grads = tg.gradients(loss, [inputs] + tg.trainable_variables())
            sess = _session(graph)
            for v in tg.trainable_variables():  # the same weights in both graphs
                values.setdefault(v.op.name, sess.run(v))
                v.load(values[v.op.name], sess)
            types = [op.type for op in graph.get_operations()]
            return sess.run([out, state, grads], {inputs: x}), types

    (fused, fused_types) = run(True)
    monkeypatch.setattr(rnn_cell.DropoutWrapper, "runs_sequences", property(lambda self: False))
    (stepwise, stepwise_types) = run(False)
    assert "BlockLSTM" in fused_types and "BlockLSTM" not in stepwise_types and "LSTMBlockCell" in stepwise_types
    out = fused[0]
    assert (out == 0).any() and np.array_equal(out == 0, np.broadcast_to((out == 0)[:1, :1], out.shape))
    for got, want in zip(_leaves(fused), _leaves(stepwise)):
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def _leaves(value):
    if isinstance(value, (list, tuple)):
        return [leaf for item in value for leaf in _leaves(item)]
    return [value]


@pytest.mark.parametrize("make,fused", [
    (lambda: rnn_cell.DropoutWrapper(rnn_cell.BasicLSTMCell(4), output_keep_prob=0.5, input_keep_prob=0.8), 1),
    (lambda: rnn_cell.MultiRNNCell([rnn_cell.DropoutWrapper(rnn_cell.LSTMCell(4), output_keep_prob=0.5)
                                    for _ in range(2)]), 2),
    (lambda: rnn_cell.DropoutWrapper(rnn_cell.BasicLSTMCell(4), state_keep_prob=0.5), 0),
    (lambda: rnn_cell.DropoutWrapper(rnn_cell.BasicLSTMCell(4), state_keep_prob=tg.placeholder_with_default(
        tg.constant(1.0), [])), 0),
    (lambda: rnn_cell.DropoutWrapper(rnn_cell.GRUCell(4), output_keep_prob=0.5), 0),
], ids=["lstm", "multi_lstm", "state_dropped", "state_keep_prob_tensor", "gru"])
def test_wrappers_run_whole_sequences_only_where_no_state_is_dropped(make, fused):
    with tg.Graph().as_default() as graph:
        out, _ = tg.nn.dynamic_rnn(make(), tg.constant(RNG.standard_normal((3, 5, 2)), tg.float32), dtype=tg.float32)
        tg.gradients(tg.reduce_sum(out), tg.trainable_variables())
        sess = _session(graph)
        assert sess.run(out).shape == (3, 5, 4)
    types = [op.type for op in graph.get_operations()]
    assert types.count("BlockLSTM") == types.count("BlockLSTMGrad") == fused
    assert fused or any(t in types for t in ("LSTMBlockCell", "GRUBlockCell"))


@pytest.mark.parametrize("make", [
    lambda: rnn_cell.DropoutWrapper(rnn_cell.GRUCell(4), output_keep_prob=0.5, seed=3),
    lambda: rnn_cell.DropoutWrapper(rnn_cell.BasicLSTMCell(4), output_keep_prob=0.5, state_keep_prob=0.9, seed=3),
], ids=["gru", "lstm_state_dropped"])
def test_stepwise_seeded_masks_are_new_each_step_in_dynamic_rnn_and_shared_in_static_rnn(make):
    """TF1's dynamic_rnn runs one dropout op in its loop, which draws anew at each step (its first draw at the first
    step), static_rnn one op per step, all of the wrapper's seed: the same mask at every step."""
    x = RNG.standard_normal((3, 5, 2)).astype(np.float32)
    masks = {}
    for rnn in ("dynamic", "static"):
        with tg.Graph().as_default() as graph:
            inputs = tg.placeholder(tg.float32, x.shape)
            out, _ = _run(rnn, make(), inputs)
            masks[rnn] = _session(graph).run(out, {inputs: x}) != 0
        assert "BlockLSTM" not in [op.type for op in graph.get_operations()]
    assert _steps_alike(masks["static"]) and not _steps_alike(masks["dynamic"])
    np.testing.assert_array_equal(masks["dynamic"][:, 0], masks["static"][:, 0])
