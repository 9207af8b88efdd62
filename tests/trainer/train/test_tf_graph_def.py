"""Graph.as_graph_def, Session.graph_def and tf.train.write_graph give TF's node forms, the graph export_meta_graph
writes, so TensorFlow imports and freezes what ringflow writes (scripts/record_tf_files.py check), and ringflow
reads both forms back: the graph as written, and the frozen graph convert_variables_to_constants makes of it."""
import numpy as np

import trainer as tg

X = np.linspace(-1.0, 1.0, 8, dtype=np.float32).reshape(2, 4)


def build():
    tg.set_random_seed(1)
    x = tg.placeholder(tg.float32, [None, 4], name="x")
    training = tg.placeholder_with_default(False, [], name="training")
    h = tg.layers.dropout(tg.layers.dense(x, 5, activation=tg.nn.relu), 0.5, training=training)
    h = tg.concat([h, tg.reshape(h[:, :2], [-1, 2])], 1)
    h = tg.cond(training, lambda: h * 2.0, lambda: h - 1.0)
    return tg.identity(tg.reduce_sum(tg.layers.dense(h, 3), axis=1), name="y")


def test_as_graph_def_holds_tfs_ops_where_ringflow_keeps_inputs_as_attrs():
    with tg.Graph().as_default() as g:
        build()
        with tg.Session() as sess:
            graph_def = sess.graph_def
    exported = tg.train.export_meta_graph(graph=g).graph_def
    for node in exported.node:
        node.attr.pop("_output_shapes", None)
    assert graph_def == g.as_graph_def() == exported  # one conversion: export_meta_graph's
    ops = {n.op for n in graph_def.node}
    assert "Dropout" not in ops and {"RandomUniform", "SelectV2", "Switch", "Merge"} <= ops  # TF1's dropout, cond
    nodes = {n.name: n for n in graph_def.node}
    assert nodes["concat"].input[-1] == "concat/axis" and nodes["concat/axis"].op == "Const"
    assert not any("_output_shapes" in n.attr for n in graph_def.node)
    shaped = {n.name: n for n in g.as_graph_def(add_shapes=True).node}
    assert [tg.TensorShape(s).as_list() for s in shaped["y"].attr["_output_shapes"].list.shape] == [[None]]


def test_a_written_graph_and_its_frozen_form_import_back_to_the_same_values(tmp_path):
    with tg.Graph().as_default() as g:
        y = build()
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            want = sess.run(y, {"x:0": X})
            tg.train.write_graph(g, str(tmp_path), "g.pb", as_text=False)
            frozen = tg.graph_util.convert_variables_to_constants(sess, sess.graph_def, ["y"])
    assert not {"VariableV2", "Assign"} & {n.op for n in frozen.node}
    with tg.Graph().as_default():
        tg.import_graph_def(frozen, name="")
        with tg.Session() as sess:
            np.testing.assert_array_equal(sess.run("y:0", {"x:0": X}), want)
    assert tg.GraphDef.FromString((tmp_path / "g.pb").read_bytes()) == g.as_graph_def()
