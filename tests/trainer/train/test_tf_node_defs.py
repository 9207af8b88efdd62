"""Exported nodes take TF's form where ringflow's op keeps an input as an attr (ConcatV2's axis, StridedSlice's
key), so TensorFlow imports them (scripts/record_tf_files.py check), and ringflow's import rebuilds the graph as
it was built: same values from the same feeds."""
import numpy as np
import pytest

import trainer as tg
from trainer.train.tf_node_defs import strided_slice_key
from trainer.train.tf_nodes import ORIGINAL


def test_nodes_are_exported_in_tfs_form_and_import_back_to_the_same_values(tmp_path):
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [None, 3], name="x")
        parts = tg.concat([x, 2.0 * x], axis=1, name="both")
        y = tg.identity(tg.reduce_sum(parts[1:, ::2], axis=0) + tg.cast(tg.shape(x)[0], tg.float32), name="y")
        feed = {x: np.arange(12, dtype=np.float32).reshape(4, 3)}
        with tg.Session() as sess:
            want = sess.run(y, feed)
        meta = tg.train.export_meta_graph(str(tmp_path / "g.meta"))
    nodes = {n.name: n for n in meta.graph_def.node}
    concat = nodes["both"]
    assert concat.attr["N"].i == 2 and len(concat.input) == 3 and ORIGINAL in concat.attr  # the axis is an input
    sliced = next(n for n in meta.graph_def.node if n.op == "StridedSlice" and n.input[0] == "both")
    assert "key" not in sliced.attr and len(sliced.input) == 4
    assert sliced.attr["begin_mask"].i == 0b10 and sliced.attr["end_mask"].i == 0b11
    with tg.Graph().as_default():
        tg.train.import_meta_graph(str(tmp_path / "g.meta"))
        with tg.Session() as sess:
            np.testing.assert_array_equal(sess.run("y:0", {"x:0": feed[x]}), want)


def test_a_strided_slice_key_reads_tfs_masks():
    class Node:  # a StridedSlice NodeDef's fields: begin, end and strides by name, and the masks
        input = ["x", "b", "e", "s"]
        attr = {"shrink_axis_mask": type("A", (), {"i": 0b001})(), "new_axis_mask": type("A", (), {"i": 0b010})(),
                "ellipsis_mask": type("A", (), {"i": 0b100})(), "end_mask": type("A", (), {"i": 0b1000})()}
    key = strided_slice_key(Node, {"b": [2, 0, 0, 1], "e": [3, 0, 0, 0], "s": [1, 1, 1, -1]})
    assert key == (2, None, Ellipsis, slice(1, None, -1))


def test_fused_batch_norm_is_exported_with_tfs_type_attrs_and_imports_back(tmp_path):
    """TF's FusedBatchNormV3 needs T (the images' dtype) and U (the statistics'): TensorFlow then loads the node."""
    x = np.random.default_rng(3).random((2, 4, 4, 3), dtype=np.float32)
    with tg.Graph().as_default():
        images = tg.placeholder(tg.float32, [None, 4, 4, 3], name="x")
        y = tg.identity(tg.nn.fused_batch_norm(images, tg.constant([1.0, 2.0, 3.0]), tg.constant([0.0, 0.5, 1.0]))[0],
                        name="y")
        with tg.Session() as sess:
            want = sess.run(y, {images: x})
        meta = tg.train.export_meta_graph(str(tmp_path / "g.meta"))
    node = next(n for n in meta.graph_def.node if n.op == "FusedBatchNormV3")
    assert node.attr["T"].type == node.attr["U"].type == tg.float32.as_datatype_enum
    assert node.attr["is_training"].b and ORIGINAL in node.attr
    with tg.Graph().as_default():
        tg.train.import_meta_graph(str(tmp_path / "g.meta"))
        with tg.Session() as sess:
            np.testing.assert_array_equal(sess.run("y:0", {"x:0": x}), want)


def test_a_broadcasting_where_is_written_as_tfs_select_v2_and_reads_back(tmp_path):
    with tg.Graph().as_default():
        flag = tg.placeholder(tg.bool, [], name="flag")
        x = tg.placeholder(tg.float32, [2, 3], name="x")
        tg.where(flag, x, tg.zeros([3]), name="picked")  # batch normalization's training switch, ringflow's way
        tg.where(tg.ones([2, 3], tg.bool), x, x, name="same_shapes")
        meta = tg.train.export_meta_graph(str(tmp_path / "w.meta"))
    ops = {n.name: n.op for n in meta.graph_def.node}
    assert (ops["picked"], ops["same_shapes"]) == ("SelectV2", "Select")  # TF's Select takes equal shapes only
    with tg.Graph().as_default(), tg.Session() as sess:
        tg.train.import_meta_graph(str(tmp_path / "w.meta"))
        x = np.arange(6, dtype=np.float32).reshape(2, 3)
        np.testing.assert_array_equal(sess.run("picked:0", {"flag:0": False, "x:0": x}), np.zeros((2, 3)))
        np.testing.assert_array_equal(sess.run("picked:0", {"flag:0": True, "x:0": x}), x)


@pytest.mark.parametrize("rate", [0.25, "tensor"])
def test_dropout_is_written_as_tfs_ops_and_reads_back_with_its_gradient(tmp_path, rate):
    def run(sess, fetches):
        return sess.run(fetches, {"x:0": np.linspace(1, 2, 12, dtype=np.float32).reshape(3, 4)})
    with tg.Graph().as_default():
        tg.set_random_seed(5)
        x = tg.placeholder(tg.float32, [3, 4], name="x")
        y = tg.nn.dropout(x, rate=tg.constant(0.25) if rate == "tensor" else rate)
        tg.identity(tg.gradients(tg.reduce_sum(y * y), x)[0], name="dx")
        tg.identity(y, name="y")
        with tg.Session() as sess:
            want = run(sess, ["y:0", "dx:0"])
        meta = tg.train.export_meta_graph(str(tmp_path / "d.meta"))
    ops = {n.name: n.op for n in meta.graph_def.node}
    assert "Dropout" not in ops.values()  # TensorFlow has no such op
    assert ops["dropout/mul_1"] == "SelectV2" and ops["dropout/mul_1/random_uniform"] == "RandomUniform"
    with tg.Graph().as_default(), tg.Session() as sess:
        tg.train.import_meta_graph(str(tmp_path / "d.meta"))
        got = run(sess, ["y:0", "dx:0"])
    for a, b in zip(got, want):
        np.testing.assert_array_equal(a, b)
    assert 0 < np.count_nonzero(got[0]) < got[0].size


def test_transpose_split_all_and_assert_are_written_as_tfs_ops_and_import_back(tmp_path):
    """TF's Transpose takes its permutation as an input, Split (equal parts) its dimension and SplitV its sizes,
    All its axes; Assert lists its data inputs' types in T. ringflow reads its own nodes back to the same values."""
    value = np.arange(12, dtype=np.float32).reshape(3, 4) - 5.0
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [3, 4], name="x")
        halves = tg.split(tg.transpose(x, name="flipped"), 2, axis=0, name="halves")
        thirds = tg.split(x, [1, 3], axis=1, name="thirds")
        check = tg.Assert(tg.reduce_all(tg.is_finite(x), name="finite"), [x, tg.shape(x)], name="check")
        with tg.control_dependencies([check]):
            y = tg.identity(tg.concat([halves[1], tg.transpose(thirds[0])], axis=0), name="y")
        with tg.Session() as sess:
            want = sess.run(y, {x: value})
        meta = tg.train.export_meta_graph(str(tmp_path / "g.meta"))
    nodes = {n.name: n for n in meta.graph_def.node}
    assert nodes["flipped"].op == "Transpose" and len(nodes["flipped"].input) == 2
    assert nodes["halves"].op == "Split" and nodes["halves"].attr["num_split"].i == 2
    assert nodes["thirds"].op == "SplitV" and nodes["thirds"].input[0] == "x" and len(nodes["thirds"].input) == 3
    assert len(nodes["finite"].input) == 2
    assert list(nodes["check"].attr["T"].list.type) == [tg.float32.as_datatype_enum, tg.int32.as_datatype_enum]
    with tg.Graph().as_default():
        tg.train.import_meta_graph(str(tmp_path / "g.meta"))
        with tg.Session() as sess:
            np.testing.assert_array_equal(sess.run("y:0", {"x:0": value}), want)


def test_a_slice_at_positions_the_run_gives_is_written_as_tfs_strided_slice_and_imports_back(tmp_path):
    """x[i, 1:] and x[1:i + 2, i] with a fed i: TF's StridedSlice takes begin, end and strides as the Pack of each
    position (a Const, or the fed tensor; an index's end is that tensor plus one)."""
    value = np.arange(12, dtype=np.float32).reshape(4, 3)
    with tg.Graph().as_default():
        x, i = tg.placeholder(tg.float32, [4, 3], name="x"), tg.placeholder(tg.int32, [], name="i")
        tg.identity(x[i, 1:], name="row")
        tg.identity(x[1:i + 2, i], name="column")
        with tg.Session() as sess:
            want = sess.run(["row:0", "column:0"], {x: value, i: 1})
        meta = tg.train.export_meta_graph(str(tmp_path / "g.meta"))
    nodes = {n.name: n for n in meta.graph_def.node}
    sliced = nodes["strided_slice"]
    assert "key" not in sliced.attr and sliced.attr["shrink_axis_mask"].i == 1
    begin, end = nodes[sliced.input[1]], nodes[sliced.input[2]]
    assert begin.op == "Pack" and list(begin.input)[0] == "i" and end.op == "Pack"
    assert nodes[end.input[0]].op == "AddV2" and nodes[end.input[0]].input[0] == "i"
    with tg.Graph().as_default():
        tg.train.import_meta_graph(str(tmp_path / "g.meta"))
        with tg.Session() as sess:
            got = sess.run(["row:0", "column:0"], {"x:0": value, "i:0": 1})
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def test_reverse_sequence_is_written_with_tfs_attr_names_and_tfs_reads_back(tmp_path):
    """TF's ReverseSequence names ringflow's seq_axis and batch_axis seq_dim and batch_dim (bidirectional_dynamic_rnn
    over unknown lengths reverses with it); a node TensorFlow wrote imports as ringflow's op."""
    value, lengths = np.arange(12, dtype=np.float32).reshape(2, 3, 2), np.array([3, 1], np.int32)
    with tg.Graph().as_default():
        x, n = tg.placeholder(tg.float32, [None, None, 2], name="x"), tg.placeholder(tg.int32, [None], name="n")
        tg.reverse_sequence(x, n, seq_axis=1, batch_axis=0, name="reversed")
        with tg.Session() as sess:
            want = sess.run("reversed:0", {x: value, n: lengths})
        meta = tg.train.export_meta_graph(str(tmp_path / "g.meta"))
    node = next(n for n in meta.graph_def.node if n.name == "reversed")
    assert (node.attr["seq_dim"].i, node.attr["batch_dim"].i) == (1, 0) and "seq_axis" not in node.attr
    del node.attr[ORIGINAL]  # as TensorFlow writes it
    with tg.Graph().as_default(), tg.Session() as sess:
        tg.train.import_meta_graph(meta)
        np.testing.assert_array_equal(sess.run("reversed:0", {"x:0": value, "n:0": lengths}), want)


def test_a_range_is_exported_as_tfs_range_of_its_dtype():
    # TF's own graph for these calls, node for node (recorded with TF 2.15's tf.compat.v1): Consts of the dtype
    # asked for, a Cast of an input of another dtype, and Range's Tidx; TensorFlow imports and runs the export
    with tg.Graph().as_default():
        n = tg.placeholder(tg.int32, [], name="n")
        ranges = [tg.range(0, 5, dtype=tg.float32, name="r"), tg.range(3, 7.5), tg.range(n, dtype=tg.float32)]
        with tg.Session() as sess:
            want = sess.run(ranges, {n: 3})
        meta = tg.train.export_meta_graph()
    nodes = {node.name: node for node in meta.graph_def.node}
    assert [nodes["r"].attr["Tidx"].type, nodes["range"].attr["Tidx"].type] == [tg.float32.as_datatype_enum] * 2
    assert "T" not in nodes["r"].attr
    assert list(nodes["r"].input) == ["r/start", "r/limit", "r/delta"] and nodes["r/start"].op == "Const"
    assert list(nodes["range"].input) == ["range/Cast", "range/limit", "range/Cast_1"]
    assert list(nodes["range_1"].input) == ["range_1/start", "range_1/Cast", "range_1/delta"]
    assert [v.tolist() for v in want] == [[0, 1, 2, 3, 4], [3, 4, 5, 6, 7], [0, 1, 2]]
    with tg.Graph().as_default():
        tg.train.import_meta_graph(meta)
        with tg.Session() as sess:
            got = sess.run(["r:0", "range:0", "range_1:0"], {"n:0": 3})
    assert [v.tolist() for v in got] == [v.tolist() for v in want] and got[0].dtype == np.float32
