"""conv3d, max_pool3d and avg_pool3d against PyTorch, gradients against numerical ones."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op, fresh_graph, torch  # noqa: F401 (fresh_graph: autouse)
from tests.trainer.ops.test_depthwise_conv_ops import tf_padded

RNG = np.random.default_rng(5)


def torch_conv3d(x, w, strides, padding):
    y = torch.nn.functional.conv3d(tf_padded(x.permute(0, 4, 1, 2, 3), w.shape[:3], strides, padding),
                                   w.permute(4, 3, 0, 1, 2), stride=strides)
    return y.permute(0, 2, 3, 4, 1)


@pytest.mark.parametrize("padding, strides", [("SAME", (1, 1, 1)), ("SAME", (2, 1, 2)), ("VALID", (1, 2, 1))])
def test_conv3d_against_torch(padding, strides):
    x, w = RNG.standard_normal((2, 4, 5, 3, 2)), RNG.standard_normal((2, 3, 2, 2, 3))
    check_op(lambda a, b: tg.nn.conv3d(a, b, [1, *strides, 1], padding), [x, w],
             torch_fn=(lambda a, b: torch_conv3d(a, b, strides, padding)) if torch is not None else None,
             tol32=dict(rtol=1e-4, atol=1e-4))


def torch_pool3d(x, ksize, strides, padding, kind):
    xc = x.permute(0, 4, 1, 2, 3)
    if kind == "max":
        y = torch.nn.functional.max_pool3d(tf_padded(xc, ksize, strides, padding, -float("inf")), ksize, strides)
    else:
        total = torch.nn.functional.avg_pool3d(tf_padded(xc, ksize, strides, padding), ksize, strides,
                                               divisor_override=1)
        ones = torch.ones_like(xc[:1, :1])
        count = torch.nn.functional.avg_pool3d(tf_padded(ones, ksize, strides, padding), ksize, strides,
                                               divisor_override=1)
        y = total / count
    return y.permute(0, 2, 3, 4, 1)


@pytest.mark.parametrize("kind", ["max", "avg"])
@pytest.mark.parametrize("padding, ksize, strides", [("SAME", (2, 2, 2), (2, 2, 2)), ("SAME", (3, 2, 3), (2, 1, 2)),
                                                     ("VALID", (2, 3, 2), (1, 2, 1))])
def test_pool3d_against_torch(kind, padding, ksize, strides):
    x = RNG.standard_normal((2, 5, 4, 5, 2))
    pool = tg.nn.max_pool3d if kind == "max" else tg.nn.avg_pool3d
    check_op(lambda a: pool(a, [1, *ksize, 1], [1, *strides, 1], padding), [x],
             torch_fn=(lambda a: torch_pool3d(a, ksize, strides, padding, kind)) if torch is not None else None)


def test_max_pool3d_routes_ties_to_the_first_maximum():
    x = np.ones((1, 2, 2, 2, 1))
    with tg.Session() as sess:
        xt = tg.constant(x)
        grad = sess.run(tg.gradients(tg.nn.max_pool3d(xt, [1, 2, 2, 2, 1], [1, 2, 2, 2, 1], "VALID"), xt)[0])
    assert grad.ravel().tolist() == [1, 0, 0, 0, 0, 0, 0, 0]


def test_conv3d_checks_its_arguments():
    with pytest.raises(NotImplementedError, match="'NDHWC' only"):
        tg.nn.conv3d(tg.zeros([1, 2, 2, 2, 1]), tg.zeros([1, 1, 1, 1, 1]), [1, 1, 1, 1, 1], "SAME",
                     data_format="NCDHW")
    with pytest.raises(ValueError, match="5-D NDHWC"):
        tg.nn.conv3d(tg.zeros([1, 2, 2, 1]), tg.zeros([1, 1, 1, 1, 1]), [1, 1, 1, 1, 1], "SAME")


@pytest.mark.parametrize("padding, strides, out_dhw", [("SAME", (2, 1, 2), (4, 2, 6)), ("VALID", (2, 2, 1), (4, 4, 5)),
                                                       ("VALID", (1, 1, 1), (3, 3, 5))])
def test_conv3d_transpose_against_torch(padding, strides, out_dhw):
    x, w = RNG.standard_normal((2, 2, 2, 3, 3)), RNG.standard_normal((2, 2, 3, 2, 3))  # DHW, out, in

    def torch_fn(a, b):
        y = torch.nn.functional.conv_transpose3d(a.permute(0, 4, 1, 2, 3), b.permute(4, 3, 0, 1, 2), stride=strides)
        crops = [(f - o) // 2 for f, o in zip(y.shape[2:], out_dhw)]  # SAME crops the full output's middle
        return y[:, :, crops[0]:crops[0] + out_dhw[0], crops[1]:crops[1] + out_dhw[1],
                 crops[2]:crops[2] + out_dhw[2]].permute(0, 2, 3, 4, 1)
    check_op(lambda a, b: tg.nn.conv3d_transpose(a, b, [2, *out_dhw, 2], [1, *strides, 1], padding), [x, w],
             torch_fn=torch_fn if torch is not None else None, tol32=dict(rtol=1e-4, atol=1e-4))


def test_conv3d_backprop_filter_is_conv3ds_filter_gradient_and_differentiable():
    rng = np.random.RandomState(5)
    x_value, g_value = rng.randn(1, 4, 4, 4, 2), rng.randn(1, 2, 2, 2, 3)
    x, w = tg.constant(x_value), tg.constant(rng.randn(2, 2, 2, 2, 3))
    y = tg.nn.conv3d(x, w, [1, 2, 2, 2, 1], "VALID")
    want = tg.gradients(y, [w], grad_ys=g_value)[0]
    got = tg.nn.conv3d_backprop_filter_v2(x, [2, 2, 2, 2, 3], g_value, [1, 2, 2, 2, 1], "VALID")
    xp, gp = tg.placeholder(tg.float64, x_value.shape), tg.placeholder(tg.float64, g_value.shape)
    second = tg.nn.conv3d_backprop_filter(xp, [2, 2, 2, 2, 3], gp, [1, 2, 2, 2, 1], "VALID")
    with tg.Session() as sess:
        np.testing.assert_allclose(*sess.run([got, want]), atol=1e-12)
        error = tg.test.compute_gradient_error([xp, gp], [x_value.shape, g_value.shape], second, (2, 2, 2, 2, 3),
                                               x_init_value=[x_value, g_value],
                                               extra_feed_dict={xp: x_value, gp: g_value}, delta=1e-6)
    assert error < 1e-6
