"""tf.test.assert_equal_graph_def: GraphDefs compared node by node, as TF's EqualGraphDef compares them."""
import pytest

import trainer as tg


def graph_def(build):
    with tg.Graph().as_default() as graph:
        build()
    return graph.as_graph_def()


def two_constants(first="a", second="b"):
    tg.constant(1.0, name=first)
    tg.constant(2.0, name=second)


def test_node_order_does_not_matter_but_every_node_must_match():
    tg.test.assert_equal_graph_def(graph_def(two_constants), graph_def(lambda: two_constants()))
    tg.test.assert_equal_graph_def(graph_def(lambda: two_constants("b", "a")),
                                   graph_def(lambda: (tg.constant(2.0, name="a"), tg.constant(1.0, name="b"))))
    with pytest.raises(AssertionError, match="Did not find expected node 'b'"):
        tg.test.assert_equal_graph_def(graph_def(lambda: tg.constant(1.0, name="a")), graph_def(two_constants))
    with pytest.raises(AssertionError, match="Found unexpected node 'b'"):
        tg.test.assert_equal_graph_def(graph_def(two_constants), graph_def(lambda: tg.constant(1.0, name="a")))
    with pytest.raises(AssertionError, match="Node named 'a' has attr 'value'"):
        tg.test.assert_equal_graph_def(graph_def(lambda: tg.constant(1.0, name="a")),
                                       graph_def(lambda: tg.constant(3.0, name="a")))


def test_ops_and_inputs_are_compared():
    add = graph_def(lambda: tg.add(tg.constant(1.0, name="a"), tg.constant(2.0, name="b"), name="c"))
    swapped = graph_def(lambda: tg.add(tg.constant(2.0, name="b"), tg.constant(1.0, name="a"), name="c"))
    sub = graph_def(lambda: tg.subtract(tg.constant(1.0, name="a"), tg.constant(2.0, name="b"), name="c"))
    with pytest.raises(AssertionError, match="Node named 'c' has op 'Sub' that does not match expected 'Add'"):
        tg.test.assert_equal_graph_def(sub, add)
    with pytest.raises(AssertionError, match="Node named 'c' has inputs"):
        tg.test.assert_equal_graph_def(swapped, add)


def test_only_graph_defs_are_compared():
    with pytest.raises(TypeError, match="Expected tf.GraphDef for expected, got int"):
        tg.test.assert_equal_graph_def(graph_def(two_constants), 2)
