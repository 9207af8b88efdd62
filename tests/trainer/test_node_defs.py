"""Operation.node_def: the op as a tg.NodeDef, parsed back by protobuf's own NodeDef (tensorboardX's copy of TF's
node_def.proto) field by field."""
import numpy as np
import pytest

import trainer as tg

node_def_pb2 = pytest.importorskip("tensorboardX.proto.node_def_pb2")


def _parsed(op):
    node = node_def_pb2.NodeDef()
    node.ParseFromString(op.node_def.SerializeToString())
    return node


def test_node_def_has_name_type_inputs_device_and_attrs():
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [1, 1, 2, 1], name="x")
        c = tg.constant(np.array([1.5, -2.0], dtype=np.float32), name="c")
        with tg.device("/cpu:0"), tg.control_dependencies([c.op]):
            pool = tg.nn.max_pool(x, [1, 1, 2, 1], [1, 1, 1, 1], "SAME", name="pool")
        pair = tg.nn.top_k(tg.reshape(x, [2]), 1, name="top")
        picked = tg.identity(pair[1], name="picked")
        assert isinstance(pool.op.node_def, tg.NodeDef)
        node = _parsed(pool.op)
        assert (node.name, node.op, list(node.input)) == ("pool", "MaxPool", ["x", "^c"])
        assert node.device == pool.op.device != ""
        assert node.attr["T"].type == tg.float32.as_datatype_enum and node.attr["padding"].s == b"SAME"
        assert list(node.attr["ksize"].list.i) == list(pool.op.get_attr("ksize"))
        assert list(_parsed(picked.op).input) == ["top:1"]
        const = _parsed(c.op).attr["value"].tensor
        assert const.dtype == tg.float32.as_datatype_enum and [d.size for d in const.tensor_shape.dim] == [2]
        np.testing.assert_array_equal(np.frombuffer(const.tensor_content, "<f4"), [1.5, -2.0])
        assert str(pool.op.node_def).startswith('name: "pool"\nop: "MaxPool"\ninput: "x"\ninput: "^c"\n')
