"""The benchmark models (scripts/bench_models.py) compute the same training step on ringflow and PyTorch."""
import os
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))
import bench_models  # noqa: E402


def losses(model, steps, optimizer, adam=bench_models.ADAM):
    """Both frameworks' losses before and after each of `steps` steps of `model` trained by `optimizer`."""
    params, x, labels = bench_models.init(model)
    step, sess, _, loss, feed = bench_models.ringflow_step(model, params, x, labels, optimizer=optimizer, adam=adam)
    torch_step, torch_loss = bench_models.torch_step(model, params, x, labels, optimizer=optimizer, adam=adam)
    ours, theirs = [float(sess.run(loss, feed))], [torch_loss()]
    for _ in range(steps):
        step()
        torch_step()
        ours.append(float(sess.run(loss, feed)))
        theirs.append(torch_loss())
    return ours, theirs


@pytest.mark.parametrize("optimizer", bench_models.OPTIMIZERS)
@pytest.mark.parametrize("model", [m for m in bench_models.NAMES if m not in ("gru", "keras-resnet50")])
def test_same_losses_before_and_after_two_steps(model, optimizer):
    ours, theirs = losses(model, 2, optimizer)
    np.testing.assert_allclose(ours, theirs, rtol=2e-5)
    # Adam's first steps move every weight by about its learning rate, which raises the convnets' loss at first
    assert ours[2] < ours[0] if optimizer != "adam" else ours[1] != ours[0] != ours[2]


def test_adam_takes_tf1s_steps_where_epsilon_outweighs_sqrt_v():
    """TF1 adds epsilon to sqrt(v), PyTorch to sqrt(v) / sqrt(1 - beta2^t): with an epsilon far above sqrt(v)
    (the MLP's gradients are under 0.05, so sqrt(v) under 2e-3 at the first step) the two updates differ by
    1 / sqrt(1 - beta2^t), 30x at the first step, unless PyTorch's epsilon is rescaled each step."""
    adam = {**bench_models.ADAM, "learning_rate": 0.01, "epsilon": 0.1}
    ours, theirs = losses("mlp", 3, "adam", adam)
    np.testing.assert_allclose(ours, theirs, rtol=2e-5)
    assert ours[3] < ours[0]


def test_gru_same_loss_while_the_candidates_recurrent_weights_are_zero():
    """TF1's GRUCell resets h before the candidate's matmul, nn.GRU after it: the same function only where that
    matmul's recurrent weights are zero, so the first losses agree; from there both must train."""
    params, x, labels = bench_models.init("gru")
    params[2][bench_models.GRU[1]:] = 0
    step, sess, _, loss, feed = bench_models.ringflow_step("gru", params, x, labels)
    torch_step, torch_loss = bench_models.torch_step("gru", params, x, labels)
    ours, theirs = [float(sess.run(loss, feed))], [torch_loss()]
    np.testing.assert_allclose(ours[0], theirs[0], rtol=2e-5)
    for _ in range(2):
        step()
        torch_step()
    assert float(sess.run(loss, feed)) < ours[0] and torch_loss() < theirs[0]


def test_keras_resnet50_same_loss_and_float64_gradients():
    """ResNet-50 at batch 8 in training mode amplifies float32 rounding (gradients differ by up to 30% between
    the two frameworks after 50 layers), so the float32 check is the first loss, and the gradients are compared
    in float64, where they agree to rounding."""
    import trainer as tg
    model = "keras-resnet50"
    params, x, labels = bench_models.init(model)
    _, sess, _, loss, feed = bench_models.ringflow_step(model, params, x, labels)
    np.testing.assert_allclose(float(sess.run(loss, feed)), bench_models.torch_step(model, params, x, labels)[1](),
                               rtol=1e-4)
    params, x = [p.astype(np.float64) for p in params], x.astype(np.float64)
    with tg.Graph().as_default():
        tg.keras.backend.set_floatx("float64")
        try:
            tg.keras.backend.set_learning_phase(1)
            net = bench_models.keras_model(model)
            net.set_weights(params)
            last = net.layers[-1]
            logits = tg.nn.bias_add(tg.matmul(last.input, last.kernel), last.bias)
            y = tg.placeholder(tg.int64, [None])
            ours = tg.reduce_mean(tg.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
            grads = tg.keras.backend.get_session().run(tg.gradients(ours, net.trainable_weights),
                                                       {net.inputs[0]: x, y: labels})
        finally:
            tg.keras.backend.set_floatx("float32")
    torch_net = bench_models.torch_module(model, params).double()
    images, targets = bench_models.torch_inputs(model, x, labels)
    torch.nn.functional.cross_entropy(torch_net(images), targets).backward()
    theirs = [t.grad.numpy() for t in bench_models.resnet_tensors(torch_net) if t.requires_grad]
    for weight, g, t in zip(net.trainable_weights, grads, theirs, strict=True):
        t = t.transpose(2, 3, 1, 0) if t.ndim == 4 else t.T
        np.testing.assert_allclose(g, t, rtol=1e-6, atol=1e-9 * np.abs(t).max() + 1e-12, err_msg=weight.name)
