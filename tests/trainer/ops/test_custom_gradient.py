"""tf.custom_gradient: the decorated function's outputs as they are, its grad_fn as their gradient."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import fresh_graph  # noqa: F401 (fresh_graph: autouse)


@tg.custom_gradient
def log1pexp(x):
    e = tg.exp(x)
    return tg.log(1 + e), lambda dy: dy * (1 - 1 / (1 + e))  # stable where the naive gradient is inf / inf


@tg.custom_gradient
def reverse_gradient(x, scale):
    return tg.identity(x), lambda dy: (-scale * dy, None)  # a gradient reversal layer


def test_the_outputs_are_fs_and_the_gradient_grad_fns():
    x = tg.constant([0.0, 1000.0], tg.float64)
    y = log1pexp(x)
    grad = tg.gradients(y, x)[0]
    with tg.Session() as sess, np.errstate(over="ignore"):
        value, g = sess.run([y, grad])
    np.testing.assert_allclose(value, [np.log(2.0), np.inf])
    np.testing.assert_allclose(g, [0.5, 1.0])


def test_each_argument_gets_its_gradient_and_nothing_flows_through_fs_ops():
    x, scale = tg.constant([1.0, -2.0]), tg.constant(0.5)
    loss = tg.reduce_sum(reverse_gradient(x, scale) * 3.0)
    g_x, g_scale = tg.gradients(loss, [x, scale])
    with tg.Session() as sess:
        np.testing.assert_allclose(sess.run(g_x), [-1.5, -1.5])
    assert g_scale is None


def test_a_grad_fn_returning_the_wrong_count_or_wanting_variables_is_refused():
    wrong = tg.custom_gradient(lambda x: (x * 2.0, lambda dy: (dy, dy)))
    x = tg.constant(1.0)
    with pytest.raises(ValueError, match="returned 2 gradients for 1 Tensor arguments"):
        tg.gradients(wrong(x), x)
    with_vars = tg.custom_gradient(lambda x: (x, lambda dy, variables=None: dy))
    with pytest.raises(NotImplementedError, match="variables"):
        with_vars(tg.constant(1.0))


def test_grad_pass_through_keeps_the_forward_and_passes_the_gradient_on():
    x = tg.constant([0.4, 1.6, -2.5])
    y = tg.grad_pass_through(tg.round)(x)
    grad = tg.gradients(y * 3.0, x)[0]
    with tg.Session() as sess:
        value, g = sess.run([y, grad])
    np.testing.assert_array_equal(value, np.round([0.4, 1.6, -2.5]))
    np.testing.assert_array_equal(g, [3.0, 3.0, 3.0])
