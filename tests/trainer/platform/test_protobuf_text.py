"""Protobuf's text format read back into ringflow's messages: TF's own printout of a graph, and ours round trip."""
import pathlib

import numpy as np
import pytest

import trainer as tg
from trainer.framework.node_def import AttrValue
from trainer.platform import protobuf_text

TF_GRAPH = pathlib.Path(__file__).parent / "fixtures" / "tf_graph.pbtxt"


def test_tensorflows_printed_graph_reads_back_and_runs():
    graph_def = protobuf_text.parse(TF_GRAPH.read_text(), tg.GraphDef())
    assert [node.name for node in graph_def.node][:2] == ["x", "s"]
    assert graph_def.node[1].attr["value"].tensor.string_val == [b"a\x00b", "é".encode()]
    assert graph_def.node[0].attr["dtype"].type == tg.float32.as_datatype_enum
    with tg.Graph().as_default():
        tg.import_graph_def(graph_def, name="")
        with tg.Session() as sess:
            sess.run("w/Assign")
            got = sess.run("y:0", {"x:0": np.array([[2.0, 1.0]], np.float32)})
    np.testing.assert_array_equal(got, [[1.0]])


def test_our_text_reads_back_to_the_same_message():
    with tg.Graph().as_default() as graph:
        tg.constant([[1.0, 2.5e-8], [np.inf, -0.0]], name="c")
        tg.constant(["tab\there", "quote\"'"], name="s")
        tg.identity(tg.placeholder(tg.int64, [None]), name="i")
    graph_def = graph.as_graph_def(add_shapes=True)
    assert protobuf_text.parse(str(graph_def), tg.GraphDef()) == graph_def


def test_lists_comments_and_angle_brackets_are_text_format_too():
    value = protobuf_text.parse("list < i: [1, 2, 0x10] s: 'a' 'b' >  # a comment\n", AttrValue())
    assert list(value.list.i) == [1, 2, 16] and list(value.list.s) == [b"ab"]


def test_what_cannot_be_read_is_named():
    with pytest.raises(ValueError, match="expected '}' to close a NodeDef, found the end"):
        protobuf_text.parse("node { name: 'x'", tg.GraphDef())
    with pytest.raises(AttributeError, match="GraphDef has no field 'nodes'"):
        protobuf_text.parse("nodes {}", tg.GraphDef())


def test_protobufs_json_form_reads_into_a_message():
    value = protobuf_text.parse_json('{"list": {"i": ["7", 8], "s": ["YWI=", "-_8"], "f": ["NaN", 1.5]}}',
                                     AttrValue())
    assert list(value.list.i) == [7, 8] and list(value.list.s) == [b"ab", b"\xfb\xff"]
    assert np.isnan(value.list.f[0]) and value.list.f[1] == 1.5
    node = protobuf_text.parse_json('{"name": "n", "attr": {"T": {"type": "DT_FLOAT"}}}', tg.NodeDef())
    assert node.attr["T"].type == tg.float32.as_datatype_enum
    with pytest.raises(ValueError, match="NodeDef has no field 'nme'"):
        protobuf_text.parse_json('{"nme": "n"}', tg.NodeDef())
    with pytest.raises(ValueError, match="not JSON"):
        protobuf_text.parse_json("{name", tg.NodeDef())
