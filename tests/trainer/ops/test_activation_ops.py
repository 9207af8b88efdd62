"""selu, softsign and the other activations, with first and second order gradients."""
import numpy as np

import trainer as tg
from tests.trainer.op_oracle import check_op, numerical_gradient, torch

RNG = np.random.default_rng(7)


def run(fetches, feed=None):
    with tg.Session() as sess:
        return sess.run(fetches, feed)


def _selu_np(x):
    return 1.0507009873554805 * np.where(x > 0, x, 1.6732632423543772 * np.expm1(np.minimum(x, 0)))


def test_activations_and_their_gradients():
    x = RNG.standard_normal((3, 4)) * 2
    x[np.abs(x) < 1e-3] = 0.5  # keep finite differences away from the kinks
    check_op(tg.nn.selu, [x], numpy_fn=_selu_np, torch_fn=torch and torch.selu)
    check_op(tg.nn.softsign, [x], numpy_fn=lambda a: a / (1 + np.abs(a)),
             torch_fn=torch and torch.nn.functional.softsign)
    check_op(tg.nn.swish, [x], numpy_fn=lambda a: a / (1 + np.exp(-a)), torch_fn=torch and torch.nn.functional.silu)
    check_op(tg.nn.crelu, [x], numpy_fn=lambda a: np.maximum(np.concatenate([a, -a], -1), 0))
    check_op(lambda t: tg.nn.crelu(t, axis=0), [x], numpy_fn=lambda a: np.maximum(np.concatenate([a, -a], 0), 0))


def test_second_order_gradients_of_selu_and_softsign():
    x = np.array([-1.5, -0.3, 0.4, 2.0])
    for fn in (tg.nn.selu, tg.nn.softsign):
        with tg.Graph().as_default():
            p = tg.placeholder(tg.float64, [4])
            g, = tg.gradients(tg.reduce_sum(fn(p)), [p])
            gg, = tg.gradients(tg.reduce_sum(g * g), [p])
            with tg.Session() as sess:
                value = sess.run(gg, {p: x})
                numeric, = numerical_gradient(lambda v: np.sum(sess.run(g, {p: v[0]}) ** 2), [x])
        np.testing.assert_allclose(value, numeric, rtol=1e-5, atol=1e-6, err_msg=fn.__name__)
