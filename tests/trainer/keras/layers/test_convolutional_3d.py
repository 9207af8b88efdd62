"""Conv3D, the 3-D pooling, padding, cropping and upsampling layers against PyTorch and numpy."""
import numpy as np
import pytest

from trainer import keras

from .oracle import run_layer

torch = pytest.importorskip("torch")
F = torch.nn.functional
RNG = np.random.RandomState(4)


def ncdhw(x):
    return torch.tensor(x.transpose(0, 4, 1, 2, 3))


def test_conv3d_weights_and_values():
    x = RNG.uniform(-1, 1, (2, 5, 4, 6, 2)).astype(np.float32)
    layer = keras.layers.Conv3D(3, (2, 3, 3), strides=(1, 1, 2), activation="relu")
    out, (dx,), _, r = run_layer(layer, x)
    assert [w.name for w in layer.weights] == ["conv3d/kernel:0", "conv3d/bias:0"]
    kernel, bias = layer.get_weights()
    assert kernel.shape == (2, 3, 3, 2, 3) and out.shape == (2, 4, 2, 2, 3)
    tx = ncdhw(x).requires_grad_()
    ty = torch.relu(F.conv3d(tx, torch.tensor(kernel.transpose(4, 3, 0, 1, 2)), torch.tensor(bias),
                             stride=(1, 1, 2)))
    np.testing.assert_allclose(out, ty.detach().numpy().transpose(0, 2, 3, 4, 1), rtol=1e-5, atol=1e-6)
    (ty * ncdhw(r)).sum().backward()
    np.testing.assert_allclose(dx, tx.grad.numpy().transpose(0, 2, 3, 4, 1), rtol=1e-4, atol=1e-5)


def test_pooling3d_layers():
    x = RNG.uniform(-1, 1, (2, 4, 4, 6, 3)).astype(np.float32)
    out = run_layer(keras.layers.MaxPooling3D((2, 2, 3)), x)[0]
    np.testing.assert_allclose(out, F.max_pool3d(ncdhw(x), (2, 2, 3)).numpy().transpose(0, 2, 3, 4, 1))
    out = run_layer(keras.layers.AveragePooling3D(2, strides=(2, 2, 3)), x)[0]
    ref = F.avg_pool3d(ncdhw(x), 2, stride=(2, 2, 3)).numpy().transpose(0, 2, 3, 4, 1)
    np.testing.assert_allclose(out, ref, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(run_layer(keras.layers.GlobalAveragePooling3D(), x)[0], x.mean(axis=(1, 2, 3)),
                               rtol=1e-6)
    np.testing.assert_allclose(run_layer(keras.layers.GlobalMaxPooling3D(), x)[0], x.max(axis=(1, 2, 3)))


def test_padding_cropping_upsampling_3d():
    x = RNG.uniform(-1, 1, (1, 2, 3, 4, 2)).astype(np.float32)
    padded = run_layer(keras.layers.ZeroPadding3D(((1, 0), (0, 2), (1, 1))), x)[0]
    np.testing.assert_array_equal(padded, np.pad(x, ((0, 0), (1, 0), (0, 2), (1, 1), (0, 0))))
    cropped = run_layer(keras.layers.Cropping3D(((1, 0), (0, 1), (1, 2))), x)[0]
    np.testing.assert_array_equal(cropped, x[:, 1:, :2, 1:2])
    up = run_layer(keras.layers.UpSampling3D((2, 1, 3)), x)[0]
    np.testing.assert_array_equal(up, x.repeat(2, axis=1).repeat(3, axis=3))


def test_mixed_padding_is_refused_naming_the_argument():
    with pytest.raises(ValueError, match="`padding` should be"):
        keras.layers.ZeroPadding3D(((1, 0), (0, 2), 1))


@pytest.mark.parametrize("padding, expected", [("valid", (5, 7, 7)), ("same", (4, 6, 6))])
def test_conv3d_transpose_shapes_and_values(padding, expected):
    x = RNG.uniform(-1, 1, (2, 2, 3, 3, 3)).astype(np.float32)
    layer = keras.layers.Conv3DTranspose(2, 3, strides=(2, 2, 2), padding=padding)
    out = run_layer(layer, x)[0]
    kernel, bias = layer.get_weights()
    assert kernel.shape == (3, 3, 3, 2, 3) and out.shape == (2, *expected, 2)
    full = F.conv_transpose3d(ncdhw(x), torch.tensor(kernel.transpose(4, 3, 0, 1, 2)), torch.tensor(bias),
                              stride=2)
    crop = [(f - e) // 2 for f, e in zip(full.shape[2:], expected)]
    full = full[:, :, crop[0]:crop[0] + expected[0], crop[1]:crop[1] + expected[1], crop[2]:crop[2] + expected[2]]
    np.testing.assert_allclose(out, full.numpy().transpose(0, 2, 3, 4, 1), rtol=1e-5, atol=1e-5)
