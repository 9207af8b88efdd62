"""depthwise_conv2d and separable_conv2d against PyTorch's grouped convolutions, gradients against numerical ones."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op, fresh_graph, torch  # noqa: F401 (fresh_graph: autouse)

RNG = np.random.default_rng(3)


def tf_padded(x, ksize, strides, padding, value=0.0):
    """x (channels first, torch) padded as TF pads SAME: the odd pixel after."""
    if padding == "VALID":
        return x
    pads = []
    for size, k, s in zip(reversed(x.shape[2:]), reversed(ksize), reversed(strides)):
        total = max((-(-size // s) - 1) * s + k - size, 0)
        pads += [total // 2, total - total // 2]
    return torch.nn.functional.pad(x, pads, value=value)


def torch_depthwise(x, w, strides, padding):
    kh, kw, c, m = w.shape
    xc = tf_padded(x.permute(0, 3, 1, 2), (kh, kw), strides, padding)
    y = torch.nn.functional.conv2d(xc, w.permute(2, 3, 0, 1).reshape(c * m, 1, kh, kw), stride=strides, groups=c)
    return y.permute(0, 2, 3, 1)


@pytest.mark.parametrize("padding, stride, multiplier, ksize", [("SAME", 1, 1, (3, 3)), ("SAME", 2, 2, (3, 3)),
                                                                ("VALID", 2, 1, (3, 2)), ("VALID", 1, 3, (2, 2))])
def test_depthwise_conv2d_against_torch(padding, stride, multiplier, ksize):
    x, w = RNG.standard_normal((2, 5, 6, 3)), RNG.standard_normal((*ksize, 3, multiplier))
    check_op(lambda a, b: tg.nn.depthwise_conv2d(a, b, [1, stride, stride, 1], padding), [x, w],
             torch_fn=(lambda a, b: torch_depthwise(a, b, (stride, stride), padding)) if torch is not None else None,
             tol32=dict(rtol=1e-4, atol=1e-4))


def test_depthwise_is_conv2d_with_a_block_diagonal_filter():
    x, w = RNG.standard_normal((1, 6, 6, 2)), RNG.standard_normal((3, 3, 2, 2))
    full = np.zeros((3, 3, 2, 4))
    for c in range(2):
        full[:, :, c, c * 2:c * 2 + 2] = w[:, :, c]
    with tg.Session() as sess:
        depthwise, conv = sess.run([tg.nn.depthwise_conv2d(x, w, [1, 2, 2, 1], "SAME"),
                                    tg.nn.conv2d(x, full, [1, 2, 2, 1], "SAME")])
    np.testing.assert_allclose(depthwise, conv, rtol=1e-10)


def test_dilated_depthwise_and_separable():
    x, dw, pw = RNG.standard_normal((1, 7, 7, 2)), RNG.standard_normal((3, 3, 2, 1)), RNG.standard_normal((1, 1, 2, 4))
    check_op(lambda a, b: tg.nn.depthwise_conv2d(a, b, [1, 1, 1, 1], "SAME", rate=[2, 2]), [x, dw],
             dtypes=(np.float64,))
    check_op(lambda a, b, c: tg.nn.separable_conv2d(a, b, c, [1, 1, 1, 1], "VALID"), [x, dw, pw],
             dtypes=(np.float64,))
    with tg.Session() as sess:
        sep = sess.run(tg.nn.separable_conv2d(x, dw, pw, [1, 1, 1, 1], "VALID"))
        two = sess.run(tg.nn.conv2d(tg.nn.depthwise_conv2d(x, dw, [1, 1, 1, 1], "VALID"), pw, 1, "VALID"))
    np.testing.assert_allclose(sep, two, rtol=1e-10)


def test_depthwise_checks_channels():
    with pytest.raises(ValueError, match="3 channels but the filter"):
        tg.nn.depthwise_conv2d(tg.zeros([1, 4, 4, 3]), tg.zeros([3, 3, 2, 1]), [1, 1, 1, 1], "SAME")
