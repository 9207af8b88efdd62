"""batch_normalization and fused_batch_norm against their formula and PyTorch."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op, fresh_graph, run_initialized, torch  # noqa: F401 (fresh_graph: autouse)

RNG = np.random.default_rng(7)


def test_batch_normalization_matches_formula():
    x, mean, var, offset, scale = (RNG.standard_normal((4, 3)), RNG.standard_normal(3), RNG.uniform(0.5, 2, 3),
                                   RNG.standard_normal(3), RNG.standard_normal(3))
    check_op(lambda *ts: tg.nn.batch_normalization(*ts, variance_epsilon=1e-3), [x, mean, var, offset, scale],
             numpy_fn=lambda x, m, v, o, s: (x - m) / np.sqrt(v + 1e-3) * s + o)


@pytest.mark.parametrize("data_format", ["NHWC", "NCHW"])
def test_fused_batch_norm(data_format):
    x, scale, offset = RNG.standard_normal((2, 3, 3, 2)), RNG.uniform(0.5, 2, 2), RNG.standard_normal(2)
    if data_format == "NCHW":
        x = x.transpose(0, 3, 1, 2)
    axes = (0, 1, 2) if data_format == "NHWC" else (0, 2, 3)
    bshape = (1, 1, 1, 2) if data_format == "NHWC" else (1, 2, 1, 1)

    def reference(x, s, o):
        m, v = x.mean(axis=axes), x.var(axis=axes)
        return (x - m.reshape(bshape)) / np.sqrt(v.reshape(bshape) + 1e-3) * s.reshape(bshape) + o.reshape(bshape)
    check_op(lambda *ts: tg.nn.fused_batch_norm(*ts, epsilon=1e-3, data_format=data_format)[0], [x, scale, offset],
             numpy_fn=reference)
    y, m, v = tg.nn.fused_batch_norm(tg.constant(x), tg.constant(scale), tg.constant(offset), epsilon=1e-3,
                                     data_format=data_format)
    _, m_v, v_v = run_initialized([y, m, v])
    np.testing.assert_allclose(m_v, x.mean(axis=axes))
    np.testing.assert_allclose(v_v, x.var(axis=axes, ddof=1))  # TF1 returns the Bessel-corrected variance
    y2, m2, v2 = tg.nn.fused_batch_norm(tg.constant(x), tg.constant(scale), tg.constant(offset), mean=m_v,
                                        variance=v_v, epsilon=1e-3, data_format=data_format, is_training=False)
    y2_v = run_initialized(y2)
    if torch is not None:
        expected = torch.nn.functional.batch_norm(
            torch.tensor(x if data_format == "NCHW" else x.transpose(0, 3, 1, 2)), torch.tensor(m_v),
            torch.tensor(v_v), torch.tensor(scale), torch.tensor(offset), training=False, eps=1e-3).numpy()
        np.testing.assert_allclose(y2_v, expected if data_format == "NCHW" else expected.transpose(0, 2, 3, 1),
                                   rtol=1e-10)
    with pytest.raises(ValueError, match="population mean"):
        tg.nn.fused_batch_norm(tg.constant(x), tg.constant(scale), tg.constant(offset), is_training=False)


@pytest.mark.parametrize("is_training", [True, False], ids=["training", "inference"])
def test_fused_batch_norm_is_one_op_each_way_with_the_composed_ops_gradients(is_training):
    """TF1's FusedBatchNormV3 and FusedBatchNormGradV3: first and second derivatives those of the formula."""
    x, cot = RNG.standard_normal((3, 4, 5, 2)) * 2 + 1, RNG.standard_normal((3, 4, 5, 2))
    scale, offset = RNG.uniform(0.5, 2, 2), RNG.standard_normal(2)
    mean, var = RNG.standard_normal(2), RNG.uniform(0.5, 2, 2)

    def derivatives(fused):
        with tg.Graph().as_default() as graph:
            xt, st, ot = tg.constant(x), tg.constant(scale), tg.constant(offset)
            if fused:
                y = tg.nn.fused_batch_norm(xt, st, ot, mean=mean if not is_training else None,
                                           variance=var if not is_training else None, epsilon=1e-3,
                                           is_training=is_training)[0]
            else:
                m, v = tg.nn.moments(xt, [0, 1, 2]) if is_training else (mean, var)
                y = tg.nn.batch_normalization(xt, m, v, ot, st, 1e-3)
            first = tg.gradients(tg.reduce_sum(y * cot), [xt, st, ot])
            second = tg.gradients(tg.reduce_sum(tg.square(first[0])) + tg.reduce_sum(first[1] * first[1]), [xt, st])
            types = {op.type for op in graph.get_operations()}
            with tg.Session() as sess:
                return sess.run([y, *first, *second]), types

    (fused, types), (composed, _) = derivatives(True), derivatives(False)
    assert {"FusedBatchNormV3", "FusedBatchNormGradV3"} <= types
    for name, got, want in zip(["y", "dx", "dscale", "doffset", "d2x", "d2scale"], fused, composed):
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-11, err_msg=name)
