"""DepthwiseConv2D, SeparableConv1D/2D and Conv2DTranspose: Keras' weights and names, values against PyTorch."""
import numpy as np
import pytest

from trainer import keras

from .oracle import run_layer

torch = pytest.importorskip("torch")
F = torch.nn.functional
RNG = np.random.RandomState(2)


def nchw(x):
    return torch.tensor(x.transpose(0, 3, 1, 2))


def test_depthwise_conv2d_weights_and_values():
    x = RNG.uniform(-1, 1, (2, 6, 6, 3)).astype(np.float32)
    layer = keras.layers.DepthwiseConv2D(3, strides=2, depth_multiplier=2, bias_initializer="ones")
    out, (dx,), (dk, db), r = run_layer(layer, x)
    assert [w.name for w in layer.weights] == ["depthwise_conv2d/depthwise_kernel:0", "depthwise_conv2d/bias:0"]
    kernel, bias = layer.get_weights()
    assert kernel.shape == (3, 3, 3, 2) and bias.shape == (6,) and out.shape == (2, 2, 2, 6)
    tx = nchw(x).requires_grad_()
    tk = torch.tensor(kernel.transpose(2, 3, 0, 1).reshape(6, 1, 3, 3), requires_grad=True)
    ty = F.conv2d(tx, tk, torch.tensor(bias), stride=2, groups=3)
    np.testing.assert_allclose(out, ty.detach().numpy().transpose(0, 2, 3, 1), rtol=1e-5, atol=1e-6)
    (ty * nchw(r)).sum().backward()
    np.testing.assert_allclose(dx, tx.grad.numpy().transpose(0, 2, 3, 1), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(dk, tk.grad.numpy().reshape(3, 2, 3, 3).transpose(2, 3, 0, 1), rtol=1e-4, atol=1e-5)


def test_separable_conv2d_is_depthwise_then_pointwise():
    x = RNG.uniform(-1, 1, (2, 5, 5, 2)).astype(np.float32)
    layer = keras.layers.SeparableConv2D(4, 3, padding="same", depth_multiplier=2)
    out, _, grads, _ = run_layer(layer, x)
    assert [w.name for w in layer.weights] == ["separable_conv2d/depthwise_kernel:0",
                                               "separable_conv2d/pointwise_kernel:0", "separable_conv2d/bias:0"]
    depthwise, pointwise, bias = layer.get_weights()
    assert depthwise.shape == (3, 3, 2, 2) and pointwise.shape == (1, 1, 4, 4) and len(grads) == 3
    mid = F.conv2d(F.pad(nchw(x), (1, 1, 1, 1)), torch.tensor(depthwise.transpose(2, 3, 0, 1).reshape(4, 1, 3, 3)),
                   groups=2)
    ty = F.conv2d(mid, torch.tensor(pointwise.transpose(3, 2, 0, 1)), torch.tensor(bias))
    np.testing.assert_allclose(out, ty.numpy().transpose(0, 2, 3, 1), rtol=1e-5, atol=1e-5)


def test_separable_conv1d_matches_the_2d_layer_on_one_row():
    x = RNG.uniform(-1, 1, (2, 9, 3)).astype(np.float32)
    one = keras.layers.SeparableConv1D(5, 3, strides=2)
    out1, _, _, _ = run_layer(one, x)
    depthwise, pointwise, bias = one.get_weights()
    assert depthwise.shape == (3, 3, 1) and pointwise.shape == (1, 3, 5) and out1.shape == (2, 4, 5)
    two = keras.layers.SeparableConv2D(5, (1, 3), strides=(1, 2))
    two.build((None, 1, 9, 3))
    two.set_weights([depthwise[None], pointwise[None], bias])
    out2, _, _, _ = run_layer(two, x[:, None])
    np.testing.assert_allclose(out1, out2[:, 0], rtol=1e-6)


@pytest.mark.parametrize("padding, strides, expected_hw", [("valid", 2, (9, 11)), ("same", 2, (8, 10)),
                                                           ("valid", 1, (6, 7))])
def test_conv2d_transpose_shapes_and_values(padding, strides, expected_hw):
    x = RNG.uniform(-1, 1, (2, 4, 5, 3)).astype(np.float32)
    layer = keras.layers.Conv2DTranspose(2, 3, strides=strides, padding=padding)
    out, (dx,), _, r = run_layer(layer, x)
    kernel, bias = layer.get_weights()
    assert kernel.shape == (3, 3, 2, 3) and out.shape == (2, *expected_hw, 2)
    full = F.conv_transpose2d(nchw(x), torch.tensor(kernel.transpose(3, 2, 0, 1)), torch.tensor(bias),
                              stride=strides)
    crop = [(f - e) // 2 for f, e in zip(full.shape[2:], expected_hw)]  # SAME crops the full output's middle
    full = full[:, :, crop[0]:crop[0] + expected_hw[0], crop[1]:crop[1] + expected_hw[1]]
    np.testing.assert_allclose(out, full.numpy().transpose(0, 2, 3, 1), rtol=1e-5, atol=1e-5)


def test_layers_serialize_their_own_arguments():
    config = keras.layers.DepthwiseConv2D(3, depth_multiplier=2).get_config()
    assert config["depth_multiplier"] == 2 and "depthwise_initializer" in config and "filters" not in config
    again = keras.layers.SeparableConv2D.from_config(keras.layers.SeparableConv2D(4, 3).get_config())
    assert again.filters == 4 and again.kernel_size == (3, 3)
