"""tf.train.ExponentialMovingAverage: values after k updates in closed form, TF1's names and collections, and
restoring the averages into the model's variables through tf.train.Saver(ema.variables_to_restore())."""
import os

import numpy as np
import pytest

import trainer as tg

DECAY = 0.75  # exact in float32, so the float64 closed forms below need no rounding allowance


def test_k_updates_follow_the_recurrence_from_the_initial_value():
    values = [np.array([3.0, -1.0]), np.array([0.5, 2.0]), np.array([-4.0, 8.0])]
    with tg.Graph().as_default():
        v = tg.Variable(np.array([1.0, 2.0]), name="v")
        ema = tg.train.ExponentialMovingAverage(DECAY)
        update = ema.apply([v])
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            expected = np.array([1.0, 2.0])
            np.testing.assert_array_equal(sess.run(ema.average(v)), expected)
            for value in values:
                v.load(value, sess)
                sess.run(update)
                expected = DECAY * expected + (1 - DECAY) * value
                np.testing.assert_allclose(sess.run(ema.average(v)), expected, rtol=1e-15)


def test_num_updates_caps_the_decay_early_on():
    decay = 0.999
    with tg.Graph().as_default():
        v = tg.Variable(np.float32(0.0), name="v")
        step = tg.Variable(0, trainable=False, name="global_step")
        ema = tg.train.ExponentialMovingAverage(decay, num_updates=step)
        update = ema.apply([v])
        with tg.control_dependencies([update]):
            advance = step.assign_add(1)
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            expected = np.float64(0.0)
            for k in range(1, 6):
                v.load(np.float32(k), sess)
                n = np.float32(k - 1)
                used = min(np.float32(decay), (np.float32(1) + n) / (np.float32(10) + n))  # 0.1, 0.18, ...
                sess.run(advance)
                expected = used * expected + (1 - used) * k
                np.testing.assert_allclose(sess.run(ema.average(v)), expected, rtol=1e-6)
            assert used < decay  # the cap was in force throughout


def test_tensor_shadows_start_at_zero_and_zero_debias_removes_the_bias():
    c = np.array([2.0, -6.0], np.float32)
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [2])
        doubled = tg.multiply(x, 2.0, name="doubled")
        plain = tg.train.ExponentialMovingAverage(DECAY, name="plain")
        debiased = tg.train.ExponentialMovingAverage(DECAY, zero_debias=True, name="debiased")
        updates = [plain.apply([doubled]), debiased.apply([doubled])]
        assert plain.average(doubled).name == "doubled/plain:0"
        names = {v.op.name for v in tg.global_variables()}
        assert {"doubled/debiased", "doubled/debiased/biased", "doubled/debiased/local_step"} <= names
        assert tg.moving_average_variables() == []  # TF1 lists only Variables there
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            np.testing.assert_array_equal(sess.run(plain.average(doubled)), [0.0, 0.0])
            for k in range(1, 4):
                sess.run(updates, {x: c / 2})
                np.testing.assert_allclose(sess.run(plain.average(doubled)), c * (1 - DECAY ** k), rtol=1e-6)
                np.testing.assert_allclose(sess.run(debiased.average(doubled)), c, rtol=1e-6)


def test_names_collections_and_average_name():
    with tg.Graph().as_default():
        with tg.variable_scope("conv1"):
            w = tg.get_variable("weights", [2, 2], initializer=tg.random_normal_initializer(seed=3))
        b = tg.Variable(np.zeros(2, np.float32), name="b")
        ema = tg.train.ExponentialMovingAverage(0.9)
        assert ema.name == "ExponentialMovingAverage"
        assert ema.average_name(w) == "conv1/weights/ExponentialMovingAverage" and ema.average(w) is None
        update = ema.apply()  # default: the trainable variables
        assert update.name == "ExponentialMovingAverage" and update.type == "NoOp"
        shadow = ema.average(w)
        assert shadow.name == "conv1/weights/ExponentialMovingAverage:0"
        assert ema.average_name(b) == "b/ExponentialMovingAverage"
        assert shadow in tg.global_variables() and shadow not in tg.trainable_variables()
        assert tg.moving_average_variables() == [w, b]
        assert tg.get_collection(tg.GraphKeys.MOVING_AVERAGE_VARIABLES) == [w, b]
        names = [op.name for op in tg.get_default_graph().get_operations()]
        assert "ExponentialMovingAverage/AssignMovingAvg" in names
        assert "ExponentialMovingAverage/AssignMovingAvg_1" in names
        assert ema.apply([w]).name == "ExponentialMovingAverage_1"  # a second apply reuses the shadow
        assert ema.average(w) is shadow
        other = tg.train.ExponentialMovingAverage(0.5)
        other.apply([b])
        assert other.average(b).op.name == "b/ExponentialMovingAverage_1"
        with tg.Session() as sess:  # one draw of the random initializer for the weights and their shadow
            sess.run(tg.global_variables_initializer())
            np.testing.assert_array_equal(*sess.run([w, shadow]))


def test_non_float_variables_are_refused_by_name():
    with tg.Graph().as_default():
        counter = tg.Variable(0, name="counter")
        with pytest.raises(TypeError, match=r"half, float, or double: counter:0 is int32"):
            tg.train.ExponentialMovingAverage(0.9).apply([counter])


def test_variables_to_restore_loads_the_averages_through_a_saver(tmp_path):
    prefix = os.path.join(tmp_path, "model.ckpt")
    with tg.Graph().as_default():
        v = tg.Variable(np.array([1.0, 1.0]), name="v")
        step = tg.train.get_or_create_global_step()
        ema = tg.train.ExponentialMovingAverage(DECAY)
        update = ema.apply([v])
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            v.load(np.array([5.0, -3.0]), sess)
            sess.run(update)
            step.load(7, sess)
            saved_average = sess.run(ema.average(v))
            tg.train.Saver().save(sess, prefix)
    np.testing.assert_allclose(saved_average, [2.0, 0.0])  # 0.75 * 1 + 0.25 * 5, 0.75 * 1 + 0.25 * -3
    with tg.Graph().as_default():  # the evaluation graph: the model again, no shadows
        v = tg.Variable(np.zeros(2), name="v")
        step = tg.train.get_or_create_global_step()
        ema = tg.train.ExponentialMovingAverage(DECAY)
        to_restore = ema.variables_to_restore()
        assert to_restore == {"v/ExponentialMovingAverage": v, "global_step": step}
        with tg.Session() as sess:
            tg.train.Saver(to_restore).restore(sess, prefix)
            np.testing.assert_array_equal(sess.run(v), saved_average)
            assert sess.run(step) == 7


def test_variables_to_restore_maps_shadows_to_their_variables_in_the_training_graph():
    with tg.Graph().as_default():
        v = tg.Variable(1.0, name="v")
        frozen = tg.Variable(2.0, trainable=False, name="frozen")
        ema = tg.train.ExponentialMovingAverage(0.9)
        ema.apply([v])
        assert ema.variables_to_restore() == {"v/ExponentialMovingAverage": v, "frozen": frozen}
        assert ema.variables_to_restore([frozen]) == {"frozen/ExponentialMovingAverage": frozen, "v": v,
                                                      "v/ExponentialMovingAverage": ema.average(v)}
