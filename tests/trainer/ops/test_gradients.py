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


def test_grad_ys_keep_their_own_dtype_as_tf1_does():
    # TF1 checks only that a real y gets a real grad_y and casts nothing: through ops whose gradient passes
    # it on, a float32 grad_y gives float64 x a float32 gradient; an op that mixes it with float64 refuses
    with tg.Graph().as_default():
        x = tg.constant([1.0, 2.0], tg.float64)
        given = tg.constant([0.5, 3.0], tg.float32)
        passed = [tg.gradients(y, [x], grad_ys=given)[0] for y in (tg.identity(x), x + 1.0)]
        from_list, = tg.gradients(x + 1.0, [x], grad_ys=[[0.5, 3.0]])  # a Python list: float32
        through_cast, = tg.gradients(tg.cast(tg.cast(x, tg.float32), tg.float64), [x], grad_ys=given)
        with tg.Session() as sess:
            values = sess.run(passed + [from_list, through_cast])
        assert [g.dtype for g in passed + [from_list, through_cast]] == [tg.float32] * 3 + [tg.float64]
        for value in values:
            np.testing.assert_array_equal(value, [0.5, 3.0])
        with pytest.raises(TypeError, match="float32.*float64|float64.*float32"):
            tg.gradients(x * 2.0, [x], grad_ys=given)


def test_grad_ys_of_the_wrong_kind_are_refused_naming_the_tensor():
    with tg.Graph().as_default():
        x = tg.constant([1.0, 2.0], tg.float64, name="x")
        with pytest.raises(TypeError, match="bool.*'x:0'.*must be real or integer"):
            tg.gradients(x, [x], grad_ys=tg.constant([True, False]))
        flags = tg.constant([True, False], name="flags")
        with pytest.raises(TypeError, match="'flags:0'.*must be numeric"):
            tg.gradients(flags, [x], grad_ys=tg.constant([1.0, 1.0]))


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


def test_unconnected_gradients_are_none_or_zeros_as_asked():
    x, y = tg.constant([1.0, 2.0]), tg.constant([[3.0]])
    loss = tg.reduce_sum(x * x)
    assert tg.gradients(loss, [x, y])[1] is None
    gx, gy = tg.gradients(loss, [x, y], unconnected_gradients=tg.UnconnectedGradients.ZERO)
    with tg.Session() as sess:
        np.testing.assert_array_equal(sess.run(gy), [[0.0]])
        np.testing.assert_array_equal(sess.run(gx), [2.0, 4.0])
    with pytest.raises(ValueError, match="'some'"):
        tg.gradients(loss, [x], unconnected_gradients="some")


def test_hessians_are_the_second_derivatives_in_x_shape_twice():
    x = tg.constant([[1.0, 2.0], [3.0, 0.5]], tg.float64)
    y = tg.reduce_sum(x[0] ** 3) + x[0, 0] * x[1, 1] + tg.reduce_sum(tg.sin(x[1]))
    (h,) = tg.hessians(y, x)
    assert h.shape == (2, 2, 2, 2)
    with tg.Session() as sess:
        got = sess.run(h).reshape(4, 4)
    expected = np.diag([6.0, 12.0, -np.sin(3.0), -np.sin(0.5)])
    expected[0, 3] = expected[3, 0] = 1.0
    np.testing.assert_allclose(got, expected)
    with pytest.raises(ValueError, match="fully known shape"):
        tg.hessians(y, tg.placeholder(tg.float64, [None]))


def test_a_gradient_of_another_shape_than_its_input_is_refused_naming_the_op():
    @tg.custom_gradient
    def doubled(x):
        return x * 2.0, lambda dy: tg.ones([2])  # a rule giving the wrong shape, as a broadcast one would

    with tg.Graph().as_default():
        x = tg.constant([1.0, 2.0, 3.0])
        with pytest.raises(ValueError, match=r"Incompatible shapes.*Original input shape: \(3,\)"):
            tg.gradients(doubled(x), [x])
