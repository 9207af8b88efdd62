"""The TF forms the tf1 corpus's training steps needed (scripts/ringflow_tf_corpus.py; TensorFlow ran each step to
ringflow's numbers: fixtures/tf_files/tf_read_ringflow_corpus.txt): what TF's op definitions require is written,
and ringflow reads the graph back, and TensorFlow's view of it, to the same values."""
import numpy as np

import trainer as tg
from tests.trainer.train.tf_view import run_imported, tf_view

X = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -3.0]], dtype=np.float32)


def _exported(build, fetches):
    with tg.Graph().as_default() as g:
        build()
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            want = sess.run(fetches, {"x:0": X})
        return g.as_graph_def(), want


def _nodes(graph_def):
    return {n.name: n for n in graph_def.node}


def test_losses_and_gradients_of_the_corpus_are_tfs_ops_and_compute_alike():
    def build():
        x = tg.placeholder(tg.float32, None, name="x")  # rank unknown: reductions over every axis by Range
        w = tg.Variable(np.ones((3, 4), np.float32), name="w")
        table = tg.Variable(np.arange(12, dtype=np.float32).reshape(4, 3), name="table")
        labels = tg.constant([1, 3], tg.int32)
        logits = tg.matmul(tg.reshape(x, [-1, 3]), w) + tg.gather(table, labels)[:, :1]
        xent = tg.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits, name="xent")
        sig = tg.nn.sigmoid_cross_entropy_with_logits(labels=tg.ones_like(logits), logits=logits, name="sig")
        total = tg.identity(tg.reduce_sum(x) + tg.reduce_mean(xent) + tg.reduce_mean(sig)
                            + tg.reduce_sum(tg.cumsum(logits, axis=1)), name="total")
        tg.identity(tg.gradients(total, [x])[0], name="dx")
        tg.identity(tg.gradients(total, [table])[0], name="dtable")
    graph_def, want = _exported(build, ["total:0", "dx:0", "dtable:0"])
    nodes, ops = _nodes(graph_def), {n.op for n in graph_def.node}
    assert nodes["xent"].attr["Tlabels"].type == tg.int32.as_datatype_enum
    assert nodes["sig"].op == "AddV2" and {"Log1p", "SelectV2"} <= ops
    assert not {"GatherGrad", "ReduceGrad", "SigmoidCrossEntropyWithLogits"} & ops and "UnsortedSegmentSum" in ops
    assert all(len([i for i in n.input if not i.startswith("^")]) == 2 for n in graph_def.node
               if n.op in ("Sum", "Mean", "Cumsum"))  # the axis an input, a Range where the rank is unknown
    for read in (graph_def, tf_view(graph_def)):
        with tg.Graph().as_default():
            tg.import_graph_def(read, name="")
            with tg.Session() as sess:
                sess.run([op for op in tg.get_default_graph().get_operations() if op.name.endswith("/Assign")
                          and op.inputs[0].op.type == "VariableV2"])
                got = sess.run(["total:0", "dx:0", "dtable:0"], {"x:0": X})
        for a, b in zip(got, want):
            np.testing.assert_allclose(a, b, rtol=1e-6)


def test_conv2d_transpose_is_tfs_conv2d_backprop_input():
    def build():
        x = tg.placeholder(tg.float32, [2, 3], name="x")
        value = tg.reshape(tg.concat([x, x], 1), [1, 2, 3, 2])
        w = tg.constant(np.linspace(-1, 1, 2 * 2 * 3 * 2, dtype=np.float32).reshape(2, 2, 3, 2))
        tg.identity(tg.nn.conv2d_transpose(value, w, [1, 4, 6, 3], [1, 2, 2, 1], "SAME"), name="y")
    graph_def, want = _exported(build, "y:0")
    up = next(n for n in graph_def.node if n.op == "Conv2DBackpropInput")
    assert list(up.attr["strides"].list.i) == [1, 2, 2, 1] and "static" not in up.attr
    for read in (graph_def, tf_view(graph_def)):
        np.testing.assert_allclose(run_imported(read, "y:0", {"x:0": X}), want, rtol=1e-6)


def test_state_ops_carry_the_attrs_tfs_definitions_require(tmp_path):
    with tg.Graph().as_default() as g:
        counts = tg.Variable([0, 0, 0], name="counts")
        grown = tg.Variable([], validate_shape=False, name="grown")
        tg.assign(grown, [1.0, 2.0], validate_shape=False, name="grow")
        tg.scatter_add(counts, tg.constant([0, 2], tg.int64), [5, 7], name="scatter")
        tg.summary.merge([tg.summary.scalar("a", 1.0), tg.summary.scalar("b", 2.0)], name="merged")
        tg.strings.join(["a", "b"], name="joined")
        picked = tg.cond(tg.constant(True), lambda: tg.assign(counts, [1, 2, 3]), lambda: tg.identity(counts))
        graph_def = g.as_graph_def()
    nodes = _nodes(graph_def)
    assert nodes["grown"].attr["shape"].shape.unknown_rank and not nodes["grow"].attr["validate_shape"].b
    assert nodes["scatter"].attr["Tindices"].type == tg.int64.as_datatype_enum
    by_op = {n.op: n for n in graph_def.node}
    assert by_op["MergeSummary"].attr["N"].i == 2 and by_op["StringJoin"].attr["N"].i == 2
    assert any(n.op == "RefSwitch" and n.input[0] == "counts" for n in graph_def.node)  # TF1's cond of a variable
    with tg.Graph().as_default():
        tg.import_graph_def(graph_def, name="")
        with tg.Session() as sess:
            sess.run(["counts/Assign", "grow"])
            assert sess.run("grown:0").tolist() == [1.0, 2.0]
            sess.run("scatter")
            assert sess.run(picked.name).tolist() == [1, 2, 3]


def test_a_queue_is_tfs_and_reads_back():
    with tg.Graph().as_default() as g:
        queue = tg.FIFOQueue(4, [tg.float32, tg.int32], name="q")
        queue.enqueue_many([[1.0, 2.0], [3, 4]], name="enqueue")
        queue.dequeue(name="take")
        tg.PaddingFIFOQueue(2, [tg.float32], shapes=[[None]], name="padded").enqueue([[1.0, 2.0]], name="put")
        graph_def = g.as_graph_def()
    nodes = _nodes(graph_def)
    assert list(nodes["enqueue"].attr["Tcomponents"].list.type) == [tg.float32.as_datatype_enum,
                                                                     tg.int32.as_datatype_enum]
    assert list(nodes["q"].attr["shapes"].list.shape) == []  # TF's: none where a component's shape is unknown
    assert tg.TensorShape(nodes["padded"].attr["shapes"].list.shape[0]).as_list() == [None]
    with tg.Graph().as_default():
        tg.import_graph_def(graph_def, name="")
        with tg.Session() as sess:
            sess.run(["enqueue", "put"])
            assert [v.item() for v in sess.run(["take:0", "take:1"])] == [1.0, 3]


SPARSE_UPDATES = {  # TF1's sparse update op of each optimizer, and its number of inputs in TF's op definition
    "SparseApplyMomentum": (lambda: tg.train.MomentumOptimizer(0.25, 0.875, use_nesterov=True), 6),
    "SparseApplyAdagrad": (lambda: tg.train.AdagradOptimizer(0.25), 5),
    "SparseApplyRMSProp": (lambda: tg.train.RMSPropOptimizer(0.25, momentum=0.5), 9),
    "SparseApplyCenteredRMSProp": (lambda: tg.train.RMSPropOptimizer(0.25, momentum=0.5, centered=True), 10),
    "SparseApplyAdadelta": (lambda: tg.train.AdadeltaOptimizer(1.0), 8),
    "SparseApplyFtrl": (lambda: tg.train.FtrlOptimizer(0.25, l1_regularization_strength=0.0625), 9),
    "SparseApplyFtrlV2": (lambda: tg.train.FtrlOptimizer(0.25, l2_shrinkage_regularization_strength=0.25), 10),
    "SparseApplyProximalAdagrad": (lambda: tg.train.ProximalAdagradOptimizer(0.25, l1_regularization_strength=0.0625),
                                   7),
    "SparseApplyProximalGradientDescent": (
        lambda: tg.train.ProximalGradientDescentOptimizer(0.25, l1_regularization_strength=0.0625), 6),
}


def test_sparse_updates_are_tfs_sparse_apply_ops_and_train_alike():
    """TF 2.15 imported and ran each of these graphs to ringflow's values when they were written (by hand)."""
    for op_type, (make, inputs) in SPARSE_UPDATES.items():
        with tg.Graph().as_default() as g:
            v = tg.Variable(np.arange(12, dtype=np.float32).reshape(6, 2), name="v")
            make().minimize(tg.reduce_sum(tg.gather(v, tg.constant([0, 2, 2], tg.int64)) ** 2), name="train")
            with tg.Session() as sess:
                sess.run(tg.global_variables_initializer())
                want = _two_steps(sess)
            graph_def = g.as_graph_def()
        update = next(n for n in graph_def.node if n.op.startswith("SparseApply"))
        assert update.op == op_type and len(update.input) == inputs
        assert update.attr["Tindices"].type == tg.int64.as_datatype_enum
        for read in (graph_def, tf_view(graph_def)):
            with tg.Graph().as_default():
                tg.import_graph_def(read, name="")
                with tg.Session() as sess:
                    sess.run([op for op in tg.get_default_graph().get_operations() if op.name.endswith("/Assign")])
                    got = _two_steps(sess)
            np.testing.assert_array_equal(got, want)


def _two_steps(sess):
    """The variable after each of two runs of the train op."""
    found = []
    for _ in range(2):
        sess.run("train")
        found.append(sess.run("v:0").copy())
    return found
