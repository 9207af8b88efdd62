"""Graphs with tg.cond go through a MetaGraphDef (TF1's Switch/Merge nodes) and import_meta_graph in a fresh graph
computes, differentiates and trains on as the graph that was saved."""
import numpy as np
import pytest

import trainer as tg

X = np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(4, 3)


def _model(nested):
    """A loss with a cond on a `training` placeholder, a nested cond inside its false branch, dropout and batch
    normalization on the same placeholder, and a GradientDescent step through all of them."""
    tg.set_random_seed(3)
    x = tg.placeholder(tg.float32, [None, 3], name="x")
    training = tg.placeholder_with_default(False, [], name="training")
    w = tg.Variable(np.arange(6, dtype=np.float32).reshape(3, 2) / 10 - 0.2, name="w")
    h = tg.layers.batch_normalization(tg.matmul(x, w), training=training)
    h = tg.layers.dropout(h, 0.25, training=training)

    def otherwise():
        if not nested:
            return h - 1.0
        return tg.cond(tg.reduce_sum(h) > 0.0, lambda: h - 1.0, lambda: tg.constant(3.0) * h, name="inner")
    h = tg.cond(training, lambda: h * 2.0 + tg.constant(1.0), otherwise, name="outer")
    loss = tg.reduce_mean(tg.square(h), name="loss")
    with tg.control_dependencies(tg.get_collection(tg.GraphKeys.UPDATE_OPS)):
        tg.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")


STEPS = (True, False, True, True, False)


def _steps(sess, x="x:0", training="training:0"):
    return [sess.run(["loss:0", "train"], {x: X, training: t})[0] for t in STEPS]


@pytest.mark.parametrize("nested", [False, True])
def test_a_saved_graph_with_conds_imports_and_trains_on_as_the_original(tmp_path, nested):
    prefix = str(tmp_path / "model")
    with tg.Graph().as_default():
        _model(nested)
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            _steps(sess)
            tg.train.Saver().save(sess, prefix)
        with tg.Session() as sess:  # a fresh session: the dropout's random stream starts again, as an import's does
            tg.train.Saver().restore(sess, prefix)
            want = _steps(sess)
    with tg.Graph().as_default() as graph:
        saver = tg.train.import_meta_graph(prefix + ".meta")
        assert {"outer"} <= {op.name for op in graph.get_operations() if op.type == "Cond"}
        with tg.Session() as sess:
            saver.restore(sess, prefix)
            got = _steps(sess)
    np.testing.assert_allclose(got, want, rtol=1e-6)
    assert len(set(np.round(got, 4))) == len(got)  # both branches ran and the weights moved


def test_the_meta_graph_holds_tf1_switch_and_merge_nodes_not_ringflows_cond(tmp_path):
    with tg.Graph().as_default():
        _model(nested=True)
        meta = tg.train.export_meta_graph(str(tmp_path / "m.meta"))
    ops = {node.name: node.op for node in meta.graph_def.node}
    assert "Cond" not in ops.values()
    assert ops["outer/Merge"] == "Merge" and ops["outer/Switch"] == "Switch" and ops["outer/pred_id"] == "Identity"
    assert ops["outer/inner/Merge"] == "Merge" and ops["outer"] == "Identity"  # TF fetches "outer:0" too
    consts = {node.name: list(node.input) for node in meta.graph_def.node if node.name.startswith("outer/Const")}
    # a branch's constants wait for its pivot, so TensorFlow runs them only in the branch taken
    assert consts == {"outer/Const": ["^outer/switch_t"], "outer/Const_1": ["^outer/switch_t"],
                      "outer/Const_2": ["^outer/switch_f"]}


def test_only_the_branch_taken_runs_its_assignment_after_import(tmp_path):
    with tg.Graph().as_default():
        flag = tg.placeholder(tg.bool, [], name="flag")
        v = tg.Variable(1.0, name="v")
        tg.cond(flag, lambda: tg.assign_add(v, 10.0), lambda: tg.identity(v), name="maybe_add")
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            tg.train.Saver().save(sess, str(tmp_path / "v"))
    with tg.Graph().as_default():
        saver = tg.train.import_meta_graph(str(tmp_path / "v.meta"))
        with tg.Session() as sess:
            saver.restore(sess, str(tmp_path / "v"))
            got = [sess.run("maybe_add:0", {"flag:0": f}) for f in (False, True, False, True)]
    assert got == [1.0, 11.0, 11.0, 21.0]


def test_a_cond_applying_gradients_or_not_trains_on_after_import(tmp_path):
    """The cond parallel's apply_if builds: a group of updates in one branch, a no_op in the other."""
    def steps(sess, x, apply):
        return [sess.run(["loss:0", "maybe_apply"], {x: X, apply: a})[0] for a in (True, False, True, True)]
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [4, 3], name="x")
        apply = tg.placeholder_with_default(True, [], name="apply")
        loss = tg.reduce_mean(tg.square(tg.matmul(x, tg.Variable(np.ones((3, 1), np.float32))) - 1.0), name="loss")
        optimizer = tg.train.GradientDescentOptimizer(0.1)
        grads = optimizer.compute_gradients(loss)
        tg.cond(apply, lambda: tg.group(optimizer.apply_gradients(grads)), tg.no_op, name="maybe_apply")
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            tg.train.Saver().save(sess, str(tmp_path / "m"))
            want = steps(sess, x, apply)
    with tg.Graph().as_default():
        saver = tg.train.import_meta_graph(str(tmp_path / "m.meta"))
        with tg.Session() as sess:
            saver.restore(sess, str(tmp_path / "m"))
            got = steps(sess, "x:0", "apply:0")
    assert got == want and got[1] == got[2] != got[3]  # the step fed apply=False left the weights alone


def test_a_cond_returning_an_outside_tensor_and_an_import_scope(tmp_path):
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [], name="x")
        y = tg.cond(x > 0, lambda: x, lambda: -x, name="abs")
        tg.identity(tg.gradients(y, x)[0], name="dydx")
        tg.train.export_meta_graph(str(tmp_path / "abs.meta"))
    with tg.Graph().as_default():
        tg.train.import_meta_graph(str(tmp_path / "abs.meta"), import_scope="imported")
        with tg.Session() as sess:
            got = [sess.run(["imported/abs:0", "imported/dydx:0"], {"imported/x:0": v}) for v in (2.0, -3.0)]
    assert [list(map(float, g)) for g in got] == [[2.0, 1.0], [3.0, -1.0]]
