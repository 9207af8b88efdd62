"""tensorflow.python.tools.freeze_graph: a text or binary graph and its checkpoint become one GraphDef whose
variables are constants, which computes what the trained graph computed without any checkpoint."""
import numpy as np
import pytest

import trainer as tg
from trainer.platform import protobuf_text
from trainer.python.tools import freeze_graph

X = np.array([[1.0, -2.0, 0.5]], np.float32)


def trained(tmp_path):
    """A small trained graph: its pbtxt, its binary GraphDef, its checkpoint prefix, and its output for X."""
    with tg.Graph().as_default() as graph:
        x = tg.placeholder(tg.float32, [None, 3], name="x")
        w = tg.Variable(np.arange(6, dtype=np.float32).reshape(3, 2), name="w")
        tg.Variable(np.float32(7), name="unused")
        y = tg.nn.relu(tg.matmul(x, w) - 1.0, name="y")
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            sess.run(w.assign(w * 2.0))
            prefix = tg.train.Saver().save(sess, str(tmp_path / "model.ckpt"))
            want = sess.run(y, {x: X})
        tg.train.write_graph(graph, str(tmp_path), "graph.pbtxt", as_text=True)
        tg.train.write_graph(graph, str(tmp_path), "graph.pb", as_text=False)
    return prefix, want


def run_frozen(graph_def):
    with tg.Graph().as_default():
        tg.import_graph_def(graph_def, name="")
        with tg.Session() as sess:
            return sess.run("y:0", {"x:0": X})


@pytest.mark.parametrize("name, binary", [("graph.pbtxt", False), ("graph.pb", True)])
def test_a_frozen_graph_computes_what_the_trained_one_did(tmp_path, name, binary):
    prefix, want = trained(tmp_path)
    out = tmp_path / "frozen.pb"
    frozen = freeze_graph.freeze_graph(str(tmp_path / name), "", binary, prefix, "y", "save/restore_all",
                                       "save/Const:0", str(out), True, "")
    assert {node.op for node in frozen.node} & {"Variable", "VariableV2", "VarHandleOp"} == set()
    assert "unused" not in {node.name for node in frozen.node}  # only what the outputs need
    np.testing.assert_array_equal(run_frozen(frozen), want)
    assert tg.GraphDef.FromString(out.read_bytes()) == frozen


def test_the_def_protos_entry_takes_messages_and_checks_its_inputs(tmp_path):
    prefix, want = trained(tmp_path)
    graph_def = protobuf_text.parse((tmp_path / "graph.pbtxt").read_text(), tg.GraphDef())
    frozen = freeze_graph.freeze_graph_with_def_protos(graph_def, None, prefix, "y", "", "", "", False, "",
                                                       variable_names_blacklist="w")
    assert "VariableV2" in {node.op for node in frozen.node} or "Variable" in {node.op for node in frozen.node}
    with pytest.raises(ValueError, match="doesn't exist"):
        freeze_graph.freeze_graph_with_def_protos(graph_def, None, str(tmp_path / "nope"), "y", "", "", "", False, "")
    with pytest.raises(ValueError, match="output_node_names"):
        freeze_graph.freeze_graph_with_def_protos(graph_def, None, prefix, "", "", "", "", False, "")
    assert freeze_graph.freeze_graph(str(tmp_path / "missing.pbtxt"), "", False, prefix, "y", "", "", "", False,
                                     "") == -1
