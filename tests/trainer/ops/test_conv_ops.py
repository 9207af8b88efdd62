"""conv_ops beyond test_nn_ops: avg_pool, dilated and NCHW convolution, through the oracle."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op, torch
from trainer.ops.kernels import conv as conv_kernels
from trainer.ops.kernels import gemm as gemm_kernels

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


@pytest.mark.parametrize("stride,padding", [(1, "VALID"), (2, "SAME")])
def test_conv2d_gradient_of_gradient(stride, padding):
    """The gradient penalty idiom (WGAN-GP): differentiate conv2d's input and filter gradients again."""
    x, w = RNG.standard_normal((2, 5, 6, 2)), RNG.standard_normal((3, 3, 2, 3))

    def build(wrt):
        def grad_of(a, f):
            y = tg.nn.conv2d(a, f, [1, stride, stride, 1], padding)
            return tg.gradients(tg.reduce_sum(tg.tanh(y)), [a, f])[wrt]
        return grad_of
    check_op(build(0), [x, w], dtypes=(np.float64,))
    check_op(build(1), [x, w], dtypes=(np.float64,))


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


def _numpy_conv(x, w, stride, padding):
    """float64 NHWC convolution as a sum over the filter's taps, each a strided slice of the padded image."""
    n, h, wd, _ = x.shape
    kh, kw, _, o = w.shape
    if padding == "VALID":
        (ho, ph), (wo, pw) = ((h - kh) // stride + 1, 0), ((wd - kw) // stride + 1, 0)
    else:
        (ho, ph), (wo, pw) = _same_pads(h, kh, stride), _same_pads(wd, kw, stride)
    xp = np.zeros((n, h + kh + stride, wd + kw + stride, x.shape[3]))
    xp[:, ph:ph + h, pw:pw + wd] = x
    out = np.zeros((n, ho, wo, o))
    for i in range(kh):
        for j in range(kw):
            out += xp[:, i:i + stride * ho:stride, j:j + stride * wo:stride] @ w[i, j]
    return out


@pytest.mark.parametrize("padding", ["SAME", "VALID"])
@pytest.mark.parametrize("stride,k,channels", [(1, 3, (3, 4)), (1, 5, (1, 2)), (2, 3, (2, 3)), (1, 2, (2, 2)),
                                               (3, 4, (2, 3)), (1, 1, (3, 2)), (2, 1, (3, 2)), (1, 6, (3, 2))], ids=str)
def test_conv2d_forward_and_gradients(stride, k, channels, padding):
    x, w = RNG.standard_normal((2, 7, 6, channels[0])), RNG.standard_normal((k, k, *channels))
    check_op(lambda a, b: tg.nn.conv2d(a, b, strides=stride, padding=padding), [x, w],
             torch_fn=F and (lambda a, b: _torch_conv_nhwc(a, b, stride, padding, 1)),
             numpy_fn=lambda a, b: _numpy_conv(a, b, stride, padding))


@pytest.mark.parametrize("stride", [1, 2])
def test_conv2d_of_a_batch_larger_than_one_gemm_slice(stride):
    """Batches whose im2col columns take many MiB are gathered and multiplied a few images at a time."""
    x, w = RNG.standard_normal((48, 32, 32, 16)), RNG.standard_normal((3, 3, 16, 8))
    g = RNG.standard_normal(_numpy_conv(x[:1], w, stride, "SAME").shape[1:])
    with tg.Graph().as_default():
        xt, wt = tg.placeholder(tg.float64, x.shape), tg.constant(w)
        y = tg.nn.conv2d(xt, wt, strides=stride, padding="SAME")
        dx, dw = tg.gradients(y, [xt, wt], grad_ys=tg.constant(np.broadcast_to(g, y.shape)))
        with tg.Session() as sess:
            values = sess.run([y, dx, dw], {xt: x})
    expected = _numpy_conv(x, w, stride, "SAME")
    gb = np.broadcast_to(g, expected.shape)  # dL/dw[i, j] sums tap (i, j)'s input pixels times g
    dw_ref = np.stack([np.stack([np.einsum("nhwc,nhwo->co", _numpy_conv_window(x, i, j, stride, w.shape), gb)
                                 for j in range(3)]) for i in range(3)])
    np.testing.assert_allclose(values[0], expected, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(values[2], dw_ref, rtol=1e-10, atol=1e-9)
    probe = RNG.standard_normal(x.shape)  # <dx, probe> = <g, conv(probe)>: the adjoint identity
    np.testing.assert_allclose(np.vdot(values[1], probe), np.vdot(gb, _numpy_conv(probe, w, stride, "SAME")),
                               rtol=1e-9)


@pytest.mark.parametrize("channels", [1, 3, 4, 5], ids=lambda c: f"C{c}")
@pytest.mark.parametrize("stride", [1, 2])
def test_conv2d_of_few_channel_images_in_many_slices(channels, stride, monkeypatch):
    """Images of at most TAP_MAJOR_CHANNELS channels are gathered tap by tap; the rest as windows. Either way, over
    batches cut into several slices of columns, the output and the filter gradient are the taps' sums."""
    x, w = RNG.standard_normal((13, 41, 39, channels)), RNG.standard_normal((5, 5, channels, 3))
    assert (channels <= conv_kernels.TAP_MAJOR_CHANNELS) == (channels < 5)
    monkeypatch.setattr(conv_kernels, "CHUNK_BYTES", 64 << 10)  # an image or two per slice
    expected = _numpy_conv(x, w, stride, "SAME")
    g = RNG.standard_normal(expected.shape)
    np.testing.assert_allclose(conv_kernels.conv2d(x, w, (stride, stride), "SAME"), expected, rtol=1e-10, atol=1e-10)
    dw_ref = np.stack([np.stack([np.einsum("nhwc,nhwo->co", _numpy_conv_window(x, i, j, stride, w.shape), g)
                                 for j in range(5)]) for i in range(5)])
    np.testing.assert_allclose(conv_kernels.conv2d_filter_grad(x, g, w, (stride, stride), "SAME"), dw_ref,
                               rtol=1e-10, atol=1e-9)


@pytest.mark.parametrize("channels", [1, 8], ids=lambda c: f"C{c}")
def test_float32_convolutions_over_many_slices_are_within_float32_rounding(channels, monkeypatch):
    """Each slice of the batch is padded into a reused buffer and gathered into another; in float32 the output and
    both gradients stay within float32's rounding bound of the exact sums (the filter gradient sums slice by slice)."""
    x, w = RNG.standard_normal((23, 14, 13, channels)), RNG.standard_normal((5, 5, channels, 6))
    g = RNG.standard_normal((23, 14, 13, 6))
    x, w, g = (a.astype(np.float32).astype(np.float64) for a in (x, w, g))  # exact in both precisions
    monkeypatch.setattr(conv_kernels, "CHUNK_BYTES", 32 << 10)  # a few images per slice, the last one short
    flipped = w[::-1, ::-1].transpose(0, 1, 3, 2)

    def filter_grad(a, b):
        return np.stack([np.stack([np.einsum("nhwc,nhwo->co", _numpy_conv_window(a, i, j, 1, w.shape), b)
                                   for j in range(5)]) for i in range(5)])
    f32 = [a.astype(np.float32) for a in (x, w, g)]
    cases = [(conv_kernels.conv2d(f32[0], f32[1], (1, 1), "SAME"), _numpy_conv(x, w, 1, "SAME"),
              _numpy_conv(abs(x), abs(w), 1, "SAME"), w[..., 0].size),
             (conv_kernels.conv2d_input_grad(f32[2], x.shape, f32[1], (1, 1), "SAME"),
              _numpy_conv(g, flipped, 1, "SAME"), _numpy_conv(abs(g), abs(flipped), 1, "SAME"), w[..., 0, :].size),
             (conv_kernels.conv2d_filter_grad(f32[0], f32[2], f32[1], (1, 1), "SAME"), filter_grad(x, g),
              filter_grad(abs(x), abs(g)), g[..., 0].size)]
    for value, exact, magnitude, terms in cases:
        assert value.dtype == np.float32 and value.shape == exact.shape
        assert np.all(np.abs(value - exact) <= terms * float(np.finfo(np.float32).eps) * magnitude)


@pytest.mark.parametrize("size", [(9, 7), (3, 2)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("padding", ["SAME", "VALID"])
@pytest.mark.parametrize("taps", [(5, 5), (4, 4), (2, 3), (1, 3), (3, 1)], ids=lambda t: f"{t[0]}x{t[1]}")
def test_stride_one_convolutions_of_many_channels_by_row_windows(taps, padding, size, monkeypatch):
    """Host images of more than TAP_MAJOR_CHANNELS channels at stride 1 are convolved by row windows, one GEMM per
    filter row and the padding rows skipped: filters of even and odd sizes, padding either way, images smaller than
    the filter, a batch in several slices with a short last one; each direction equals the taps' sums."""
    (kh, kw), (h, wd) = taps, size
    if padding == "VALID" and (kh > h or kw > wd):
        pytest.skip("the filter does not fit in the image")
    x, w = RNG.standard_normal((11, h, wd, 6)), RNG.standard_normal((kh, kw, 6, 5))
    monkeypatch.setattr(conv_kernels, "CHUNK_BYTES", 4 << 10)  # a few images per slice
    (ho, ph), (wo, pw) = conv_kernels.out_size(h, kh, 1, padding), conv_kernels.out_size(wd, kw, 1, padding)
    g = RNG.standard_normal((11, ho, wo, 5))
    xp = np.zeros((11, h + sum(ph), wd + sum(pw), 6))
    xp[:, ph[0]:ph[0] + h, pw[0]:pw[0] + wd] = x
    dxp = np.zeros_like(xp)
    for i in range(kh):
        for j in range(kw):
            dxp[:, i:i + ho, j:j + wo] += g @ w[i, j].T
    dw = np.stack([np.stack([np.einsum("nhwc,nhwo->co", xp[:, i:i + ho, j:j + wo], g) for j in range(kw)])
                   for i in range(kh)])
    np.testing.assert_allclose(conv_kernels.conv2d(x, w, (1, 1), padding), _numpy_conv(x, w, 1, padding),
                               rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(conv_kernels.conv2d_input_grad(g, x.shape, w, (1, 1), padding),
                               dxp[:, ph[0]:ph[0] + h, pw[0]:pw[0] + wd], rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(conv_kernels.conv2d_filter_grad(x, g, w, (1, 1), padding), dw, rtol=1e-10, atol=1e-9)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_row_window_taps_added_in_the_gemm_equal_a_product_and_an_add(dtype, monkeypatch):
    """The row-window convolution adds each filter row's product in its GEMM (BLAS's beta = 1); without numpy's
    OpenBLAS it takes a product buffer and an add. Both give the same values within rounding, in either direction,
    on LeNet's second layer (k = kw*C = 160 and 320) and one whose k = 768 spans several of BLAS's blocks (both
    without sgemm_direct, which takes LeNet's, and has no beta)."""
    monkeypatch.setattr(gemm_kernels, "direct_product", lambda dtype, m, n, k: None)
    for xs, ws in [((9, 14, 14, 32), (5, 5, 32, 64)), ((3, 6, 7, 256), (3, 3, 256, 4))]:
        x, w = RNG.standard_normal(xs).astype(dtype), RNG.standard_normal(ws).astype(dtype)
        g = RNG.standard_normal((*xs[:3], ws[3])).astype(dtype)
        fused = conv_kernels.conv2d(x, w, (1, 1), "SAME"), conv_kernels.conv2d_input_grad(g, xs, w, (1, 1), "SAME")
        with monkeypatch.context() as patch:
            patch.setattr(gemm_kernels, "product_adder", lambda dtype: None)
            apart = conv_kernels.conv2d(x, w, (1, 1), "SAME"), conv_kernels.conv2d_input_grad(g, xs, w, (1, 1), "SAME")
        for value, reference, k in zip(fused, apart, (ws[1] * ws[2], ws[1] * ws[3])):
            assert value.dtype == dtype
            np.testing.assert_allclose(value, reference, rtol=0, atol=ws[0] * k * np.finfo(dtype).eps * 8)


DIRECT = gemm_kernels.direct_product(np.float32, 1568, 64, 160) is not None  # LeNet's: AVX-512 kernels, one thread


def _taps_sums(x, w, g, padding):
    """A stride-1 convolution's forward, input gradient and filter gradient in float64, tap by tap."""
    (kh, kw, c, o), (n, h, wd, _) = w.shape, x.shape
    (ho, ph), (wo, pw) = conv_kernels.out_size(h, kh, 1, padding), conv_kernels.out_size(wd, kw, 1, padding)
    x, w, g = (a.astype(np.float64) for a in (x, w, g))
    xp = np.zeros((n, h + sum(ph), wd + sum(pw), c))
    xp[:, ph[0]:ph[0] + h, pw[0]:pw[0] + wd] = x
    y, dxp = np.zeros((n, ho, wo, o)), np.zeros_like(xp)
    for i in range(kh):
        for j in range(kw):
            y += xp[:, i:i + ho, j:j + wo] @ w[i, j]
            dxp[:, i:i + ho, j:j + wo] += g @ w[i, j].T
    dw = np.stack([np.stack([np.einsum("nhwc,nhwo->co", xp[:, i:i + ho, j:j + wo], g) for j in range(kw)])
                   for i in range(kh)])
    return y, dxp[:, ph[0]:ph[0] + h, pw[0]:pw[0] + wd], dw


def _direct_asked(monkeypatch):
    """Opens sgemm_direct's boxes to products of any size and records whether gemm.direct_product took each."""
    monkeypatch.setattr(gemm_kernels, "DIRECT_BOXES", {64: 0, 32: 0})
    taken, real = [], gemm_kernels.direct_product

    def direct_product(dtype, m, n, k):
        mul = real(dtype, m, n, k)
        taken.append(mul is not None)
        return mul
    monkeypatch.setattr(gemm_kernels, "direct_product", direct_product)
    return taken


@pytest.mark.skipif(not DIRECT, reason="sgemm_direct runs only on OpenBLAS's AVX-512 kernels, with one thread here")
@pytest.mark.parametrize("size", [(9, 7), (3, 2)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("padding", ["SAME", "VALID"])
@pytest.mark.parametrize("taps", [(5, 5), (4, 4), (2, 3), (3, 1)], ids=lambda t: f"{t[0]}x{t[1]}")
def test_row_window_products_on_sgemm_direct_are_the_taps_sums(taps, padding, size, monkeypatch):
    """float32 row windows of 32 channels into 64 on sgemm_direct (forward and input gradient: each filter row's
    product then added; filter gradient: windows gathered transposed), every one of the three directions asking for
    it and taking it: filters of even and odd sizes, padding either way, images smaller than the filter, a batch in
    several slices with a short last one; each within float32 rounding of the taps' sums."""
    (kh, kw), (h, wd) = taps, size
    if padding == "VALID" and (kh > h or kw > wd):
        pytest.skip("the filter does not fit in the image")
    ho, wo = conv_kernels.out_size(h, kh, 1, padding)[0], conv_kernels.out_size(wd, kw, 1, padding)[0]
    monkeypatch.setattr(conv_kernels, "CHUNK_BYTES", 4 * h * wo * kw * 32 * 4)  # 11 images: slices of 4, 4 and 3
    taken = _direct_asked(monkeypatch)
    x, w, g = (RNG.standard_normal(s).astype(np.float32) for s in ((11, h, wd, 32), (kh, kw, 32, 64), (11, ho, wo, 64)))
    values = (conv_kernels.conv2d(x, w, (1, 1), padding),
              conv_kernels.conv2d_input_grad(g, x.shape, w, (1, 1), padding),
              conv_kernels.conv2d_filter_grad(x, g, w, (1, 1), padding))
    # a VALID input gradient's output is smaller than its input: one GEMM and a col2im, not row windows
    assert taken == [True] * (3 if padding == "SAME" else 2)
    exact, magnitude = _taps_sums(x, w, g, padding), _taps_sums(abs(x), abs(w), abs(g), padding)
    for value, want, bound, terms in zip(values, exact, magnitude, (kh * kw * 32, kh * kw * 64, 11 * ho * wo)):
        assert value.dtype == np.float32 and value.shape == want.shape
        assert np.all(np.abs(value - want) <= terms * float(np.finfo(np.float32).eps) * bound)


@pytest.mark.skipif(not DIRECT, reason="sgemm_direct runs only on OpenBLAS's AVX-512 kernels, with one thread here")
@pytest.mark.parametrize("channels", [1, 3], ids=lambda c: f"C{c}")
def test_few_channel_filter_gradient_on_sgemm_direct_is_the_taps_sums(channels, monkeypatch):
    """A first layer's filter gradient multiplies its tap-major columns' transpose, row-major, by the output gradient:
    on sgemm_direct, in several slices, within float32 rounding of the taps' sums; float64 keeps numpy's dot."""
    monkeypatch.setattr(conv_kernels, "CHUNK_BYTES", 32 << 10)
    taken = _direct_asked(monkeypatch)
    x, w, g = (RNG.standard_normal(s) for s in ((9, 12, 10, channels), (5, 5, channels, 32), (9, 12, 10, 32)))
    value = conv_kernels.conv2d_filter_grad(*(a.astype(np.float32) for a in (x, g, w)), (1, 1), "SAME")
    bound = 9 * 12 * 10 * float(np.finfo(np.float32).eps) * _taps_sums(abs(x), abs(w), abs(g), "SAME")[2]
    assert np.all(np.abs(value - _taps_sums(x, w, g, "SAME")[2]) <= bound)
    conv_kernels.conv2d_filter_grad(x, g, w, (1, 1), "SAME")
    assert taken == [True, False]


def _numpy_conv_window(x, i, j, stride, w_shape):
    """The input pixels tap (i, j) of a SAME convolution reads, one per output pixel."""
    n, h, wd, c = x.shape
    (ho, ph), (wo, pw) = _same_pads(h, w_shape[0], stride), _same_pads(wd, w_shape[1], stride)
    xp = np.zeros((n, h + w_shape[0] + stride, wd + w_shape[1] + stride, c))
    xp[:, ph:ph + h, pw:pw + wd] = x
    return xp[:, i:i + stride * ho:stride, j:j + stride * wo:stride]


def _numpy_max_pool_grad(x, g, k, s, padding):
    """TF1's MaxPoolGrad by loops: each window's gradient goes to its first maximum in row-major order."""
    n, h, w, c = x.shape
    if padding == "VALID":
        (ho, ph), (wo, pw) = ((h - k) // s + 1, 0), ((w - k) // s + 1, 0)
    else:
        (ho, ph), (wo, pw) = _same_pads(h, k, s), _same_pads(w, k, s)
    dx = np.zeros_like(x)
    for b, i, j, ch in np.ndindex(n, ho, wo, c):
        best = None
        for r in range(max(i * s - ph, 0), min(i * s - ph + k, h)):
            for q in range(max(j * s - pw, 0), min(j * s - pw + k, w)):
                if best is None or x[b, r, q, ch] > x[b, best[0], best[1], ch]:
                    best = (r, q)
        dx[b, best[0], best[1], ch] += g[b, i, j, ch]
    return dx


@pytest.mark.parametrize("k,s,size,padding", [(2, 2, (6, 8), "VALID"), (2, 2, (7, 5), "VALID"), (3, 3, (6, 9), "SAME"),
                                              (2, 2, (5, 6), "SAME"), (3, 2, (7, 7), "VALID"), (1, 1, (3, 4), "SAME"),
                                              (2, 1, (4, 4), "SAME")], ids=str)
def test_max_pool_routes_ties_to_the_first_maximum(k, s, size, padding):
    """Values tie often (a ReLU's zeros, small integers): TF1 gives each window's gradient to its first maximum."""
    x = np.maximum(RNG.integers(-3, 3, (2, *size, 3)), 0).astype(np.float64)
    with tg.Graph().as_default():
        xt = tg.placeholder(tg.float32, x.shape)
        y = tg.nn.max_pool(xt, k, s, padding)
        g = RNG.standard_normal([d for d in y.shape])
        dx, = tg.gradients(y, [xt], grad_ys=tg.constant(g.astype(np.float32)))
        with tg.Session() as sess:
            y_value, dx_value = sess.run([y, dx], {xt: x})
    np.testing.assert_allclose(dx_value, _numpy_max_pool_grad(x, g, k, s, padding), rtol=1e-6, atol=1e-6)
    if F is not None and padding == "VALID":
        expect = F.max_pool2d(torch.tensor(x).permute(0, 3, 1, 2), k, s).permute(0, 2, 3, 1)
        np.testing.assert_array_equal(y_value, expect.numpy())


def test_max_pool_gradient_is_zero_off_the_maximum_even_for_infinite_gradients():
    x = np.array([1.0, 3.0, 2.0, 0.0, 5.0, 5.0, -1.0, 7.0]).reshape(1, 2, 4, 1)
    g = np.array([np.inf, -np.inf]).reshape(1, 1, 2, 1)
    with tg.Graph().as_default():
        xt = tg.constant(x)
        dx, = tg.gradients(tg.nn.max_pool(xt, 2, 2, "VALID"), [xt], grad_ys=tg.constant(g))
        with tg.Session() as sess:
            value = sess.run(dx)
    np.testing.assert_array_equal(value.ravel(), [0, 0, 0, 0, np.inf, 0, 0, -np.inf])  # 5 ties 5: the first


def test_an_empty_batch_convolves_and_pools_to_empty_results():
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [None, 6, 6, 2])
        w = tg.constant(RNG.standard_normal((3, 3, 2, 4)).astype(np.float32))
        y = tg.nn.max_pool(tg.nn.conv2d(x, w, strides=1, padding="SAME"), 2, 2, "VALID")
        z = tg.nn.conv2d(x, w, strides=2, padding="SAME")
        grads = tg.gradients(tg.reduce_sum(y) + tg.reduce_sum(z), [x, w])
        with tg.Session() as sess:
            y_value, dx, dw = sess.run([y] + grads, {x: np.zeros((0, 6, 6, 2), np.float32)})
    assert y_value.shape == (0, 3, 3, 4) and dx.shape == (0, 6, 6, 2)
    np.testing.assert_array_equal(dw, np.zeros((3, 3, 2, 4)))


def test_a_training_step_runs_no_input_gradient_for_a_first_layer_and_no_full_size_relu_mask():
    """LeNet's pattern, traced: the first convolution's input is a placeholder, so its input gradient is built but
    never run; each ReLU's mask is applied to the pooled gradient (pooled shape), not after the pooling gradient."""
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [None, 8, 8, 1])
        h = x
        for i, channels in enumerate((4, 6)):
            w = tg.Variable(RNG.standard_normal((3, 3, h.shape[3], channels)).astype(np.float32))
            h = tg.nn.relu(tg.nn.bias_add(tg.nn.conv2d(h, w, strides=1, padding="SAME"), tg.zeros([channels])))
            h = tg.nn.max_pool(h, ksize=2, strides=2, padding="VALID")
        train = tg.train.GradientDescentOptimizer(0.1).minimize(tg.reduce_sum(h))
        metadata = tg.RunMetadata()
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            sess.run(train, {x: RNG.standard_normal((2, 8, 8, 1))},
                     options=tg.RunOptions(trace_level=tg.RunOptions.FULL_TRACE), run_metadata=metadata)
    ran = [n for n in metadata.step_stats.dev_stats[0].node_stats]
    kinds = [n.timeline_label.split(" = ")[1].split("(")[0] for n in ran]
    assert kinds.count("Conv2DBackpropInput") == 1 and kinds.count("Conv2DBackpropFilter") == 2
    masks = [[d.size for d in n.output[0].tensor_description.shape.dim] for n, k in zip(ran, kinds) if k == "ReluGrad"]
    assert sorted(masks) == [[2, 2, 2, 6], [2, 4, 4, 4]]
