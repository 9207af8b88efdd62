"""Conv1D/Conv2D and the padding, cropping and upsampling layers, against PyTorch where installed and numpy."""
import numpy as np
import pytest

from trainer import keras

from .oracle import run_layer

torch = pytest.importorskip("torch")
RNG = np.random.RandomState(1)


@pytest.mark.parametrize("strides, padding, dilation", [(1, "valid", 1), (2, "same", 1), (1, "same", 2)])
def test_conv2d_matches_torch_with_gradients(strides, padding, dilation):
    x = RNG.uniform(-1, 1, (2, 7, 6, 3)).astype(np.float32)
    layer = keras.layers.Conv2D(4, (3, 2), strides=strides, padding=padding, dilation_rate=dilation,
                                activation="relu")
    out, (dx,), (dk, db), r = run_layer(layer, x)
    kernel, bias = layer.get_weights()
    assert kernel.shape == (3, 2, 3, 4) and bias.shape == (4,)
    tx = torch.tensor(x.transpose(0, 3, 1, 2), requires_grad=True)
    tk = torch.tensor(kernel.transpose(3, 2, 0, 1), requires_grad=True)
    tb = torch.tensor(bias, requires_grad=True)
    if padding == "same":  # TF's SAME pads the extra row/column at the end
        need = [max((-(-n // strides) - 1) * strides + (k - 1) * dilation + 1 - n, 0)
                for n, k in zip(x.shape[1:3], kernel.shape[:2])]
        rows, cols = (need[0] // 2, need[0] - need[0] // 2), (need[1] // 2, need[1] - need[1] // 2)
        tx_in = torch.nn.functional.pad(tx, cols + rows)
    else:
        tx_in = tx
    ty = torch.relu(torch.nn.functional.conv2d(tx_in, tk, tb, stride=strides, dilation=dilation))
    np.testing.assert_allclose(out, ty.detach().numpy().transpose(0, 2, 3, 1), rtol=1e-5, atol=1e-6)
    (ty * torch.tensor(r.transpose(0, 3, 1, 2))).sum().backward()
    np.testing.assert_allclose(dx, tx.grad.numpy().transpose(0, 2, 3, 1), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(dk, tk.grad.numpy().transpose(2, 3, 1, 0), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(db, tb.grad.numpy(), rtol=1e-4, atol=1e-5)


def test_conv1d_matches_torch():
    x = RNG.uniform(-1, 1, (2, 9, 3)).astype(np.float32)
    layer = keras.layers.Conv1D(5, 3, strides=2)
    out, (dx,), (dk, _), r = run_layer(layer, x)
    kernel, bias = layer.get_weights()
    tx = torch.tensor(x.transpose(0, 2, 1), requires_grad=True)
    tk = torch.tensor(kernel.transpose(2, 1, 0), requires_grad=True)
    ty = torch.nn.functional.conv1d(tx, tk, torch.tensor(bias), stride=2)
    np.testing.assert_allclose(out, ty.detach().numpy().transpose(0, 2, 1), rtol=1e-5, atol=1e-6)
    (ty * torch.tensor(r.transpose(0, 2, 1))).sum().backward()
    np.testing.assert_allclose(dx, tx.grad.numpy().transpose(0, 2, 1), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(dk, tk.grad.numpy().transpose(2, 1, 0), rtol=1e-4, atol=1e-5)


def test_padding_cropping_and_upsampling():
    x = RNG.uniform(-1, 1, (2, 4, 5, 3)).astype(np.float32)
    out, _, _, _ = run_layer(keras.layers.ZeroPadding2D(((1, 2), (0, 1))), x)
    np.testing.assert_array_equal(out, np.pad(x, ((0, 0), (1, 2), (0, 1), (0, 0))))
    out, _, _, _ = run_layer(keras.layers.Cropping2D(((1, 0), (2, 1))), x)
    np.testing.assert_array_equal(out, x[:, 1:, 2:-1])
    out, (dx,), _, r = run_layer(keras.layers.UpSampling2D((2, 3)), x)
    np.testing.assert_array_equal(out, x.repeat(2, axis=1).repeat(3, axis=2))
    np.testing.assert_allclose(dx, r.reshape(2, 4, 2, 5, 3, 3).sum(axis=(2, 4)), rtol=1e-5)
    seq = RNG.uniform(-1, 1, (2, 4, 3)).astype(np.float32)
    np.testing.assert_array_equal(run_layer(keras.layers.UpSampling1D(2), seq)[0], seq.repeat(2, axis=1))
    np.testing.assert_array_equal(run_layer(keras.layers.ZeroPadding1D(1), seq)[0],
                                  np.pad(seq, ((0, 0), (1, 1), (0, 0))))
    np.testing.assert_array_equal(run_layer(keras.layers.Cropping1D((1, 2)), seq)[0], seq[:, 1:2])
