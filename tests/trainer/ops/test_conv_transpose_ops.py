"""conv2d_transpose against PyTorch, as conv2d's adjoint, and through tf.layers."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op, fresh_graph, run_initialized, torch  # noqa: F401 (fresh_graph: autouse)

RNG = np.random.default_rng(7)


@pytest.mark.parametrize("padding, stride, in_hw, out_hw", [("SAME", 2, (3, 3), (6, 6)), ("VALID", 2, (3, 3), (7, 7)),
                                                            ("SAME", 1, (4, 3), (4, 3)), ("VALID", 1, (2, 2), (4, 4))])
def test_conv2d_transpose_against_torch(padding, stride, in_hw, out_hw):
    x, w = RNG.standard_normal((2, *in_hw, 3)), RNG.standard_normal((3, 3, 2, 3))  # HW out_channels in_channels
    out_shape = [2, *out_hw, 2]

    def torch_fn(x, w):
        y = torch.nn.functional.conv_transpose2d(x.permute(0, 3, 1, 2), w.permute(3, 2, 0, 1), stride=stride)
        # SAME: TF pads (total // 2) before; crop the full transposed output to output_shape the same way
        full = y.shape[2:]
        crops = [((f - o) // 2 if padding == "SAME" else 0) for f, o in zip(full, out_hw)]
        y = y[:, :, crops[0]:crops[0] + out_hw[0], crops[1]:crops[1] + out_hw[1]]
        return y.permute(0, 2, 3, 1)
    check_op(lambda a, b: tg.nn.conv2d_transpose(a, b, out_shape, strides=[1, stride, stride, 1], padding=padding),
             [x, w], torch_fn=torch_fn if torch is not None else None, tol32=dict(rtol=1e-4, atol=1e-4))


def test_conv2d_transpose_is_conv2d_adjoint_and_checks_shapes():
    x = RNG.standard_normal((1, 5, 5, 2))
    w = RNG.standard_normal((3, 3, 2, 4))
    y = RNG.standard_normal((1, 3, 3, 4))
    conv = run_initialized(tg.nn.conv2d(tg.constant(x), tg.constant(w), [1, 2, 2, 1], "SAME"))
    back = run_initialized(tg.nn.conv2d_transpose(tg.constant(y), tg.constant(w), [1, 5, 5, 2], [1, 2, 2, 1], "SAME"))
    np.testing.assert_allclose(np.sum(conv * y), np.sum(x * back), rtol=1e-5)  # <conv x, y> == <x, conv^T y>
    with pytest.raises(ValueError, match="maps 9 to 5"):
        tg.nn.conv2d_transpose(tg.constant(y), tg.constant(w), [1, 9, 9, 2], [1, 2, 2, 1], "SAME")


def test_layers_conv2d_transpose_dynamic_batch():
    x = tg.placeholder(tg.float32, [None, 4, 4, 3])
    y = tg.layers.conv2d_transpose(x, 5, 3, strides=2, padding="same")
    names = sorted(v.name for v in tg.global_variables())
    assert names == ["conv2d_transpose/bias:0", "conv2d_transpose/kernel:0"]
    assert tg.global_variables()[0].shape.as_list() in ([3, 3, 5, 3], [5])
    out = run_initialized(y, {x: np.ones((2, 4, 4, 3))})
    assert out.shape == (2, 8, 8, 5)
    z = tg.layers.Conv2DTranspose(2, (2, 2), strides=(2, 2), padding="valid")(x)
    assert run_initialized(z, {x: np.ones((1, 4, 4, 3))}).shape == (1, 8, 8, 2)


@pytest.mark.parametrize("padding, rate", [("SAME", 2), ("VALID", 3), ("SAME", 1)])
def test_atrous_conv2d_transpose_is_atrous_conv2ds_adjoint(padding, rate):
    rng = np.random.RandomState(1)
    x_value, w_value = rng.randn(2, 9, 8, 3), rng.randn(3, 2, 3, 4)
    x, w = tg.constant(x_value), tg.constant(w_value)
    y = tg.nn.atrous_conv2d(x, w, rate, padding)
    y_value = rng.randn(*y.shape.as_list())
    back = tg.nn.atrous_conv2d_transpose(tg.constant(y_value), w, [2, 9, 8, 3], rate, padding)
    with tg.Session() as sess:
        forward, backward = sess.run([y, back])
    # <conv(x), y> == <x, conv^T(y)>: the transpose is the adjoint
    assert np.isclose(np.sum(forward * y_value), np.sum(x_value * backward), rtol=1e-10)
