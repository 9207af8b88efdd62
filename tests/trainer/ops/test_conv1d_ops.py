"""conv1d against PyTorch and numerical gradients, NWC and NCW."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op, torch

RNG = np.random.default_rng(7)


def run(fetches, feed=None):
    with tg.Session() as sess:
        return sess.run(fetches, feed)


@pytest.mark.parametrize("stride,padding,dilation", [(1, "VALID", 1), (2, "SAME", 1), (1, "SAME", 2)])
def test_conv1d_matches_torch_and_numerical_gradient(stride, padding, dilation):
    x, w = RNG.standard_normal((2, 7, 3)), RNG.standard_normal((3, 3, 4))

    def torch_conv(t, f):
        import torch.nn.functional as F
        k = (3 - 1) * dilation + 1
        out_w = -(-7 // stride) if padding == "SAME" else (7 - k) // stride + 1
        total = max((out_w - 1) * stride + k - 7, 0) if padding == "SAME" else 0
        t = F.pad(t.permute(0, 2, 1), (total // 2, total - total // 2))
        return F.conv1d(t, f.permute(2, 1, 0), stride=stride, dilation=dilation).permute(0, 2, 1)

    check_op(lambda t, f: tg.nn.conv1d(t, f, stride=stride, padding=padding, dilations=dilation), [x, w],
             torch_fn=torch_conv if torch else None)


def test_conv1d_ncw_equals_nwc_and_checks_arguments():
    x, w = RNG.standard_normal((2, 6, 3)), RNG.standard_normal((2, 3, 5))
    with tg.Graph().as_default():
        nwc = tg.nn.conv1d(x, w, stride=[1, 2, 1], padding="SAME")
        ncw = tg.nn.conv1d(input=np.transpose(x, (0, 2, 1)), filters=w, stride=2, padding="SAME", data_format="NCW")
        assert nwc.shape == (2, 3, 5)
        a, b = run([nwc, ncw])
        with pytest.raises(ValueError, match="data_format must be 'NWC' or 'NCW', got 'NHCW'"):
            tg.nn.conv1d(x, w, 1, "SAME", data_format="NHCW")
        with pytest.raises(ValueError, match=r"3-D input.*'conv1d_2/Const:0' of shape \(2, 6\)"):
            tg.nn.conv1d(x[..., 0], w, 1, "SAME")
    np.testing.assert_allclose(np.transpose(b, (0, 2, 1)), a, rtol=1e-12)
