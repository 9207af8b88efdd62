"""RMSProp, Adagrad, Adadelta, ProximalGradientDescent and Ftrl: TF1's update rules, slots and names.

Oracles: TF1's own published test values (Ftrl), closed-form numpy transcriptions of TF1's formulas written
here independently of the kernels, and PyTorch where its optimizer coincides with TF1's (20 steps, float64).
The float64 models take Python float hyper-parameters, which TF1 reads as float32 (`tf1`); initial accumulator
values fill the slots in the variable's dtype, exactly.
"""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import torch

STEPS = 20


def tf1(x):
    """What TF1 makes of the Python float x as a float64 variable's hyper-parameter: float32's nearest value."""
    return float(np.float32(x))


def _problem(seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((16, 5)), rng.standard_normal((16, 1)), rng.standard_normal((5, 4)) * 0.5, \
        rng.standard_normal((4, 1)) * 0.5


def _ours(make_optimizer, prepare=None):
    """Weights after each of STEPS steps on mean((tanh(x w1) w2 - y)^2), in float64."""
    x, y, w1, w2 = _problem()
    with tg.Graph().as_default():
        v1, v2 = tg.Variable(w1, name="w1"), tg.Variable(w2, name="w2")
        loss = tg.reduce_mean(tg.square(tg.matmul(tg.nn.tanh(tg.matmul(tg.constant(x), v1)), v2) - y))
        opt = make_optimizer()
        train = opt.minimize(loss, global_step=tg.train.get_or_create_global_step())
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            if prepare:
                prepare(sess, opt, [v1, v2])
            history = []
            for _ in range(STEPS):
                sess.run(train)
                history.append(np.concatenate([a.ravel() for a in sess.run([v1, v2])]))
    return np.array(history)


def _torch(make_optimizer):
    x, y, w1, w2 = (torch.tensor(a) for a in _problem())
    params = [w1.requires_grad_(), w2.requires_grad_()]
    opt = make_optimizer(params)
    history = []
    for _ in range(STEPS):
        opt.zero_grad()
        torch.mean((torch.tanh(x @ params[0]) @ params[1] - y) ** 2).backward()
        opt.step()
        history.append(np.concatenate([p.detach().numpy().ravel() for p in params]))
    return np.array(history)


def _numpy(update, slots_init):
    """The same training with TF1's formula written out in numpy: update(w, g, slots, step) -> new w."""
    x, y, w1, w2 = _problem()
    params = [w1.copy(), w2.copy()]
    slots = [slots_init(p) for p in params]
    history = []
    for step in range(STEPS):
        h = np.tanh(x @ params[0])
        r = 2 * (h @ params[1] - y) / y.size
        grads = [x.T @ ((r @ params[1].T) * (1 - h * h)), h.T @ r]
        params = [update(p, g, s, step) for p, g, s in zip(params, grads, slots)]
        history.append(np.concatenate([p.ravel() for p in params]))
    return np.array(history)


def _tf1_rmsprop(lr, rho, momentum, eps, centered=False, lr_at=None):
    def update(w, g, s, step):
        rate = lr_at(step) if lr_at else lr
        s["ms"] = rho * s["ms"] + (1 - rho) * g * g
        s["mg"] = rho * s["mg"] + (1 - rho) * g
        denom = s["ms"] - s["mg"] ** 2 if centered else s["ms"]
        s["mom"] = momentum * s["mom"] + rate * g / np.sqrt(denom + eps)
        return w - s["mom"]
    return update


def _rms_slots(p):
    return {"ms": np.ones_like(p), "mg": np.zeros_like(p), "mom": np.zeros_like(p)}


@pytest.mark.parametrize("momentum,centered", [(0.0, False), (0.9, False), (0.5, True)])
def test_rmsprop_matches_tf1_formula_over_20_steps(momentum, centered):
    ours = _ours(lambda: tg.train.RMSPropOptimizer(0.01, decay=0.8, momentum=momentum, epsilon=1e-6,
                                                    centered=centered))
    reference = _numpy(_tf1_rmsprop(tf1(0.01), tf1(0.8), tf1(momentum), tf1(1e-6), centered), _rms_slots)
    start = np.concatenate([w.ravel() for w in _problem()[2:]])
    assert np.abs(ours[-1] - start).max() > 1e-3, "RMSProp did not move the weights"
    np.testing.assert_allclose(ours, reference, rtol=1e-10, atol=1e-12)


def _zero_rms(sess, opt, variables):
    # TF1 starts "rms" at ones, PyTorch at zeros: with that slot zeroed (and epsilon 0) the two rules coincide.
    for v in variables:
        rms = opt.get_slot(v, "rms")
        sess.run(rms.assign(np.zeros(rms.shape)))


TORCH_CASES = {
    "rmsprop": (lambda: tg.train.RMSPropOptimizer(0.01, decay=0.9, momentum=0.5, epsilon=0.0), _zero_rms,
                lambda p: torch.optim.RMSprop(p, lr=tf1(0.01), alpha=tf1(0.9), momentum=0.5, eps=0.0)),
    "rmsprop_centered": (lambda: tg.train.RMSPropOptimizer(0.01, decay=0.9, epsilon=0.0, centered=True), _zero_rms,
                         lambda p: torch.optim.RMSprop(p, lr=tf1(0.01), alpha=tf1(0.9), eps=0.0, centered=True)),
    "adagrad": (lambda: tg.train.AdagradOptimizer(0.1, initial_accumulator_value=0.1), None,
                lambda p: torch.optim.Adagrad(p, lr=tf1(0.1), initial_accumulator_value=0.1, eps=0.0)),
    "adadelta": (lambda: tg.train.AdadeltaOptimizer(1.0, rho=0.9, epsilon=1e-6), None,
                 lambda p: torch.optim.Adadelta(p, lr=1.0, rho=tf1(0.9), eps=tf1(1e-6))),
}


@pytest.mark.skipif(torch is None, reason="needs torch")
@pytest.mark.parametrize("name", list(TORCH_CASES))
def test_matches_pytorch_where_the_rules_coincide(name):
    ours, prepare, theirs = TORCH_CASES[name]
    mine, reference = _ours(ours, prepare), _torch(theirs)
    assert np.abs(mine[-1] - mine[0]).max() > 1e-3, f"{name} did not move"
    np.testing.assert_allclose(mine, reference, rtol=1e-9, atol=1e-12, err_msg=f"{name} vs PyTorch")


def test_adagrad_matches_tf1_formula_without_torch():
    def update(w, g, s, step):
        s["acc"] = s["acc"] + g * g
        return w - tf1(0.1) * g / np.sqrt(s["acc"])
    reference = _numpy(update, lambda p: {"acc": np.full_like(p, 0.3)})
    np.testing.assert_allclose(_ours(lambda: tg.train.AdagradOptimizer(0.1, 0.3)), reference, rtol=1e-10)


@pytest.mark.parametrize("l1,l2", [(0.0, 0.0), (0.01, 0.0), (0.01, 0.5)])
def test_proximal_gradient_descent_matches_closed_form(l1, l2):
    def update(w, g, s, step):
        lr = tf1(0.1)
        prox = w - lr * g
        return np.sign(prox) * np.maximum(np.abs(prox) - lr * tf1(l1), 0) / (1 + lr * tf1(l2))
    reference = _numpy(update, lambda p: {})
    ours = _ours(lambda: tg.train.ProximalGradientDescentOptimizer(0.1, l1, l2))
    np.testing.assert_allclose(ours, reference, rtol=1e-10, atol=1e-14)
    if l1 == l2 == 0.0:  # without regularization it is plain gradient descent
        np.testing.assert_allclose(ours, _ours(lambda: tg.train.GradientDescentOptimizer(0.1)), rtol=1e-12)


# TF1's own published values (tensorflow/python/training/ftrl_test.py), float32, lr 3.0, accumulators 0.1.
FTRL_CASES = [
    ([0.0, 0.0], [0.0, 0.0], 3, {}, [-2.60260963, -4.29698515], [-0.28432083, -0.56694895]),
    ([1.0, 2.0], [4.0, 3.0], 3, {}, [-2.55607247, -3.98729396], [-0.28232238, -0.56096673]),
    ([1.0, 2.0], [4.0, 3.0], 10, dict(l1_regularization_strength=0.001),
     [-7.66718769, -10.91273689], [-0.93460727, -1.86147261]),
    ([1.0, 2.0], [4.0, 3.0], 10, dict(l1_regularization_strength=0.001, l2_regularization_strength=2.0),
     [-0.24059935, -0.46829352], [-0.02406147, -0.04830509]),
    ([1.0, 2.0], [4.0, 3.0], 10, dict(l1_regularization_strength=0.001, l2_regularization_strength=2.0,
                                      l2_shrinkage_regularization_strength=0.1),
     [-0.22578995, -0.44345796], [-0.14378493, -0.13229476]),
]


@pytest.mark.parametrize("init0,init1,steps,kwargs,want0,want1", FTRL_CASES)
def test_ftrl_reproduces_tf1_published_values(init0, init1, steps, kwargs, want0, want1):
    with tg.Graph().as_default():
        var0, var1 = tg.Variable(np.float32(init0), name="v0"), tg.Variable(np.float32(init1), name="v1")
        grads = [tg.constant([0.1, 0.2]), tg.constant([0.01, 0.02])]
        opt = tg.train.FtrlOptimizer(3.0, initial_accumulator_value=0.1, **kwargs)
        update = opt.apply_gradients(zip(grads, [var0, var1]))
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            for _ in range(steps):
                sess.run(update)
            got0, got1 = sess.run([var0, var1])
    assert got0.dtype == np.float32
    np.testing.assert_allclose(got0, want0, rtol=1e-5)
    np.testing.assert_allclose(got1, want1, rtol=1e-5)


def test_slots_have_tf1_names_and_initial_values():
    with tg.Graph().as_default():
        with tg.variable_scope("dense"):
            w = tg.get_variable("kernel", [2, 3], dtype=tg.float64)
        loss = tg.reduce_sum(tg.square(w))
        opts = {"rms": tg.train.RMSPropOptimizer(0.1, centered=True), "ada": tg.train.AdagradOptimizer(0.1, 0.25),
                "ftrl": tg.train.FtrlOptimizer(0.1), "delta": tg.train.AdadeltaOptimizer()}
        for opt in opts.values():
            opt.minimize(loss)
        names = {k: {s: opt.get_slot(w, s).name for s in opt.get_slot_names()} for k, opt in opts.items()}
        assert names["rms"] == {"rms": "dense/kernel/RMSProp:0", "mg": "dense/kernel/RMSProp_1:0",
                                "momentum": "dense/kernel/RMSProp_2:0"}
        assert names["ada"] == {"accumulator": "dense/kernel/Adagrad:0"}
        assert names["ftrl"] == {"accum": "dense/kernel/Ftrl:0", "linear": "dense/kernel/Ftrl_1:0"}
        assert names["delta"] == {"accum": "dense/kernel/Adadelta:0", "accum_update": "dense/kernel/Adadelta_1:0"}
        assert [v.name for v in tg.trainable_variables()] == ["dense/kernel:0"]
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            np.testing.assert_array_equal(sess.run(opts["rms"].get_slot(w, "rms")), np.ones((2, 3)))
            np.testing.assert_array_equal(sess.run(opts["rms"].get_slot(w, "mg")), np.zeros((2, 3)))
            np.testing.assert_array_equal(sess.run(opts["ada"].get_slot(w, "accumulator")), np.full((2, 3), 0.25))
            assert set(opts["ftrl"].variables()) == {opts["ftrl"].get_slot(w, "accum"),
                                                      opts["ftrl"].get_slot(w, "linear")}


def test_tensor_learning_rate_from_a_schedule():
    lr_at = lambda step: 0.02 * 0.5 ** (step / 4)  # noqa: E731
    ours = _ours(lambda: tg.train.RMSPropOptimizer(
        tg.train.exponential_decay(0.02, tg.train.get_or_create_global_step(), 4, 0.5), momentum=0.9))
    reference = _numpy(_tf1_rmsprop(None, 0.9, 0.9, 1e-10, lr_at=lr_at), _rms_slots)
    np.testing.assert_allclose(ours, reference, rtol=1e-6, atol=1e-7)  # the schedule is float32, as in TF1


def test_bad_hyper_parameters_are_named():
    with pytest.raises(ValueError, match=r"initial_accumulator_value must be positive: 0\.0"):
        tg.train.AdagradOptimizer(0.1, initial_accumulator_value=0.0)
    with pytest.raises(ValueError, match=r"learning_rate_power 0\.5 needs to be negative or zero"):
        tg.train.FtrlOptimizer(0.1, learning_rate_power=0.5)
    with pytest.raises(ValueError, match=r"l1_regularization_strength -1\.0 needs to be positive or zero"):
        tg.train.FtrlOptimizer(0.1, l1_regularization_strength=-1.0)


# w after each of three steps on sum((w * x - 1)^2), w = [0.5, -1, 2], x = [1, 2, -3] (float32), as TF 2.15's
# tf.compat.v1 trained it, with the variables TF made
PROXIMAL_ADAGRAD_RUNS = [
    (lambda step: tg.train.ProximalAdagradOptimizer(0.1), ["global_step", "w", "w/ProximalAdagrad"],
     [[0.5953462719917297, -0.9000347256660461, 1.9000028371810913],
      [0.656437337398529, -0.8318146467208862, 1.8308581113815308],
      [0.7024803757667542, -0.7773772478103638, 1.7751942873001099]]),
    (lambda step: tg.train.ProximalAdagradOptimizer(0.2, initial_accumulator_value=0.5, l1_regularization_strength=0.3,
                                                    l2_regularization_strength=0.1),
     ["global_step", "w", "w/ProximalAdagrad"],
     [[0.6044391393661499, -0.7940338253974915, 1.7977440357208252],
      [0.6627160906791687, -0.658909022808075, 1.6612396240234375],
      [0.7006247043609619, -0.554126501083374, 1.5531409978866577]]),
    (lambda step: tg.train.AdagradDAOptimizer(0.1, step), ["global_step", "w", "w/AdagradDA", "w/AdagradDA_1"],
     [[0.09534626454114914, 0.09996529668569565, -0.09999717026948929],
      [0.13433218002319336, 0.12235163152217865, -0.10945113003253937],
      [0.1672440767288208, 0.14251649379730225, -0.11845956742763519]]),
    (lambda step: tg.train.AdagradDAOptimizer(0.2, step, initial_gradient_squared_accumulator_value=0.5,
                                              l1_regularization_strength=0.3, l2_regularization_strength=0.1),
     ["global_step", "w", "w/AdagradDA", "w/AdagradDA_1"],
     [[0.11247284710407257, 0.19433899223804474, -0.1984488070011139],
      [0.19804051518440247, 0.22499847412109375, -0.20812925696372986],
      [0.2532341778278351, 0.25146764516830444, -0.21699301898479462]]),
]


@pytest.mark.parametrize("make, variables, steps", PROXIMAL_ADAGRAD_RUNS,
                         ids=["proximal_adagrad", "proximal_adagrad_l1_l2", "adagrad_da", "adagrad_da_l1_l2"])
def test_proximal_adagrad_and_adagrad_da_train_as_tf(make, variables, steps):
    with tg.Graph().as_default():
        step = tg.train.get_or_create_global_step()
        w = tg.Variable(np.array([0.5, -1.0, 2.0], np.float32), name="w")
        loss = tg.reduce_sum(tg.square(w * np.array([1.0, 2.0, -3.0], np.float32) - 1.0))
        train = make(step).minimize(loss, global_step=step)
        assert sorted(v.op.name for v in tg.global_variables()) == variables
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            got = [sess.run(train) or sess.run(w).tolist() for _ in range(3)]
    np.testing.assert_allclose(got, steps, rtol=2e-6)


def test_the_adagrad_variants_want_a_positive_initial_accumulator():
    with pytest.raises(ValueError, match="initial_accumulator_value must be positive: 0.0"):
        tg.train.ProximalAdagradOptimizer(0.1, initial_accumulator_value=0.0)
    with pytest.raises(ValueError, match="initial_gradient_squared_accumulator_value must be positive"):
        tg.train.AdagradDAOptimizer(0.1, None, initial_gradient_squared_accumulator_value=-1)
