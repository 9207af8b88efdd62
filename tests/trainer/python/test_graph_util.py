"""tf.graph_util: a graph frozen for serving computes what the trained one does, without its variables."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import fresh_graph  # noqa: F401 (autouse)


def build():
    x = tg.placeholder(tg.float32, [None, 2], name="x")
    w = tg.Variable([[1.0], [2.0]], name="w")
    b = tg.Variable([0.5], name="b")
    y = tg.identity(tg.matmul(x, w) + b, name="y")
    tg.train.GradientDescentOptimizer(0.1).minimize(tg.reduce_sum(y))  # training nodes the frozen graph leaves out
    return x, y


def test_frozen_graph_has_constants_for_variables_and_only_what_the_output_needs(tmp_path):
    x, y = build()
    feed = np.array([[1.0, 1.0], [2.0, -1.0]], np.float32)
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        sess.run(tg.assign(tg.get_default_graph().get_tensor_by_name("w:0"), [[3.0], [4.0]]))
        expected = sess.run(y, {x: feed})
        frozen = tg.graph_util.convert_variables_to_constants(sess, sess.graph.as_graph_def(), ["y"])
        partly = tg.graph_util.convert_variables_to_constants(sess, sess.graph.as_graph_def(), ["y"],
                                                               variable_names_blacklist=["b"])
    ops = {node.name: node.op for node in frozen.node}
    assert ops["w"] == ops["b"] == "Const" and not any(op in ("Assign", "ApplyGradientDescent", "VariableV2")
                                                        for op in ops.values())
    assert {n.name: n.op for n in partly.node}["b"] == "VariableV2"
    path = tmp_path / "frozen.pb"
    path.write_bytes(frozen.SerializeToString())
    with tg.Graph().as_default():
        served, = tg.import_graph_def(tg.GraphDef.FromString(path.read_bytes()), return_elements=["y:0"])
        assert served.name == "import/y:0" and not tg.global_variables()
        with tg.Session() as sess:
            np.testing.assert_allclose(sess.run(served, {"import/x:0": feed}), expected)
        tg.import_graph_def(frozen, name="")
        assert tg.get_default_graph().get_operation_by_name("w").type == "Const"


def test_extract_sub_graph_and_remove_training_nodes():
    a = tg.constant(1.0, name="a")
    checked = tg.check_numerics(a, "bad", name="checked")
    kept = tg.identity(a, name="kept")
    with tg.control_dependencies([checked]):
        out = tg.identity(tg.identity(kept, name="inner") * 2.0, name="out")
    tg.constant(5.0, name="unused")
    graph_def = tg.get_default_graph().as_graph_def()
    sub = tg.graph_util.extract_sub_graph(graph_def, ["out"])
    assert [n.name for n in sub.node] == [n.name for n in graph_def.node if n.name != "unused"]
    with pytest.raises(AssertionError, match="nowhere is not in graph"):
        tg.graph_util.extract_sub_graph(graph_def, ["nowhere"])
    with pytest.raises(TypeError, match="single string"):
        tg.graph_util.extract_sub_graph(graph_def, "out")
    pruned = {n.name: list(n.input) for n in tg.graph_util.remove_training_nodes(sub, protected_nodes=["out"]).node}
    assert "checked" not in pruned and "inner" not in pruned and "kept" not in pruned
    assert pruned["mul"][0] == "a" and pruned["out"] == [out.op.inputs[0].op.name]
    assert tg.graph_util.must_run_on_cpu(tg.constant(1).op) and not tg.graph_util.must_run_on_cpu(a.op)
    assert tg.graph_util.must_run_on_cpu(graph_def.node[0], pin_variables_on_cpu=True) is False
    assert tg.graph_util.tensor_shape_from_node_def_name(tg.get_default_graph(), "out").as_list() == []
