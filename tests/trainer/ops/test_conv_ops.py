"""conv_ops beyond test_nn_ops: avg_pool, dilated and NCHW convolution, through the oracle."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op, torch

F = torch and torch.nn.functional
RNG = np.random.default_rng(1)


def _same_pads(size, k, s):
    out = -(-size // s)
    total = max((out - 1) * s + k - size, 0)
    return out, total // 2


def _numpy_avg_pool(x, k, s, padding):
    """A loop over output pixels, each the mean of the window's pixels that lie inside the image."""
    n, h, w, c = x.shape
    if padding == "VALID":
        (ho, ph), (wo, pw) = ((h - k) // s + 1, 0), ((w - k) // s + 1, 0)
    else:
        (ho, ph), (wo, pw) = _same_pads(h, k, s), _same_pads(w, k, s)
    out = np.zeros((n, ho, wo, c))
    for i in range(ho):
        for j in range(wo):
            r, q = i * s - ph, j * s - pw
            out[:, i, j] = x[:, max(r, 0):r + k, max(q, 0):q + k].mean(axis=(1, 2))
    return out


@pytest.mark.parametrize("padding", ["SAME", "VALID"])
@pytest.mark.parametrize("stride,size,k", [(2, 4, 2), (2, 5, 3), (1, 4, 3), (3, 7, 2)], ids=str)
def test_avg_pool(stride, size, k, padding):
    x = RNG.standard_normal((2, size, size + 1, 3))
    torch_fn = None
    if F is not None and padding == "VALID":
        torch_fn = lambda a: F.avg_pool2d(a.permute(0, 3, 1, 2), k, stride).permute(0, 2, 3, 1)  # noqa: E731
    check_op(lambda a: tg.nn.avg_pool(a, ksize=[1, k, k, 1], strides=[1, stride, stride, 1], padding=padding),
             [x], torch_fn=torch_fn, numpy_fn=lambda a: _numpy_avg_pool(a, k, stride, padding))
    ours = check_op(lambda a: tg.nn.avg_pool(a, k, stride, padding), [x], dtypes=(np.float64,), grad=False)
    np.testing.assert_allclose(ours[np.float64][0], _numpy_avg_pool(x, k, stride, padding), rtol=1e-12)


def test_avg_pool_gradient_of_gradient():
    x = RNG.standard_normal((1, 5, 5, 2))

    def build(a):
        y = tg.nn.avg_pool(a, 3, 2, "SAME")
        g, = tg.gradients(tg.reduce_sum(y * y), [a])
        return g
    check_op(build, [x], dtypes=(np.float64,))


def _torch_conv_nhwc(x, w, stride, padding, rate):
    x, w = x.permute(0, 3, 1, 2), w.permute(3, 2, 0, 1)
    if padding == "SAME":
        pads = []
        for size, k in [(x.shape[3], w.shape[3]), (x.shape[2], w.shape[2])]:
            out = -(-size // stride)
            total = max((out - 1) * stride + (k - 1) * rate + 1 - size, 0)
            pads += [total // 2, total - total // 2]
        x = F.pad(x, pads)
    return F.conv2d(x, w, stride=stride, dilation=rate).permute(0, 2, 3, 1)


@pytest.mark.parametrize("padding", ["SAME", "VALID"])
@pytest.mark.parametrize("rate,stride", [(2, 1), (3, 1), (2, 2)], ids=str)
def test_dilated_conv2d(rate, stride, padding):
    x, w = RNG.standard_normal((2, 9, 8, 2)), RNG.standard_normal((3, 2, 2, 3))
    check_op(lambda a, b: tg.nn.conv2d(a, b, strides=stride, padding=padding, dilations=[1, rate, rate, 1]),
             [x, w], torch_fn=F and (lambda a, b: _torch_conv_nhwc(a, b, stride, padding, rate)))


def test_nchw_matches_nhwc():
    x, w = RNG.standard_normal((2, 3, 6, 5)), RNG.standard_normal((3, 3, 3, 4))
    with tg.Graph().as_default():
        xt = tg.constant(x)
        nchw = [tg.nn.conv2d(xt, w, [1, 1, 2, 1], "SAME", data_format="NCHW"),
                tg.nn.max_pool(xt, [1, 1, 2, 2], [1, 1, 2, 2], "VALID", data_format="NCHW"),
                tg.nn.avg_pool(xt, [1, 1, 3, 3], [1, 1, 1, 1], "SAME", data_format="NCHW")]
        xh = tg.constant(x.transpose(0, 2, 3, 1))
        nhwc = [tg.nn.conv2d(xh, filters=w, strides=[1, 2, 1, 1], padding="same"),
                tg.nn.max_pool(xh, 2, 2, "VALID"), tg.nn.avg_pool(xh, 3, 1, "SAME")]
        assert [t.shape for t in nchw] == [(2, 4, 3, 5), (2, 3, 3, 2), (2, 3, 6, 5)]
        with tg.Session() as sess:
            a, b = sess.run([nchw, nhwc])
    for u, v in zip(a, b):
        np.testing.assert_allclose(u, v.transpose(0, 3, 1, 2), rtol=1e-12)
    if F is not None:
        expect = F.conv2d(F.pad(torch.tensor(x), [1, 1, 0, 1]), torch.tensor(w).permute(3, 2, 0, 1), stride=(2, 1))
        np.testing.assert_allclose(a[0], expect.numpy(), rtol=1e-10)


def test_bad_arguments_name_the_culprit():
    with tg.Graph().as_default():
        x = tg.zeros([1, 4, 4, 1])
        with pytest.raises(ValueError, match="'FULL'"):
            tg.nn.avg_pool(x, 2, 2, "full")
        with pytest.raises(ValueError, match="'NCWH'"):
            tg.nn.conv2d(x, tg.zeros([1, 1, 1, 1]), 1, "SAME", data_format="NCWH")
        with pytest.raises(NotImplementedError, match="explicit paddings"):
            tg.nn.conv2d(x, tg.zeros([1, 1, 1, 1]), 1, [[0, 0], [1, 1], [1, 1], [0, 0]])
        with pytest.raises(ValueError, match="exactly one"):
            tg.nn.conv2d(x, strides=1, padding="SAME")
        with pytest.raises(ValueError, match=r"4-D NHWC input, got shape \(4, 4\)"):
            tg.nn.avg_pool(tg.zeros([4, 4]), 2, 2, "SAME")
