"""The readiness report and the gradients' finiteness check are written as the TF ops that compute the same, so
the .meta `ringflow train` saves imports in TensorFlow (scripts/record_tf_files.py check-models: TF's losses are
in fixtures/tf_read_ringflow_models.txt) and in ringflow, where the rebuilt ops behave as the originals."""
import numpy as np
import pytest

import trainer as tg
from trainer.parallel.nonfinite import apply_gradients

TF_OPS = {"IsVariableInitialized", "Pack", "LogicalNot", "Where", "Squeeze", "GatherV2", "Const", "IsFinite",
          "Reshape", "All", "Assert", "Identity"}


def _imported(meta_path):
    graph = tg.Graph()
    with graph.as_default():
        tg.train.import_meta_graph(meta_path)
    return graph


def test_report_uninitialized_variables_is_tfs_boolean_mask_and_reports_alike(tmp_path):
    with tg.Graph().as_default():
        tg.Variable(1.0, name="a")
        tg.Variable([2, 3], name="scope/b")
        ready = tg.report_uninitialized_variables()
        tg.report_uninitialized_variables([], name="none")
        meta = tg.train.export_meta_graph(str(tmp_path / "g.meta"))
    nodes = {n.name: n for n in meta.graph_def.node}
    assert (nodes[ready.op.name].op, nodes["none"].op) == ("GatherV2", "Const")
    assert {n.op for n in meta.graph_def.node if n.name.startswith(ready.op.name)} <= TF_OPS
    graph = _imported(str(tmp_path / "g.meta"))
    with tg.Session(graph=graph) as sess:
        assert sess.run(ready.name).tolist() == [b"a", b"scope/b"]
        assert sess.run("none:0").tolist() == []
        sess.run(graph.get_operation_by_name("a/Assign"))
        assert sess.run(ready.name).tolist() == [b"scope/b"]


def test_assert_variables_initialized_is_tfs_assert(tmp_path):
    with tg.Graph().as_default():
        tg.Variable(1.0, name="a")
        tg.assert_variables_initialized()
        meta = tg.train.export_meta_graph(str(tmp_path / "g.meta"))
    assert {n.name: n.op for n in meta.graph_def.node}["assert_variables_initialized"] == "Assert"
    graph = _imported(str(tmp_path / "g.meta"))
    with tg.Session(graph=graph) as sess:
        with pytest.raises(tg.errors.InvalidArgumentError, match="uninitialized"):
            sess.run("assert_variables_initialized")
        sess.run("a/Assign")
        sess.run("assert_variables_initialized")


def _training(policy, path):
    """A linear model whose update is checked under `policy`, exported to `path`; returns the train op's name."""
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [None, 2], name="x")
        w = tg.Variable([[1.0], [2.0]], name="w")
        loss = tg.reduce_mean(tg.square(tg.matmul(x, w)), name="loss")
        step = tg.train.get_or_create_global_step()
        optimizer = tg.train.GradientDescentOptimizer(0.1)
        train, _ = apply_gradients(optimizer, optimizer.compute_gradients(loss), policy, global_step=step)
        tg.train.export_meta_graph(path)
        return train.name


@pytest.mark.parametrize("policy", ["raise", "skip"])
def test_the_finiteness_check_is_tfs_ops_and_guards_the_update_alike(tmp_path, policy):
    train = _training(policy, str(tmp_path / "g.meta"))
    graph = _imported(str(tmp_path / "g.meta"))
    assert "CheckGradientsFinite" not in {op.type for op in graph.get_operations()}
    with graph.as_default(), tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        sess.run(train, {"x:0": [[1.0, 1.0]]})
        before = sess.run(["w:0", "global_step:0"])
        assert before[1] == 1
        bad = {"x:0": [[np.nan, 1.0]]}
        if policy == "raise":
            with pytest.raises(tg.errors.InvalidArgumentError, match=r"non-finite gradient.*'w:0'"):
                sess.run(train, bad)
            assert sess.run("global_step:0") == 1
        else:
            sess.run(train, bad)
            assert sess.run("global_step:0") == 2  # the step went by, its update left out
        np.testing.assert_array_equal(sess.run("w:0"), before[0])
