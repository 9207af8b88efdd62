"""Learning-rate schedules: float32 graph ops of the global step, checked against TF1's closed forms in float64."""
import math

import numpy as np
import pytest

import trainer as tg

STEPS = [0, 1, 3, 5, 10, 11, 25, 100]


def _floor_if(staircase, p):
    return math.floor(p) if staircase else p


def _poly(step, lr, decay_steps, end, power, cycle):
    if cycle:
        decay_steps *= 1 if step == 0 else math.ceil(step / decay_steps)
    else:
        step = min(step, decay_steps)
    return (lr - end) * (1 - step / decay_steps) ** power + end


SCHEDULES = {
    "exponential": (lambda g: tg.train.exponential_decay(0.1, g, 10, 0.5),
                    lambda s: 0.1 * 0.5 ** (s / 10)),
    "exponential_staircase": (lambda g: tg.train.exponential_decay(0.1, g, 10, 0.5, staircase=True),
                              lambda s: 0.1 * 0.5 ** math.floor(s / 10)),
    "natural_exp": (lambda g: tg.train.natural_exp_decay(0.1, g, 5, 0.3),
                    lambda s: 0.1 * math.exp(-0.3 * s / 5)),
    "natural_exp_staircase": (lambda g: tg.train.natural_exp_decay(0.1, g, 5, 0.3, staircase=True),
                              lambda s: 0.1 * math.exp(-0.3 * math.floor(s / 5))),
    "inverse_time": (lambda g: tg.train.inverse_time_decay(0.1, g, 5, 0.5),
                     lambda s: 0.1 / (1 + 0.5 * s / 5)),
    "inverse_time_staircase": (lambda g: tg.train.inverse_time_decay(0.1, g, 5, 0.5, staircase=True),
                               lambda s: 0.1 / (1 + 0.5 * math.floor(s / 5))),
    "polynomial": (lambda g: tg.train.polynomial_decay(0.1, g, 20, 0.01, power=2.0),
                   lambda s: _poly(s, 0.1, 20, 0.01, 2.0, False)),
    "polynomial_default": (lambda g: tg.train.polynomial_decay(0.1, g, 20),
                           lambda s: _poly(s, 0.1, 20, 0.0001, 1.0, False)),
    "polynomial_cycle": (lambda g: tg.train.polynomial_decay(0.1, g, 4, 0.01, power=0.5, cycle=True),
                         lambda s: _poly(s, 0.1, 4, 0.01, 0.5, True)),
    "cosine": (lambda g: tg.train.cosine_decay(0.1, g, 20),
               lambda s: 0.1 * 0.5 * (1 + math.cos(math.pi * min(s, 20) / 20))),
    "cosine_alpha": (lambda g: tg.train.cosine_decay(0.1, g, 20, alpha=0.2),
                     lambda s: 0.1 * (0.8 * 0.5 * (1 + math.cos(math.pi * min(s, 20) / 20)) + 0.2)),
    "cosine_restarts": (lambda g: tg.train.cosine_decay_restarts(0.1, g, 4),
                        lambda s: _sgdr(s, 0.1, 4, 2.0, 1.0, 0.0)),
    "cosine_restarts_constant_period": (lambda g: tg.train.cosine_decay_restarts(0.1, g, 5, t_mul=1.0, m_mul=0.5,
                                                                                 alpha=0.1),
                                        lambda s: _sgdr(s, 0.1, 5, 1.0, 0.5, 0.1)),
    "linear_cosine": (lambda g: tg.train.linear_cosine_decay(0.1, g, 20),
                      lambda s: _linear_cosine(s, 0.1, 20, 0.5, 0.0, 0.001)),
    "linear_cosine_periods": (lambda g: tg.train.linear_cosine_decay(0.1, g, 12, num_periods=2.0, alpha=0.1,
                                                                     beta=0.01),
                              lambda s: _linear_cosine(s, 0.1, 12, 2.0, 0.1, 0.01)),
    "noisy_linear_cosine_without_noise": (lambda g: tg.train.noisy_linear_cosine_decay(0.1, g, 20,
                                                                                       initial_variance=0.0),
                                          lambda s: _linear_cosine(s, 0.1, 20, 0.5, 0.0, 0.001)),
}


def _sgdr(step, lr, period, t_mul, m_mul, alpha):
    """Walk the restarts one period at a time (SGDR), as a reference for the closed form."""
    start, restart = 0.0, 0
    while step >= start + period * t_mul ** restart:
        start, restart = start + period * t_mul ** restart, restart + 1
    fraction = (step - start) / (period * t_mul ** restart)
    return lr * ((1 - alpha) * 0.5 * m_mul ** restart * (1 + math.cos(math.pi * fraction)) + alpha)


def _linear_cosine(step, lr, decay_steps, periods, alpha, beta):
    step = min(step, decay_steps)
    cosine = 0.5 * (1 + math.cos(math.pi * 2 * periods * step / decay_steps))
    return lr * ((alpha + (decay_steps - step) / decay_steps) * cosine + beta)


@pytest.mark.parametrize("name", list(SCHEDULES))
def test_schedule_matches_closed_form(name):
    build, closed_form = SCHEDULES[name]
    with tg.Graph().as_default():
        step = tg.placeholder(tg.int64, [])
        lr = build(step)
        assert lr.dtype == tg.float32 and lr.shape == ()
        with tg.Session() as sess:
            got = [sess.run(lr, {step: s}) for s in STEPS]
    assert np.asarray(got).dtype == np.float32
    np.testing.assert_allclose(got, [closed_form(s) for s in STEPS], rtol=2e-6, atol=1e-9, err_msg=name)


def test_schedule_follows_the_global_step_and_keeps_tensor_dtype():
    with tg.Graph().as_default():
        step = tg.train.get_or_create_global_step()
        lr = tg.train.exponential_decay(tg.constant(0.5, dtype=tg.float64), step, 3, 0.1, staircase=True)
        assert lr.name == "ExponentialDecay:0" and lr.dtype == tg.float64
        assert tg.train.cosine_decay(0.1, step, 5, name="lr").name == "lr:0"
        increment = step.assign_add(np.int64(1))
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            seen = []
            for _ in range(7):
                seen.append(sess.run(lr))
                sess.run(increment)
    np.testing.assert_allclose(seen, [0.5] * 3 + [0.05] * 3 + [0.005], rtol=1e-12)


def test_gradient_descent_with_a_decayed_learning_rate():
    # d(w^2/2)/dw = w, so each step multiplies w by (1 - lr_t) with lr_t = 0.1 * 0.9^t.
    with tg.Graph().as_default():
        step = tg.train.get_or_create_global_step()
        w = tg.Variable(np.float32(1.0), name="w")
        lr = tg.train.exponential_decay(0.1, step, 1, 0.9)
        train = tg.train.GradientDescentOptimizer(lr).minimize(0.5 * w * w, global_step=step)
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            for _ in range(5):
                sess.run(train)
            got = sess.run(w)
    np.testing.assert_allclose(got, np.prod([1 - 0.1 * 0.9 ** t for t in range(5)]), rtol=1e-6)


def test_piecewise_constant():
    with tg.Graph().as_default():
        step = tg.placeholder(tg.int64, [])
        lr = tg.train.piecewise_constant(step, [10, 20], [1.0, 0.5, 0.1])
        ints = tg.train.piecewise_constant(tg.placeholder(tg.float32, [], name="x"), [0.5], [7, 8])
        assert lr.dtype == tg.float32 and lr.name == "PiecewiseConstant:0" and ints.dtype == tg.int32
        with tg.Session() as sess:
            got = [sess.run(lr, {step: s}) for s in [0, 9, 10, 11, 20, 21, 1000]]
            assert [sess.run(ints, {"x:0": v}) for v in [0.25, 0.5, 0.75]] == [7, 7, 8]
    np.testing.assert_allclose(got, [1.0, 1.0, 1.0, 0.5, 0.5, 0.1, 0.1], rtol=1e-7)


def test_piecewise_constant_errors_name_the_problem():
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [], name="x")
        with pytest.raises(ValueError, match=r"Boundaries \(int32\) must have the same dtype as x \(float32\)"):
            tg.train.piecewise_constant(x, [1, 2], [0.1, 0.2, 0.3])
        with pytest.raises(ValueError, match=r"1 less than the length of values, got 2 boundaries and 2 values"):
            tg.train.piecewise_constant(x, [1.0, 2.0], [0.1, 0.2])
        with pytest.raises(ValueError, match=r"same dtype \(float32 vs int32\)"):
            tg.train.piecewise_constant(x, [1.0], [0.1, 2])


def test_global_step_is_required():
    with tg.Graph().as_default():
        with pytest.raises(ValueError, match="global_step is required for exponential_decay"):
            tg.train.exponential_decay(0.1, None, 10, 0.5)
        with pytest.raises(TypeError, match="learning rate must be a float Tensor.*int32"):
            tg.train.cosine_decay(tg.constant(1), tg.constant(0), 10)


def test_noisy_linear_cosine_decay_draws_fresh_noise_that_fades_with_the_step():
    with tg.Graph().as_default():
        tg.set_random_seed(1)
        step = tg.placeholder(tg.int64, [1000])
        lr = tg.train.noisy_linear_cosine_decay(1.0, step, 10 ** 6, initial_variance=1.0, variance_decay=0.55)
        assert lr.name == "NoisyLinearCosineDecay:0" and lr.shape == (1000,)
        with tg.Session() as sess:
            early, again = (sess.run(lr, {step: np.zeros(1000, np.int64)}) for _ in range(2))
            late = sess.run(lr, {step: np.full(1000, 10 ** 5, np.int64)})
    # at step 0 the rate is 1 + beta plus N(0, 1) noise; at step s its noise has variance (1 + s)^-0.55
    assert abs(early.mean() - 1.001) < 0.15 and 0.85 < early.std() < 1.15 and not np.array_equal(early, again)
    assert late.std() < 0.1


def test_noisy_linear_cosine_decay_needs_the_steps_shape():
    with tg.Graph().as_default():
        with pytest.raises(ValueError, match="partially known TensorShape.*fully known shape"):
            tg.train.noisy_linear_cosine_decay(0.1, tg.placeholder(tg.int64, [None]), 10)


def test_the_global_step_is_created_once_read_and_checked():
    with tg.Graph().as_default():
        step = tg.train.create_global_step()
        assert step.name == "global_step:0" and tg.train.get_or_create_global_step() is step
        with pytest.raises(ValueError, match='"global_step" already exists'):
            tg.train.create_global_step()
        tg.train.assert_global_step(step)
        tg.train.assert_global_step(tg.placeholder(tg.int32))  # unknown shape passes, as in TF
        with pytest.raises(TypeError, match="does not have integer type: float32"):
            tg.train.assert_global_step(tg.constant(1.0))
        with pytest.raises(TypeError, match="is not scalar"):
            tg.train.assert_global_step(tg.constant([1, 2]))
        with pytest.raises(TypeError, match="must be a Variable or Tensor: 3"):
            tg.train.assert_global_step(3)
        with tg.Session() as sess:
            sess.run(step.initializer)
            sess.run(step.assign_add(np.int64(5)))
            value = tg.train.global_step(sess, step)
    assert value == 5 and type(value) is int
