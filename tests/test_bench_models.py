"""The benchmark models (scripts/bench_models.py) compute the same training step on ringflow and PyTorch."""
import os
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))
import bench_models  # noqa: E402


@pytest.mark.parametrize("model", [m for m in bench_models.NAMES if m != "gru"])
def test_same_losses_before_and_after_two_steps(model):
    params, x, labels = bench_models.init(model)
    step, sess, _, loss, feed = bench_models.ringflow_step(model, params, x, labels)
    torch_step, torch_loss = bench_models.torch_step(model, params, x, labels)
    ours, theirs = [float(sess.run(loss, feed))], [torch_loss()]
    for _ in range(2):
        step()
        torch_step()
        ours.append(float(sess.run(loss, feed)))
        theirs.append(torch_loss())
    np.testing.assert_allclose(ours, theirs, rtol=2e-5)
    assert ours[2] < ours[0]


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
