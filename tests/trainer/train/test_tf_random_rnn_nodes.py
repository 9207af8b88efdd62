"""Random sources and the fused LSTM ops are written in TF's forms: TF's standard draw scaled and shifted by a Mul
and an AddV2, with the op's seeds; LSTMBlockCell, its gradient and BlockLSTM with TF's zero peephole weights. Read
as TensorFlow reads them (the graph less ringflow's "_" attrs), they compute what ringflow's ops compute; read by
ringflow, they rebuild ringflow's ops. TensorFlow trains the Keras GRU (an orthogonal kernel: RandomNormal) and
LSTMCell graphs on to ringflow's losses (scripts/record_tf_files.py check-models)."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.train.tf_view import run_imported, tf_view


RANDOM = {
    "normal": lambda shape: tg.random_normal(shape, mean=2.0, stddev=3.0, seed=5),
    "truncated": lambda shape: tg.truncated_normal(shape, mean=-1.0, stddev=0.5, seed=6),
    "uniform": lambda shape: tg.random_uniform(shape, minval=-2.0, maxval=4.0, seed=7),
    "integers": lambda shape: tg.random_uniform(shape, minval=3, maxval=9, dtype=tg.int64, seed=8),
}
TF_LSTM_INPUTS = {"LSTMBlockCell": 8, "LSTMBlockCellGrad": 16, "BlockLSTM": 9, "BlockLSTMGrad": 18}
TF_DRAWS = {"normal": "RandomStandardNormal", "truncated": "TruncatedNormal", "uniform": "RandomUniform",
            "integers": "RandomUniformInt"}


@pytest.mark.parametrize("kind", sorted(RANDOM))
@pytest.mark.parametrize("given", ["static", "tensor"])
def test_random_sources_are_tfs_standard_draws_scaled_and_read_back_alike(kind, given):
    with tg.Graph().as_default() as g:
        tg.set_random_seed(1)
        n = tg.placeholder(tg.int32, [], name="n")
        draw = tg.identity(RANDOM[kind]([3, 4] if given == "static" else tg.stack([n, 4])), name="draw")
        with tg.Session() as sess:
            want = sess.run(draw, {n: 3})
        graph_def = g.as_graph_def()
    assert TF_DRAWS[kind] in {node.op for node in graph_def.node}
    assert not {"RandomNormal"} & {node.op for node in graph_def.node}
    draws = [node for node in graph_def.node if node.op == TF_DRAWS[kind]]
    assert draws and not any({"shape", "mean", "stddev", "minval", "maxval"} & set(n.attr) for n in draws)  # TF's
    for read in (graph_def, tf_view(graph_def)):
        got = run_imported(read, "draw:0", {"n:0": 3})
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def _lstm(sequence):
    """(frozen GraphDef, loss and x's gradient) of an LSTMCell's step (LSTMBlockCell) or dynamic_rnn (BlockLSTM)."""
    rng = np.random.RandomState(2)
    x, y = rng.randn(3, 4, 2).astype(np.float32), rng.randn(3, 5).astype(np.float32)
    with tg.Graph().as_default() as g:
        tg.set_random_seed(4)
        inputs = tg.placeholder(tg.float32, [None, 4, 2], name="x")
        cell = tg.nn.rnn_cell.LSTMCell(5)
        if sequence:
            out = tg.nn.dynamic_rnn(cell, inputs, dtype=tg.float32)[0][:, -1]
        else:
            out = cell(inputs[:, 0], cell.zero_state(3, tg.float32))[0]
        loss = tg.reduce_mean(tg.square(out - y), name="loss")
        grads = tg.gradients(loss, [inputs] + tg.trainable_variables())
        tg.identity(grads[0], name="grads")
        tg.add_n([tg.reduce_sum(g) for g in grads[1:]], name="weights")
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            want = sess.run(["loss:0", "grads:0", "weights:0"], {inputs: x})
            frozen = tg.graph_util.convert_variables_to_constants(sess, g.as_graph_def(), ["loss", "grads",
                                                                                         "weights"])
    return frozen, x, want


def _data_inputs(node):
    return [i for i in node.input if not i.startswith("^")]


@pytest.mark.parametrize("sequence", [False, True])
def test_the_fused_lstm_ops_take_tfs_zero_peepholes_and_compute_alike(sequence):
    frozen, x, want = _lstm(sequence)
    fused = {n.op: n for n in frozen.node if n.op in TF_LSTM_INPUTS}
    assert set(fused) == ({"BlockLSTM", "BlockLSTMGrad"} if sequence else {"LSTMBlockCell", "LSTMBlockCellGrad"})
    for op_type, node in fused.items():
        assert len(_data_inputs(node)) == TF_LSTM_INPUTS[op_type]
    # TensorFlow's view computes alike where ringflow reads TF's ops (BlockLSTMGrad's outputs it reads in its own)
    for read in (frozen, tf_view(frozen)) if not sequence else (frozen,):
        got = run_imported(read, ["loss:0", "grads:0", "weights:0"], {"x:0": x})
        np.testing.assert_allclose(got[0], want[0], rtol=1e-6)
        np.testing.assert_allclose(got[1], want[1], rtol=1e-5, atol=1e-7)
        np.testing.assert_allclose(got[2], want[2], rtol=1e-5)


def test_block_lstm_grads_consumers_read_tfs_outputs():
    frozen, _, _ = _lstm(True)
    grad = next(n.name for n in frozen.node if n.op == "BlockLSTMGrad")
    readers = {i for n in frozen.node for i in _data_inputs(n) if i.partition(":")[0] == grad}
    by_name = {n.name: n for n in frozen.node}
    # each reader is an Identity of TF's output that stands for ringflow's, x's gradient TF's output 0
    assert all(by_name[r.partition(":")[0]].op == "BlockLSTMGrad" for r in readers)
    movers = {n.name: _data_inputs(n) for n in frozen.node if _data_inputs(n) and
              _data_inputs(n)[0].partition(":")[0] == grad and n.op == "Identity"}
    assert movers[f"{grad}/x_grad"] == [grad]
    assert movers[f"{grad}/output_2"] == [f"{grad}:3"] and movers[f"{grad}/output_3"] == [f"{grad}:7"]  # w's, b's


def test_block_lstm_grad_gets_tfs_full_state_gradients():
    """Ringflow's gradient rule passes a scalar 0 for the cell state nothing differentiates; TF's kernel takes only
    [time, batch, units] (a scalar makes it abort): its form broadcasts that 0 to cs's shape."""
    frozen, _, _ = _lstm(True)
    by_name = {n.name: n for n in frozen.node}
    grad = next(n for n in frozen.node if n.op == "BlockLSTMGrad")
    inputs = _data_inputs(grad)
    cs_grad, h_grad = (by_name[name.partition(":")[0]] for name in inputs[-2:])
    assert cs_grad.op == "BroadcastTo" and h_grad.op != "BroadcastTo"
    zero, shape = (by_name[name.partition(":")[0]] for name in _data_inputs(cs_grad))
    assert zero.op == "Const" and shape.op == "Shape" and _data_inputs(shape) == [inputs[-8]]
