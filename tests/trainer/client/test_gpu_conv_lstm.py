"""Convolutions through cuDNN, tiled max pooling, the bias gradient and the fused LSTM kernels on CuPy, each against
the numpy kernels they replace (which tests/trainer/ops check against float64 numerical gradients), and whole
training steps of a CNN and of LSTMs (one launch per sequence each way) on the GPU against the CPU in float64.
Marked `gpu`: without CuPy and a CUDA GPU they skip."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.client.test_gpu import needs_gpu
from trainer.ops.kernels import conv, cudnn_conv, pool, rnn
from trainer.framework.registry import op_def

RNG = np.random.default_rng(7)
TOLERANCE = {np.float32: dict(rtol=2e-4, atol=2e-5), np.float64: dict(rtol=1e-10, atol=1e-12)}
DTYPES = pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: d.__name__)
CONVS = [  # (x shape NHWC, filter HWIO, strides, padding)
    ((4, 9, 9, 3), (3, 3, 3, 8), (1, 1), "SAME"),
    ((2, 8, 8, 4), (2, 2, 4, 5), (1, 1), "SAME"),  # even filter: TF pads 0 before, 1 after
    ((3, 11, 10, 2), (5, 5, 2, 6), (2, 2), "SAME"),
    ((2, 12, 12, 3), (3, 3, 3, 4), (2, 1), "VALID"),
    ((5, 28, 28, 1), (5, 5, 1, 32), (1, 1), "SAME"),
]


def cudnn_or_skip():
    if cudnn_conv.why_not() is not None:
        pytest.skip(f"convolutions do not go through cuDNN here: {cudnn_conv.why_not()}")


def conv_case(dtype, x_shape, w_shape, strides, padding):
    x, w = RNG.standard_normal(x_shape).astype(dtype), RNG.standard_normal(w_shape).astype(dtype)
    y = conv.conv2d(x, w, strides, padding)
    return x, w, y, RNG.standard_normal(y.shape).astype(dtype)


@needs_gpu
@DTYPES
@pytest.mark.parametrize("case", CONVS, ids=lambda c: f"{c[0]}*{c[1]}/{c[2]}{c[3]}")
@pytest.mark.parametrize("path", ["cudnn", "im2col"])
def test_conv2d_and_both_gradients_on_the_gpu_match_numpy(dtype, case, path):
    import cupy
    if path == "cudnn":
        cudnn_or_skip()
    kernels = {name: getattr(conv, name) for name in ("conv2d", "conv2d_input_grad", "conv2d_filter_grad")}
    if path == "im2col":  # the CuPy fallback: the kernels under their cuDNN decorator
        kernels = {name: fn.__wrapped__ for name, fn in kernels.items()}
    x_shape, w_shape, strides, padding = case
    x, w, y, g = conv_case(dtype, *case)
    before = cudnn_conv.stats["cudnn"]
    on_gpu = [kernels["conv2d"](cupy.asarray(x), cupy.asarray(w), strides, padding),
              kernels["conv2d_input_grad"](cupy.asarray(g), x.shape, cupy.asarray(w), strides=strides,
                                           padding=padding),
              kernels["conv2d_filter_grad"](cupy.asarray(x), cupy.asarray(g), cupy.asarray(w), strides=strides,
                                            padding=padding)]
    on_cpu = [y, conv.conv2d_input_grad(g, x.shape, w, strides, padding), conv.conv2d_filter_grad(x, g, w, strides,
                                                                                                  padding)]
    for name, got, want in zip(("y", "dx", "dw"), on_gpu, on_cpu):
        assert isinstance(got, cupy.ndarray) and got.shape == want.shape and got.dtype == want.dtype, name
        # sums of thousands of products cancel: an element's error is relative to the largest, not to itself
        rtol, atol = TOLERANCE[dtype]["rtol"], TOLERANCE[dtype]["atol"] * np.abs(want).max()
        np.testing.assert_allclose(cupy.asnumpy(got), want, err_msg=name, rtol=rtol, atol=atol)
    if path == "cudnn":  # cuDNN served (a graph none of whose plans matches the im2col path is declined)
        assert cudnn_conv.stats["cudnn"] > before, cudnn_conv.declined


def test_without_the_cudnn_frontend_why_not_says_what_is_missing():
    """Runs everywhere: on a machine without the package the reason names it (a GPU session then convolves
    through im2col); with it, there is nothing to say."""
    try:
        import cudnn  # noqa: F401 - whether it imports is the question
    except Exception:
        assert "cudnn" in cudnn_conv.why_not() or "RINGFLOW_CUDNN=0" in cudnn_conv.why_not()
    else:
        assert cudnn_conv.why_not() is None or "RINGFLOW_CUDNN=0" in cudnn_conv.why_not()


@needs_gpu
def test_cudnn_is_used_wherever_the_frontend_imports():
    try:
        import cudnn  # noqa: F401 - whether it imports is the question
    except Exception as exc:
        pytest.skip(f"the cuDNN frontend does not import here ({exc})")
    assert cudnn_conv.why_not() is None


@needs_gpu
@DTYPES
@pytest.mark.parametrize("shape, ksize", [((3, 8, 8, 5), (2, 2)), ((2, 9, 7, 4), (2, 3)), ((2, 6, 6, 3), (3, 3))],
                         ids=str)
def test_tiled_max_pool_and_its_gradient_on_the_gpu_match_numpy(dtype, shape, ksize):
    """Ties (a ReLU's zeros) send the gradient to the window's first maximum; rows and columns past the last
    tile get none."""
    import cupy
    x = np.maximum(RNG.standard_normal(shape), 0).astype(dtype)
    ho, wo = shape[1] // ksize[0], shape[2] // ksize[1]
    y = pool.max_pool(x, ksize, ho, wo)
    g = RNG.standard_normal(y.shape).astype(dtype)
    dx = pool.max_pool_grad(x, y, g, ksize, ho, wo)
    xd, yd, gd = cupy.asarray(x), cupy.asarray(y), cupy.asarray(g)
    np.testing.assert_array_equal(cupy.asnumpy(pool.max_pool(xd, ksize, ho, wo)), y)
    np.testing.assert_array_equal(cupy.asnumpy(pool.max_pool_grad(xd, yd, gd, ksize, ho, wo)), dx)
    assert (x == 0).sum() > x.size // 4  # the ties are there


@needs_gpu
@DTYPES
@pytest.mark.parametrize("shape", [(32, 16, 16, 8), (7, 3), (5, 1, 4, 2)], ids=str)
def test_bias_add_gradient_on_the_gpu_matches_numpy(dtype, shape):
    import cupy
    g = RNG.standard_normal(shape).astype(dtype)
    got = op_def("BiasAddGrad").forward(cupy.asarray(g))
    assert got.shape == (shape[-1],) and got.dtype == dtype
    np.testing.assert_allclose(cupy.asnumpy(got), g.reshape(-1, shape[-1]).sum(axis=0), **TOLERANCE[dtype])


def lstm_case(dtype, batch=5, units=7, peepholes=False, clip=None, shift=True):
    half, shift_v = rnn.gate_scales(RNG.standard_normal(4 * units).astype(dtype), units, forget_bias=1.0)
    state = [RNG.standard_normal((batch, units)).astype(dtype) * 2 for _ in range(4)]  # cs_prev, h_grad, cs_grad, x
    peep = tuple(RNG.standard_normal(units).astype(dtype) for _ in range(3)) if peepholes else None
    gates = (RNG.standard_normal((batch, 4 * units)) * 2).astype(dtype)
    return gates, state, peep, clip, half, shift_v if shift else None


def run_lstm(xp, gates, state, peep, clip, half, shift):
    """A forward step and its gradient with the kernels of xp's arrays; everything back as numpy."""
    to = (lambda a: a) if xp is np else xp.asarray
    back = (lambda a: a) if xp is np else xp.asnumpy
    cs_prev, h_grad, cs_grad = (to(a) for a in state[:3])
    peep_x = None if peep is None else tuple(to(p) for p in peep)
    g = to(gates.copy())
    cs, co, h = (xp.empty_like(cs_prev) for _ in range(3))
    rnn.lstm_step(g, cs_prev, peep_x, clip, to(half), None if shift is None else to(shift), cs, co, h)
    dicfo, scratch = xp.empty_like(g), xp.empty_like(g)
    cs_prev_grad, peep_grads = rnn.lstm_step_grad(g, cs_prev, cs, co, h_grad, cs_grad, peep_x, clip, dicfo, scratch)
    return [back(a) for a in (g, cs, co, h, dicfo, cs_prev_grad, *(peep_grads or ()))]


@needs_gpu
@DTYPES
@pytest.mark.parametrize("peepholes", [False, True], ids=["plain", "peepholes"])
@pytest.mark.parametrize("clip", [None, 0.5], ids=["unclipped", "clip0.5"])
@pytest.mark.parametrize("shift", [True, False], ids=["bias", "prescaled"])
def test_fused_lstm_step_and_gradient_match_the_numpy_kernels(dtype, peepholes, clip, shift):
    import cupy
    case = lstm_case(dtype, peepholes=peepholes, clip=clip, shift=shift)
    want, got = run_lstm(np, *case), run_lstm(cupy, *case)
    names = ["activations", "cs", "co", "h", "dicfo", "cs_prev_grad", "wci_grad", "wcf_grad", "wco_grad"]
    assert len(got) == len(want)
    for name, a, b in zip(names, got, want):
        np.testing.assert_allclose(a, b, err_msg=name, **TOLERANCE[dtype])
    if clip is not None:  # the clip bit: some cells were clipped and got no gradient through cs
        assert (np.abs(want[1]) == clip).any()


def train(build, device, x, labels, steps=3):
    """Losses and variables after `steps` SGD steps of the float64 model `build` makes, on `device`."""
    with tg.Graph().as_default():
        xt, yt = tg.placeholder(tg.float64, x.shape), tg.placeholder(tg.int64, labels.shape)
        tg.set_random_seed(1)
        logits = build(xt)
        loss = tg.reduce_mean(tg.nn.sparse_softmax_cross_entropy_with_logits(labels=yt, logits=logits))
        train_op = tg.train.GradientDescentOptimizer(0.1).minimize(loss)
        with tg.Session(device=device) as sess:
            sess.run(tg.global_variables_initializer())
            losses = [sess.run([loss, train_op], {xt: x, yt: labels})[0] for _ in range(steps)]
            return losses, {v.op.name: sess.run(v) for v in tg.trainable_variables()}


def cnn(x):
    h = tg.layers.conv2d(x, 6, 3, padding="same", activation=tg.nn.relu)
    h = tg.layers.max_pooling2d(h, 2, 2)
    h = tg.layers.conv2d(h, 8, 3, strides=2, padding="same", activation=tg.nn.relu)
    return tg.layers.dense(tg.layers.flatten(h), 5)


def lstm(x):
    outputs, _ = tg.nn.dynamic_rnn(tg.nn.rnn_cell.BasicLSTMCell(6), x, dtype=tg.float64)
    return tg.layers.dense(outputs[:, -1], 5)


def lstm_peepholes_clipped(x):
    cell = tg.nn.rnn_cell.LSTMCell(6, use_peepholes=True, cell_clip=0.3)
    outputs, _ = tg.nn.dynamic_rnn(cell, x, dtype=tg.float64)
    return tg.layers.dense(tg.reduce_mean(outputs, axis=1), 5)  # every step's h gets a gradient


@needs_gpu
@pytest.mark.parametrize("build, shape", [(cnn, (4, 12, 12, 3)), (lstm, (4, 9, 3)),
                                          (lstm_peepholes_clipped, (3, 7, 4))],
                         ids=["cnn", "lstm", "lstm-peepholes-clip"])
def test_gpu_training_of_a_cnn_and_an_lstm_equals_the_cpu_in_float64(build, shape):
    x, labels = RNG.standard_normal(shape), RNG.integers(0, 5, shape[0])
    cpu, gpu = train(build, "cpu", x, labels), train(build, "gpu", x, labels)
    assert cpu[0][-1] < cpu[0][0]  # it trained
    np.testing.assert_allclose(gpu[0], cpu[0], rtol=1e-9)
    assert sorted(cpu[1]) == sorted(gpu[1])
    for name in cpu[1]:
        np.testing.assert_allclose(gpu[1][name], cpu[1][name], rtol=1e-8, atol=1e-11, err_msg=name)
