"""TF1's tf.while_loop as TensorFlow writes it (Enter/Merge/Switch/NextIteration/Exit/LoopCond frames and the
TensorArrays around them) imports as ringflow's While and computes TensorFlow's recorded outputs: a counter loop
and one with maximum_iterations, dynamic_rnn over unknown lengths, map_fn, nested loops with a cond inside and a loop
inside a cond (scripts/record_tf_files.py loop-graphs, frozen GraphDefs), and differentiates in ringflow to TF's
gradients; training graphs TF wrote, whose gradients are backward loops over stacks, train on to TF's losses."""
import json
import os

import numpy as np
import pytest

import trainer as tg
from trainer.framework.meta_graph import MetaGraphDef
from trainer.framework.node_def import AttrValue, GraphDef, NodeDef

HERE = os.path.join(os.path.dirname(__file__), "fixtures", "tf_graphs")
with open(os.path.join(HERE, "loop_values.json")) as f:
    RECORD = json.load(f)


def _imported(kind):
    with open(os.path.join(HERE, "loops", f"{kind}.pb"), "rb") as f:
        tg.import_graph_def(GraphDef.FromString(f.read()), name="")
    return tg.get_default_graph()


@pytest.mark.parametrize("kind", ["counter", "dynamic_rnn", "map_fn", "nested"])
def test_a_frozen_graph_tensorflow_wrote_with_while_loops_computes_tensorflows_outputs(kind):
    with tg.Graph().as_default():
        graph = _imported(kind)
        assert any(op.type == "While" for op in graph.get_operations())
        names = {op.name for op in graph.get_operations()}
        feeds = {k: v for k, v in RECORD[kind]["feeds"].items() if k.partition(":")[0] in names}
        with tg.Session() as sess:
            got = sess.run({k: f"{k}:0" for k in RECORD[kind]["outputs"]}, feeds)
    for key, want in RECORD[kind]["outputs"].items():
        np.testing.assert_allclose(got[key], want, rtol=1e-5, atol=1e-6, err_msg=key)


def test_an_imported_dynamic_rnn_runs_other_lengths_and_batches():
    """Nothing of the recorded feed is baked in: a longer sequence and a batch of three run (the loop's count and
    the TensorArrays' sizes come from the feed), and a zero length keeps the zero state, as dynamic_rnn does."""
    with tg.Graph().as_default(), tg.Session() as sess:
        _imported("dynamic_rnn")
        seq = np.random.RandomState(0).randn(3, 7, 3).astype(np.float32)
        outputs, state = sess.run(["outputs:0", "state:0"], {"seq:0": seq, "lengths:0": [7, 0, 2]})
    assert outputs.shape == (3, 7, 4) and state.shape == (3, 4)
    np.testing.assert_array_equal(state[1], 0.0)
    np.testing.assert_array_equal(outputs[2, 2:], 0.0)
    np.testing.assert_allclose(state[2], outputs[2, 1])


@pytest.mark.parametrize("kind", ["dynamic_rnn", "map_fn"])
def test_an_imported_tensor_array_loop_trains_in_ringflow_to_tensorflows_gradient(kind):
    """The loop's TensorArrays differentiate as TF's do (a gradient array each): ringflow's gradient of
    sum(output²) by the input is the one TensorFlow computed through its backward loop."""
    gradient = RECORD[kind]["gradient"]
    with tg.Graph().as_default(), tg.Session() as sess:
        graph = _imported(kind)
        names = {op.name for op in graph.get_operations()}
        feeds = {k: v for k, v in RECORD[kind]["feeds"].items() if k.partition(":")[0] in names}
        loss = tg.reduce_sum(tg.square(graph.get_tensor_by_name(f"{gradient['of']}:0")))
        got = sess.run(tg.gradients(loss, graph.get_tensor_by_name(gradient["by"]))[0], feeds)
    np.testing.assert_allclose(got, gradient["value"], rtol=1e-5, atol=1e-6)


def test_two_gradients_of_one_tensor_array_loop_in_one_run_keep_their_own_gradient_arrays():
    """As in TF, each tf.gradients call (its name scope) has its own gradient array: fetching both in one run
    gives each its own value, not their sum."""
    gradient = RECORD["dynamic_rnn"]["gradient"]
    with tg.Graph().as_default(), tg.Session() as sess:
        graph = _imported("dynamic_rnn")
        loss = tg.reduce_sum(tg.square(graph.get_tensor_by_name("outputs:0")))
        seq = graph.get_tensor_by_name("seq:0")
        once, twice = sess.run([tg.gradients(loss, seq)[0], tg.gradients(2.0 * loss, seq)[0]],
                               RECORD["dynamic_rnn"]["feeds"])
    np.testing.assert_allclose(once, gradient["value"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(twice, 2 * np.asarray(gradient["value"]), rtol=1e-5, atol=1e-6)


def test_an_imported_loop_differentiates_in_ringflow():
    """The rebuilt loop is ringflow's own While: tg.gradients runs back through it (d s / d x of the counter loop's
    s = sum over i < n of i * x[0] is n(n-1)/2 on row 0)."""
    with tg.Graph().as_default(), tg.Session() as sess:
        graph = _imported("counter")
        x, s = graph.get_tensor_by_name("x:0"), graph.get_tensor_by_name("s:0")
        grad = sess.run(tg.gradients(tg.reduce_sum(s), x)[0], {"x:0": np.ones((4, 3), np.float32), "n:0": 4})
    np.testing.assert_allclose(grad, [[6.0] * 3, [0.0] * 3, [0.0] * 3, [0.0] * 3])


@pytest.mark.parametrize("kind", ["train", "train_rnn"])
def test_a_training_graph_tensorflow_wrote_trains_on_to_tensorflows_losses(kind):
    """TF's backward loop (a frame popping the stacks the forward loop pushed, TensorArray gradients around it) is
    replaced by ringflow's gradient of the rebuilt forward loop: a while_loop's and a dynamic_rnn's training graphs
    restore and train 3 steps to TF's losses."""
    record = RECORD[kind]
    prefix = os.path.join(HERE, record["prefix"])
    with tg.Graph().as_default() as graph, tg.Session() as sess:
        tg.train.import_meta_graph(prefix + ".meta").restore(sess, prefix)
        assert not {"StackV2", "StackPushV2", "StackPopV2"} & {op.type for op in graph.get_operations()}
        got = [sess.run(["loss:0", "train"], record["feeds"])[0] for _ in range(3)]
    np.testing.assert_allclose(got, record["losses"], rtol=2e-6)


def test_the_gradient_loop_of_a_loop_in_a_loop_is_named_as_what_ringflow_does_not_rebuild():
    outer = {"frame_name": AttrValue(s=b"outer/while_context")}
    inner = {"frame_name": AttrValue(s=b"gradients/outer/inner/while_context")}
    nodes = [NodeDef(name="p", op="Placeholder"), NodeDef(name="outer/Enter", op="Enter", input=["p"], attr=outer),
             NodeDef(name="gradients/outer/inner/Exit_grad/b_exit", op="Enter", input=["outer/Enter"], attr=inner)]
    with tg.Graph().as_default(), pytest.raises(NotImplementedError, match=r"backward loops \['gradients/outer/"
                                                                           r"inner/while_context'\] are inside"):
        tg.train.import_meta_graph(MetaGraphDef(graph_def=GraphDef(node=nodes)))


def test_a_frame_without_its_loop_condition_is_named_as_what_ringflow_does_not_rebuild():
    frame = {"frame_name": AttrValue(s=b"while/while_context")}
    nodes = [NodeDef(name="i", op="Placeholder"), NodeDef(name="while/Enter", op="Enter", input=["i"], attr=frame),
             NodeDef(name="while/Merge", op="Merge", input=["while/Enter", "while/NextIteration"]),
             NodeDef(name="while/NextIteration", op="NextIteration", input=["while/Merge"])]
    with tg.Graph().as_default(), pytest.raises(NotImplementedError, match=r"frame 'while/while_context' has no "
                                                                           r"LoopCond"):
        tg.train.import_meta_graph(MetaGraphDef(graph_def=GraphDef(node=nodes)))


@pytest.mark.parametrize("kind", ["train", "train_rnn"])
def test_a_training_graph_tensorflow_wrote_saves_again_with_its_backward_loop_and_trains_on(tmp_path, kind):
    """Saved again by ringflow, the rebuilt loop's gradient is a backward loop over stacks once more (TensorFlow
    trains on from it: record_tf_files.py check), and ringflow imports the file to TF's losses."""
    record = RECORD[kind]
    prefix, saved = os.path.join(HERE, record["prefix"]), str(tmp_path / "again")
    with tg.Graph().as_default(), tg.Session() as sess:
        tg.train.import_meta_graph(prefix + ".meta").restore(sess, prefix)
        tg.train.Saver().save(sess, saved)
    with tg.Graph().as_default() as graph, tg.Session() as sess:
        tg.train.import_meta_graph(saved + ".meta").restore(sess, saved)
        assert "WhileGrad" in {op.type for op in graph.get_operations()}
        got = [sess.run(["loss:0", "train"], record["feeds"])[0] for _ in range(3)]
    np.testing.assert_allclose(got, record["losses"], rtol=2e-6)
