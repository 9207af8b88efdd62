"""tensorflow.python.framework.ops: the TF1 cookbooks' `from tensorflow.python.framework import ops;
ops.reset_default_graph()` idiom, and the graph names the module carries, as TF1's."""
import numpy as np
import pytest

import trainer as tg
from trainer.python.framework import ops
from trainer.unsupported import NotInRingflow


def test_reset_default_graph_through_ops_starts_a_fresh_default_graph():
    ops.reset_default_graph()
    first = tg.constant(2.0, name="x")
    assert ops.get_default_graph() is tg.get_default_graph() is first.graph
    ops.reset_default_graph()
    again = tg.constant(3.0, name="x")
    assert again.name == "x:0" and again.graph is not first.graph  # a fresh graph: the name is free again
    with tg.Session() as sess:
        assert sess.run(again) == 3.0 and ops.get_default_session() is sess


def test_graph_names_are_the_tf_namespace_names():
    with ops.Graph().as_default() as g:
        x = ops.convert_to_tensor(np.arange(3.0), name="v")
        with ops.name_scope("outer"), ops.control_dependencies([x.op]):
            y = tg.identity(x)
        ops.add_to_collection("mine", y)
        assert isinstance(y, ops.Tensor) and isinstance(y.op, ops.Operation)
        assert y.op.name == "outer/Identity" and x.op in y.op.control_inputs
        assert ops.get_collection("mine") == [y] and g.get_collection(ops.GraphKeys.GLOBAL_VARIABLES) == []


def test_names_it_lacks_say_what_it_has():
    with pytest.raises(NotInRingflow, match="RegisterGradient.*it has Graph"):
        ops.RegisterGradient
