"""op.node_def, graph.as_graph_def() and tf.NodeDef as TF1 programs read them, and TF1's older names arg_max and
arg_min; the expected text is TF1's protobuf text format of these nodes, written out by hand."""
import numpy as np
import pytest

import trainer as tg


def test_node_def_fields_and_text():
    with tg.Graph().as_default() as g:
        x = tg.placeholder(tg.float32, [None, 2], name="x")
        with g.device("/cpu:0"):
            y = tg.nn.relu(x * 2.0, name="y")
        with tg.control_dependencies([x.op]):
            z = tg.identity(y, name="z")
    nd = y.op.node_def
    assert isinstance(nd, tg.NodeDef)
    assert (nd.name, nd.op, nd.input, nd.device) == ("y", "Relu", ["mul"], "/device:CPU:0")
    assert nd.attr["T"].type == tg.float32.as_datatype_enum == 1
    assert nd.attr["T"].WhichOneof("value") == "type" and tg.as_dtype(nd.attr["T"].type) == tg.float32
    assert z.op.node_def.input == ["y", "^x"]
    assert str(z.op.node_def) == ('name: "z"\nop: "Identity"\ninput: "y"\ninput: "^x"\n'
                                  'attr {\n  key: "T"\n  value {\n    type: DT_FLOAT\n  }\n}\n')
    assert str(z.op) == str(z.op.node_def)
    assert x.op.node_def.attr["dtype"].type == 1 and "T" not in x.op.node_def.attr


def test_graph_def_lists_every_node_in_creation_order():
    with tg.Graph().as_default() as g:
        a = tg.constant([1.0, 2.0], name="a")
        b = tg.square(a, name="b")
        _, second = tg.split(tg.stack([a, b]), 2, name="parts")
        tg.identity(second, name="e")
    gd = g.as_graph_def()
    # then the Const TF's Split takes its axis from (TF makes it before the Split; a GraphDef's order is free)
    assert [n.name for n in gd.node] == [op.name for op in g.get_operations()] + ["parts/split_dim"]
    split = gd.node[-3]
    assert (split.op, split.input, split.attr["num_split"].i) == ("Split", ["parts/split_dim", "stack"], 2)
    assert [n.op for n in gd.node][:2] == ["Const", "Square"]
    assert gd.node[1].input == ["a"] and gd.node[-2].input == ["parts:1"]
    assert gd.node[0].attr["value"].WhichOneof("value") == "tensor"
    np.testing.assert_array_equal(tg.make_ndarray(gd.node[0].attr["value"].tensor), [1.0, 2.0])
    assert str(gd).startswith('node {\n  name: "a"\n  op: "Const"\n')
    shapes = g.as_graph_def(add_shapes=True).node[1].attr["_output_shapes"].list.shape
    assert [tg.TensorShape(s).as_list() for s in shapes] == [[2]]
    with tg.Session(graph=g) as sess:
        assert sess.graph_def == gd


def test_node_def_built_by_hand_as_tf1_programs_do():
    nd = tg.NodeDef(name="n", op="Const", attr={"dtype": tg.AttrValue(type=tg.int32.as_datatype_enum)})
    assert nd.name == "n" and nd.input == [] and nd.attr["dtype"].type == 3
    assert str(nd) == 'name: "n"\nop: "Const"\nattr {\n  key: "dtype"\n  value {\n    type: DT_INT32\n  }\n}\n'
    assert tg.AttrValue(i=3) == tg.AttrValue(i=3) != tg.AttrValue(f=3.0)
    assert tg.AttrValue().WhichOneof("value") is None and tg.AttrValue(b=True).i == 0


def test_arg_max_and_arg_min_take_dimension():
    values = np.array([[3.0, 1.0, 2.0], [0.0, 5.0, -1.0]])
    with tg.Graph().as_default():
        x = tg.constant(values)
        out = [tg.arg_max(x, 1), tg.arg_min(x, dimension=0), tg.arg_max(x, 0, output_type=tg.int32)]
        with tg.Session() as sess:
            got = sess.run(out)
    np.testing.assert_array_equal(got[0], values.argmax(1))
    np.testing.assert_array_equal(got[1], values.argmin(0))
    assert got[0].dtype == np.int64 and got[2].dtype == np.int32


def test_graph_def_bytes_are_tf1s():
    graph_pb2 = pytest.importorskip("tensorboardX.proto.graph_pb2")  # TF's graph.proto, compiled by protobuf
    with tg.Graph().as_default() as g:
        x = tg.placeholder(tg.float32, [None, 2], name="x")
        c = tg.constant([[1.5, -2.0]], name="c")
        with g.device("/cpu:0"), tg.control_dependencies([c.op]):
            tg.nn.max_pool(tg.reshape(x + c, [-1, 1, 2, 1]), [1, 1, 2, 1], [1, 1, 1, 1], "VALID", name="pool")
        tg.constant(["a", "bé"], name="words")
    ours = g.as_graph_def(add_shapes=True)
    theirs = graph_pb2.GraphDef.FromString(ours.SerializeToString())
    nodes = {n.name: n for n in theirs.node}
    assert [n.name for n in theirs.node] == [n.name for n in ours.node]
    assert nodes["x"].attr["dtype"].type == 1 and [d.size for d in nodes["x"].attr["shape"].shape.dim] == [-1, 2]
    value = nodes["c"].attr["value"].tensor
    assert (value.dtype, [d.size for d in value.tensor_shape.dim]) == (1, [1, 2])
    np.testing.assert_array_equal(np.frombuffer(value.tensor_content, "<f4"), [1.5, -2.0])
    assert list(nodes["words"].attr["value"].tensor.string_val) == [b"a", "bé".encode()]
    pool = nodes["pool"]
    assert (pool.device, pool.input[-1]) == ("/device:CPU:0", "^c")
    assert list(pool.attr["ksize"].list.i) == [1, 1, 2, 1]  # TF's 4-D NHWC window, as the program gave it
    assert pool.attr["padding"].s == b"VALID"
    assert [d.size for d in pool.attr["_output_shapes"].list.shape[0].dim] == [-1, 1, 1, 1]
    assert tg.GraphDef.FromString(theirs.SerializeToString()) == ours
    np.testing.assert_array_equal(tg.make_ndarray(tg.make_tensor_proto([[1, 2]], tg.int64)), [[1, 2]])


@pytest.mark.parametrize("value, field", [
    (np.float32(2.5), "float_val"), (np.array([1.5, 2.0], np.float32), "tensor_content"),
    (np.int32(7), "int_val"), (np.array([1, 2], np.int16), "tensor_content"), (np.int64(7), "int64_val"),
    (np.array([True, False]), "bool_val"), (np.array([b"a", b"bc"], dtype=object), "string_val"),
    (np.float16(1.5), "half_val"), (np.array([1.5, 2.0], np.float16), "tensor_content"),
    (np.array([1 + 2j, 3 - 1j], np.complex64), "scomplex_val"), (np.array([7, 8], np.uint16), "int_val"),
    (np.zeros((0, 2), np.float32), None)])
def test_make_tensor_proto_uses_the_field_tf_chooses_and_make_ndarray_reads_it_back(value, field):
    proto = tg.make_tensor_proto(value)
    assert [name for name, _ in proto.ListFields() if name not in ("dtype", "tensor_shape")] == \
        ([field] if field else [])
    back = tg.make_ndarray(proto)
    assert back.dtype == np.asarray(value).dtype and back.tolist() == np.asarray(value).tolist()


def test_one_value_for_a_larger_shape_is_stored_once_as_tf_fills_it():
    proto = tg.make_tensor_proto(np.float32(0.5), shape=[2, 3])
    assert list(proto.float_val) == [0.5] and tg.TensorShape(proto.tensor_shape).as_list() == [2, 3]
    assert tg.make_ndarray(proto).tolist() == [[0.5] * 3] * 2
    assert tg.make_ndarray(tg.make_tensor_proto("ab", shape=[2])).tolist() == [b"ab", b"ab"]
