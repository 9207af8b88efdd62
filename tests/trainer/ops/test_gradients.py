"""tg.gradients: a graph-to-graph transform with None for unconnected inputs and summed fan-out."""
import numpy as np
import pytest

import trainer as tg
from trainer.framework.registry import OPS, register

if "NoGradientForTests" not in OPS:
    register("NoGradientForTests", lambda x: x * 1)


def test_fan_out_gradients_are_summed():
    with tg.Graph().as_default():
        x = tg.constant([1.0, -2.0, 3.0])
        y = x * x + x + tg.exp(x) * 0.0
        g, = tg.gradients(tg.reduce_sum(y), [x])
        with tg.Session() as sess:
            np.testing.assert_allclose(sess.run(g), 2 * np.array([1.0, -2.0, 3.0]) + 1)


def test_unconnected_and_integer_inputs_get_none():
    with tg.Graph().as_default():
        x, z = tg.constant(1.0), tg.constant(2.0)
        n = tg.constant(3)
        y = x * tg.cast(n, tg.float32)
        assert tg.gradients(y, [x, z, n])[1:] == [None, None]


def test_missing_rule_raises_naming_the_op_type_and_op():
    from trainer.framework.registry import apply_op
    with tg.Graph().as_default():
        x = tg.constant([1.0])
        y = apply_op("NoGradientForTests", [x], name="mystery")
        with pytest.raises(NotImplementedError, match="'NoGradientForTests'.*'mystery'"):
            tg.gradients(tg.reduce_sum(y), [x])


def test_grad_ys_and_several_ys():
    with tg.Graph().as_default():
        x = tg.constant([1.0, 2.0])
        g, = tg.gradients([x * 3.0, tg.square(x)], [x], grad_ys=[tg.constant([1.0, 0.0]), tg.constant([0.5, 0.5])])
        with tg.Session() as sess:
            np.testing.assert_allclose(sess.run(g), [3.0 + 1.0, 2.0])


def test_gradients_add_named_ops_to_the_same_graph_and_run_in_one_session():
    graph = tg.Graph()
    with graph.as_default():
        x = tg.placeholder(tg.float64, [None, 2], name="x")
        w = tg.Variable(np.array([[1.0], [2.0]]), name="w")
        loss = tg.reduce_mean(tg.square(tg.matmul(x, w)))
        before = len(graph.get_operations())
        g, = tg.gradients(loss, [w])
        new = graph.get_operations()[before:]
        assert new and all(op.name.startswith("gradients/") for op in new)
        assert g.graph is graph and g.shape == (2, 1)
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            xv = np.array([[1.0, 1.0], [0.0, 2.0]])
            expected = 2 * xv.T @ (xv @ np.array([[1.0], [2.0]])) / 2
            np.testing.assert_allclose(sess.run(g, {x: xv}), expected)


def test_gradient_through_shared_subexpression_and_reuse():
    with tg.Graph().as_default():
        x = tg.constant(np.array([0.5, 1.5]))
        h = tg.nn.tanh(x)
        y = tg.reduce_sum(h * h + h)
        g, = tg.gradients(y, [x])
        g2, = tg.gradients(y, [x])
        with tg.Session() as sess:
            t = np.tanh([0.5, 1.5])
            expected = (2 * t + 1) * (1 - t * t)
            np.testing.assert_allclose(sess.run(g), expected)
            np.testing.assert_allclose(sess.run(g2), expected)
