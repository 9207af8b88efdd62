"""tg.while_loop exported as TF1's while-loop frame (Enter/Merge/Switch/Identity/NextIteration/Exit/LoopCond, a
counter for maximum_iterations and sequences, TensorArrays for per-step outputs), which TensorFlow runs (checked by
scripts/record_tf_files.py check, recorded in fixtures/tf_files/tf_read_ringflow_files.txt) and ringflow imports
again to the same values."""
import os
import sys

import numpy as np
import pytest

import trainer as tg
from trainer.train.meta_graph import read_meta_graph_file

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), *[os.pardir] * 3, "scripts"))
from ringflow_tf_files import LOOP_FEEDS, loop_graph  # noqa: E402

FEEDS = LOOP_FEEDS


def _loops():
    """loop_graph's loops without the ones holding conds (whose frames the checks below do not name), by name."""
    return {key: tg.identity(t, name=key).name for key, t in loop_graph(conds=False)[1].items()}


def test_loops_are_written_as_tf1_frames_and_import_again_to_the_same_values(tmp_path):
    with tg.Graph().as_default():
        fetches = _loops()
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            want = sess.run(fetches, FEEDS)
            prefix = tg.train.Saver().save(sess, str(tmp_path / "model.ckpt"))
    nodes = read_meta_graph_file(prefix + ".meta").graph_def.node
    types = {node.op for node in nodes}
    assert {"Enter", "Merge", "Switch", "NextIteration", "Exit", "LoopCond", "TensorArrayV3",
            "TensorArrayWriteV3", "TensorArrayGatherV3"} <= types and not types & {"While", "LoopVar"}
    frames = {node.attr["frame_name"].s.decode() for node in nodes if node.op == "Enter"}
    assert frames == {"while/while_context", "while_1/while_context", "rnn/while/while_context",
                      "map/while/while_context", "while_2/while_context", "while_2/while/while_context"}
    with tg.Graph().as_default() as graph, tg.Session() as sess:
        tg.train.import_meta_graph(prefix + ".meta").restore(sess, prefix)
        assert len([op for op in graph.get_operations() if op.type == "While"]) == 6
        got = sess.run(fetches, FEEDS)
    for key in want:
        np.testing.assert_allclose(got[key], want[key], rtol=1e-6, atol=1e-7, err_msg=key)


def test_a_loops_frame_keeps_the_nodes_of_its_body_under_their_names(tmp_path):
    """The body's nodes are the graph's own, named as ringflow named them, reading the loop's Identities; a constant
    in the body waits for the frame's pivot; a tensor from outside enters once, as a constant of the frame."""
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [3], name="x")
        tg.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, tg.multiply(y, x, name="scaled") * 2.0 + x),
                      [tg.constant(0), x], name="loop")
        tg.train.export_meta_graph(str(tmp_path / "loop.meta"))
    nodes = {node.name: node for node in read_meta_graph_file(str(tmp_path / "loop.meta")).graph_def.node}
    scaled = nodes["loop/scaled"]
    assert scaled.input[0] == "loop/Identity_1"
    entered = nodes[scaled.input[1]]
    assert entered.op == "Enter" and entered.attr["is_constant"].b and list(entered.input) == ["x"]
    constants = [node for name, node in nodes.items() if name.startswith("loop/") and node.op == "Const"
                 and node.input]
    assert constants and all(list(node.input) in (["^loop/Identity"], ["^loop/Merge"]) for node in constants)
    assert len([node for node in nodes.values() if node.op == "Enter" and list(node.input) == ["x"]]) == 2


def test_a_cond_inside_a_loop_and_a_cond_beside_it_are_written_and_import_again(tmp_path):
    """The cond in the body is TF1's Switch/Merge inside the frame, reading the loop's Identities; the cond at the
    top level reads the loop's Exit. TensorFlow runs both (record_tf_files.py check)."""
    feeds = {"n:0": 5, "x:0": FEEDS["x:0"], "flag:0": False}
    with tg.Graph().as_default():
        n, x = tg.placeholder(tg.int32, [], name="n"), tg.placeholder(tg.float32, [None, 3], name="x")
        flag = tg.placeholder_with_default(True, [], name="flag")

        def body(i, total):
            row = tg.gather(x, tg.math.floormod(i, 4))
            odd = tg.equal(tg.math.floormod(i, 2), 1)
            return i + 1, total + tg.cond(odd, lambda: row * 2.0, lambda: tg.constant(1.0) - row, name="pick")
        out = tg.while_loop(lambda i, total: i < n, body, [tg.constant(0), tg.zeros([3])], name="loop")[1]
        top = tg.identity(tg.cond(flag, lambda: out + 1.0, lambda: out * 3.0), name="top")
        with tg.Session() as sess:
            want = sess.run(top, feeds)
        tg.train.export_meta_graph(str(tmp_path / "g.meta"))
    nodes = {node.name: node for node in read_meta_graph_file(str(tmp_path / "g.meta")).graph_def.node}
    assert nodes["loop/FloorMod"].input[0] == "loop/Identity" and nodes["loop/add_1"].input[0] == "loop/Identity_1"
    assert "loop/GatherV2" in {node.input[0] for name, node in nodes.items() if name.startswith("loop/pick/Switch_")}
    assert not {"While", "Cond", "LoopVar"} & {node.op for node in nodes.values()}
    with tg.Graph().as_default() as graph, tg.Session() as sess:
        tg.train.import_meta_graph(str(tmp_path / "g.meta"))
        control_flow = {op.name for op in graph.get_operations() if op.type in ("While", "Cond")}
        assert {"loop", "loop/pick", "cond"} <= control_flow
        np.testing.assert_allclose(sess.run("top:0", feeds), want, rtol=1e-6)


def test_a_loop_inside_a_cond_reads_through_the_conds_switches_and_runs_only_in_its_branch(tmp_path):
    """The loop's Enters read what it takes from outside the cond through the cond's Switch (TensorFlow runs it:
    record_tf_files.py check's nested graph): the other branch gives its own value, and the loop imports back
    inside its branch."""
    feeds = {"x:0": FEEDS["x:0"]}
    with tg.Graph().as_default():
        x, flag = tg.placeholder(tg.float32, [None, 3], name="x"), tg.placeholder(tg.bool, [], name="flag")
        grown = (lambda: tg.while_loop(lambda v: tg.reduce_sum(v) < 50.0, lambda v: v * 3.0 + x[0], [x[1] + 2.0],
                                       name="grow"))
        tg.identity(tg.cond(flag, grown, lambda: x[2], name="pick"), name="out")
        with tg.Session() as sess:
            want = [sess.run("out:0", {**feeds, "flag:0": f}) for f in (True, False)]
        tg.train.export_meta_graph(str(tmp_path / "g.meta"))
    nodes = {node.name: node for node in read_meta_graph_file(str(tmp_path / "g.meta")).graph_def.node}
    sources = {nodes[name].input[0] for name, node in nodes.items() if node.op == "Enter"}
    assert any(source.startswith("pick/Switch_") for source in sources)
    with tg.Graph().as_default() as graph, tg.Session() as sess:
        tg.train.import_meta_graph(str(tmp_path / "g.meta"))
        loop = graph.get_operation_by_name("pick/grow")
        assert loop.type == "While" and loop.control_flow is not None
        got = [sess.run("out:0", {**feeds, "flag:0": f}) for f in (True, False)]
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_a_loop_variable_that_is_a_conds_output_is_its_merge(tmp_path):
    """The body returns a two-output cond's values as they are: the NextIterations read the cond's Merges."""
    feed = {"x:0": [1.0, 2.0, 3.0]}
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [3], name="x")

        def body(i, a, b):
            return (i + 1, *tg.cond(i > 1, lambda: (a + x, b * 2.0), lambda: (a - 1.0, b + x), name="pick"))
        _, a, b = tg.while_loop(lambda i, a, b: i < 4, body, [tg.constant(0), tg.zeros([3]), tg.ones([3])],
                                name="loop")
        fetches = [tg.identity(a, name="a").name, tg.identity(b, name="b").name]
        with tg.Session() as sess:
            want = sess.run(fetches, feed)
        tg.train.export_meta_graph(str(tmp_path / "g.meta"))
    nodes = {node.name: node for node in read_meta_graph_file(str(tmp_path / "g.meta")).graph_def.node}
    assert {tuple(node.input) for node in nodes.values() if node.op == "NextIteration"} >= {
        ("loop/pick/Merge",), ("loop/pick/Merge_1",)}
    with tg.Graph().as_default(), tg.Session() as sess:
        tg.train.import_meta_graph(str(tmp_path / "g.meta"))
        got = sess.run(fetches, feed)
    np.testing.assert_allclose(got, want)


def test_waiting_for_a_loop_is_waiting_for_its_exits_and_imports_back(tmp_path):
    with tg.Graph().as_default():
        counter = tg.Variable(0.0, name="counter")
        total = tg.while_loop(lambda i: i < 3, lambda i: i + 1, [tg.constant(0)], name="loop")
        with tg.control_dependencies([total]):
            tg.assign_add(counter, 1.0, name="counted")
        tg.train.export_meta_graph(str(tmp_path / "g.meta"))
    nodes = {node.name: node for node in read_meta_graph_file(str(tmp_path / "g.meta")).graph_def.node}
    assert "^loop/Exit" in nodes["counted"].input
    with tg.Graph().as_default() as graph, tg.Session() as sess:
        tg.train.import_meta_graph(str(tmp_path / "g.meta"))
        assert graph.get_operation_by_name("loop") in graph.get_operation_by_name("counted").control_inputs
        sess.run(tg.global_variables_initializer())
        assert sess.run("counted:0") == 1.0


def _while_loop_model():
    x = tg.placeholder(tg.float32, [3], name="x")
    w = tg.Variable([0.5, -0.25, 1.0], name="w")
    y = tg.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * w + x), [tg.constant(0), x])[1]
    return {"x:0": [1.0, -2.0, 0.5]}, y


def _dynamic_rnn_model():
    x = tg.placeholder(tg.float32, [None, None, 2], name="x")
    with tg.variable_scope("rnn", initializer=tg.glorot_uniform_initializer(seed=1)):
        return {"x:0": FEEDS["seq:0"][:, :3, :2]}, tg.nn.dynamic_rnn(tg.nn.rnn_cell.BasicRNNCell(2), x,
                                                                     dtype=tg.float32)[0]


def _keras_gru_model():
    """A GRU over unknown lengths: its gradient reduces broadcast biases (TF's form reads Consts import leaves out)
    and builds gradients nothing uses (a sequence mask's), which no frame can hold."""
    x = tg.placeholder(tg.float32, [None, None, 2], name="x")
    tg.set_random_seed(1)
    return {"x:0": FEEDS["seq:0"][:, :3, :2]}, tg.keras.layers.GRU(2, return_sequences=True)(x)


def _map_fn_model():
    x = tg.placeholder(tg.float32, [None, 3], name="x")
    w = tg.Variable([[0.5], [-0.25], [1.0]], name="w")
    return {"x:0": FEEDS["x:0"]}, tg.map_fn(lambda r: tg.tanh(tg.matmul(r[None], w))[0], x)


@pytest.mark.parametrize("model", [_while_loop_model, _dynamic_rnn_model, _keras_gru_model, _map_fn_model])
def test_a_loops_gradient_is_written_as_tfs_backward_loop_over_stacks_and_trains_on(tmp_path, model):
    """The gradient (WhileGrad) is TF's backward frame: the forward loop pushes what it reads onto stacks, the
    backward loop pops them under TF's names, which ringflow's import pairs with the loop again (TensorFlow trains
    on from such files too: record_tf_files.py check)."""
    with tg.Graph().as_default():
        feeds, y = model()
        loss = tg.reduce_sum(tg.square(y - 0.25), name="loss")
        tg.train.GradientDescentOptimizer(0.05).minimize(loss, name="train")
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            prefix = tg.train.Saver().save(sess, str(tmp_path / "model.ckpt"))
            want = [sess.run([loss, "train"], feeds)[0] for _ in range(3)]
    nodes = read_meta_graph_file(prefix + ".meta").graph_def.node
    types = {node.op for node in nodes}
    assert {"StackV2", "StackPushV2", "StackPopV2"} <= types and not types & {"While", "WhileGrad", "LoopVar"}
    assert any(node.op == "Enter" and node.name.endswith("_grad/b_exit") for node in nodes)
    with tg.Graph().as_default(), tg.Session() as sess:
        tg.train.import_meta_graph(prefix + ".meta").restore(sess, prefix)
        got = [sess.run(["loss:0", "train"], feeds)[0] for _ in range(3)]
    np.testing.assert_allclose(got, want, rtol=1e-6)
