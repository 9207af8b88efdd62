"""tf.train.experimental's loss scaling: the dynamic scale's growth and back-off, skipped non-finite steps, and a
float16 gradient that survives only when scaled."""
import numpy as np
import pytest

import trainer as tg
from trainer.unsupported import NotInRingflow

E = tg.train.experimental


def test_the_dynamic_scale_grows_backs_off_and_skips_steps_as_tf():
    with tg.Graph().as_default():
        step = tg.train.get_or_create_global_step()
        w = tg.Variable(np.float32(2.0), name="w")
        x = tg.placeholder(tg.float32, [])
        scale = E.DynamicLossScale(initial_loss_scale=4, increment_period=2, multiplier=2.0)
        opt = E.MixedPrecisionLossScaleOptimizer(tg.train.GradientDescentOptimizer(0.1), scale)
        train = opt.minimize(w * x, global_step=step)
        assert train.name == "GradientDescent"
        assert sorted(v.op.name for v in tg.global_variables()) == ["current_loss_scale", "global_step",
                                                                     "good_steps", "w"]
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            seen = []
            for value in [1.0, 1.0, 1.0, np.inf, 1.0, np.nan, 1.0]:
                sess.run(train, {x: value})
                seen.append(sess.run([w, scale(), step]))
    # w and the scale after each step, as TF 2.15's tf.compat.v1 gave them; the step counts applied updates only
    np.testing.assert_allclose([s[:2] for s in seen], [[1.9, 4], [1.8, 8], [1.7, 8], [1.7, 4], [1.6, 4], [1.6, 2],
                                                       [1.5, 2]], rtol=1e-6)
    assert [s[2] for s in seen] == [1, 2, 3, 3, 4, 4, 5]


def test_a_fixed_scale_keeps_a_small_float16_gradient_from_flushing_to_zero():
    def gradient(loss_scale):
        with tg.Graph().as_default():
            w = tg.Variable(np.float32(1.0))  # float32 weights, a float16 computation, a float32 loss
            product = tg.cast(w, tg.float16) * np.float16(1e-4) * np.float16(1e-4)
            loss = tg.cast(product, tg.float32)  # d loss / d w = 1e-8, below float16's smallest number
            opt = tg.train.GradientDescentOptimizer(1.0)
            if loss_scale is not None:
                opt = E.MixedPrecisionLossScaleOptimizer(opt, loss_scale)
            (grad, _), = opt.compute_gradients(loss)
            with tg.Session() as sess:
                sess.run(tg.global_variables_initializer())
                return sess.run(grad)
    assert gradient(None) == 0
    assert gradient(2.0 ** 15) == pytest.approx(1e-8, rel=0.01)  # 2^15, TF's initial dynamic scale


def test_loss_scales_describe_themselves_and_refuse_bad_values():
    fixed = E.FixedLossScale(128)
    assert repr(fixed) == "FixedLossScale(128.0)" and fixed.get_config() == {"loss_scale_value": 128.0}
    assert E.FixedLossScale.from_config(fixed.get_config()).get_config() == fixed.get_config()
    with pytest.raises(ValueError, match="at least 1"):
        E.FixedLossScale(0.5)
    with tg.Graph().as_default():
        assert E.DynamicLossScale().get_config() == {"initial_loss_scale": 32768.0, "increment_period": 2000,
                                                     "multiplier": 2.0}
        with pytest.raises(ValueError, match="Invalid loss scale: 'bogus'"):
            E.MixedPrecisionLossScaleOptimizer(tg.train.GradientDescentOptimizer(0.1), "bogus")
    with pytest.raises(ValueError, match='"opt" must be an instance of Optimizer'):
        E.MixedPrecisionLossScaleOptimizer(object(), 3)
    with pytest.raises(TypeError):
        E.LossScale()  # abstract, as TF's
    with pytest.raises(NotInRingflow, match="float16 graph rewrite"):
        E.enable_mixed_precision_graph_rewrite(tg.train.GradientDescentOptimizer(0.1))
