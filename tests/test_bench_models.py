"""The benchmark models (scripts/bench_models.py) compute the same training step on ringflow and PyTorch."""
import os
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))
import bench_models  # noqa: E402


@pytest.mark.parametrize("model", bench_models.NAMES)
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
