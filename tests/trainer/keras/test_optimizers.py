"""Keras' optimizers against numpy replays of TF 1.15's formulas, three steps on a fixed loss; `lr` is a variable."""
import numpy as np
import pytest

import trainer as tg
from trainer import keras
from trainer.keras import backend as K
from trainer.keras.optimizer_v2 import optimizer_v2

W0 = np.array([0.5, -1.5, 2.0], dtype=np.float32)
TARGET = np.array([1.0, 1.0, -1.0], dtype=np.float32)


def grad(w):
    return 2 * (w - TARGET) + np.cos(w)  # the gradient of sum((w - target)**2 + sin(w))


def run(optimizer, steps=3):
    w = K.variable(W0)
    loss = K.sum(K.square(w - TARGET) + tg.sin(w))
    updates = optimizer.get_updates(loss, [w])
    session = K.get_session()
    for _ in range(steps):
        session.run(updates)
    return K.get_value(w)


def replay(step, state, steps=3):
    w = W0.astype(np.float64)
    for t in range(1, steps + 1):
        w = step(w, grad(w), state, t)
    return w


def sgd(lr, momentum=0.0, nesterov=False, decay=0.0):
    def step(w, g, s, t):
        lr_t = lr / (1 + decay * (t - 1))
        s["v"] = momentum * s.get("v", 0) - lr_t * g
        return w + momentum * s["v"] - lr_t * g if nesterov else w + s["v"]
    return step


def adam(lr=0.001, b1=0.9, b2=0.999, eps=1e-7):
    def step(w, g, s, t):
        s["m"] = b1 * s.get("m", 0) + (1 - b1) * g
        s["v"] = b2 * s.get("v", 0) + (1 - b2) * g * g
        return w - lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t) * s["m"] / (np.sqrt(s["v"]) + eps)
    return step


def rmsprop(lr=0.001, rho=0.9, eps=1e-7):
    def step(w, g, s, t):
        s["ms"] = rho * s.get("ms", 0) + (1 - rho) * g * g
        return w - lr * g / (np.sqrt(s["ms"]) + eps)
    return step


def adagrad(lr=0.001, initial=0.1, eps=1e-7):
    def step(w, g, s, t):
        s["acc"] = s.get("acc", initial) + g * g
        return w - lr * g / (np.sqrt(s["acc"]) + eps)
    return step


def adadelta(lr=0.001, rho=0.95, eps=1e-7):
    def step(w, g, s, t):
        s["a"] = rho * s.get("a", 0) + (1 - rho) * g * g
        update = np.sqrt(s.get("u", 0) + eps) / np.sqrt(s["a"] + eps) * g
        s["u"] = rho * s.get("u", 0) + (1 - rho) * update * update
        return w - lr * update
    return step


def adamax(lr=0.001, b1=0.9, b2=0.999, eps=1e-7):
    def step(w, g, s, t):
        s["m"] = b1 * s.get("m", 0) + (1 - b1) * g
        s["u"] = np.maximum(b2 * s.get("u", 0), np.abs(g))
        return w - lr / (1 - b1 ** t) * s["m"] / (s["u"] + eps)
    return step


def nadam(lr=0.001, b1=0.9, b2=0.999, eps=1e-7):
    def step(w, g, s, t):
        cache_t, cache_t1 = b1 * (1 - 0.5 * 0.96 ** (0.004 * t)), b1 * (1 - 0.5 * 0.96 ** (0.004 * (t + 1)))
        schedule = s.get("schedule", 1.0) * cache_t
        s["schedule"] = schedule
        s["m"] = b1 * s.get("m", 0) + (1 - b1) * g
        s["v"] = b2 * s.get("v", 0) + (1 - b2) * g * g
        m_bar = (1 - cache_t) * g / (1 - schedule) + cache_t1 * s["m"] / (1 - schedule * cache_t1)
        return w - lr * m_bar / (np.sqrt(s["v"] / (1 - b2 ** t)) + eps)
    return step


CASES = [
    ("SGD", lambda: keras.optimizers.SGD(), sgd(0.01)),
    ("SGD momentum decay", lambda: keras.optimizers.SGD(lr=0.1, momentum=0.9, decay=0.5), sgd(0.1, 0.9, decay=0.5)),
    ("SGD nesterov", lambda: keras.optimizers.SGD(learning_rate=0.1, momentum=0.5, nesterov=True),
     sgd(0.1, 0.5, nesterov=True)),
    ("Adam", lambda: keras.optimizers.Adam(lr=0.1), adam(0.1)),
    ("RMSprop", lambda: keras.optimizers.RMSprop(), rmsprop()),
    ("Adagrad", lambda: keras.optimizers.Adagrad(lr=0.1), adagrad(0.1)),
    ("Adadelta", lambda: keras.optimizers.Adadelta(lr=1.0), adadelta(1.0)),
    ("Adamax", lambda: keras.optimizers.Adamax(lr=0.1), adamax(0.1)),
    ("Nadam", lambda: keras.optimizers.Nadam(lr=0.1), nadam(0.1)),
]


@pytest.mark.parametrize("name, make, step", CASES, ids=[c[0] for c in CASES])
def test_three_steps_match_the_formula(name, make, step):
    np.testing.assert_allclose(run(make()), replay(step, {}), rtol=2e-5, atol=1e-6)


def test_names_give_keras_defaults_and_lr_is_read_and_set_through_the_backend():
    for name, cls in [("sgd", "SGD"), ("adam", "Adam"), ("rmsprop", "RMSprop"), ("adagrad", "Adagrad"),
                      ("adadelta", "Adadelta"), ("adamax", "Adamax"), ("nadam", "Nadam")]:
        assert type(keras.optimizers.get(name)).__name__ == cls
    adam_ = keras.optimizers.Adam()
    assert K.get_value(adam_.lr) == pytest.approx(0.001) and adam_.get_config()["epsilon"] == 1e-7
    assert K.get_value(keras.optimizers.SGD().lr) == pytest.approx(0.01)
    K.set_value(adam_.lr, 0.5)
    assert K.get_value(adam_.learning_rate) == 0.5
    with pytest.raises(TypeError, match="Unexpected keyword arguments to SGD: \\['betas'\\]"):
        keras.optimizers.SGD(betas=1)


def test_a_tf_train_optimizer_is_accepted_by_compile():
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(1,), kernel_initializer="zeros")])
    model.compile(tg.train.GradientDescentOptimizer(0.1), "mse")
    model.fit(np.ones((4, 1)), np.ones((4, 1)), verbose=0, epochs=20)
    assert model.predict(np.ones((1, 1)))[0, 0] == pytest.approx(1.0, abs=0.05)


def test_clipnorm_and_constraints():
    w = run(keras.optimizers.SGD(lr=1.0, clipnorm=0.1), steps=1)
    g = grad(W0.astype(np.float64))
    np.testing.assert_allclose(w, W0 - g * 0.1 / np.linalg.norm(g), rtol=1e-5)


def test_keras_2_2_4s_arguments_still_work():
    opt = keras.optimizers.Adam(lr=0.1, beta_1=0.9, beta_2=0.999, epsilon=None, decay=0.0, amsgrad=False)
    assert opt.get_config()["epsilon"] == 1e-7 and opt.get_config()["learning_rate"] == 0.1
    np.testing.assert_allclose(run(opt), replay(adam(0.1), {}), rtol=2e-5, atol=1e-6)
    assert keras.optimizers.Nadam(lr=0.002, epsilon=None, schedule_decay=0.004).get_config()["decay"] == 0.004


def test_hyper_parameters_may_be_positional_in_tfs_order():
    opt = keras.optimizers.SGD(0.5, 0.9, True)
    assert opt.get_config()["momentum"] == 0.9 and opt.get_config()["nesterov"] is True
    assert keras.backend.get_value(keras.optimizers.Adadelta(2.0).lr) == 2.0
    with pytest.raises(TypeError, match="multiple values for argument 'learning_rate'"):
        keras.optimizers.Adam(0.1, learning_rate=0.2)


def test_a_subclass_writes_tfs_override_points_and_one_without_a_rule_says_what_to_write():
    assert optimizer_v2.OptimizerV2 is keras.optimizers.Optimizer

    class AddsTheGradient(optimizer_v2.OptimizerV2):  # TF's hooks: _create_slots, add_slot, _resource_apply_dense
        def _create_slots(self, var_list):
            for var in var_list:
                self.add_slot(var, "seen")

        def _resource_apply_dense(self, grad, var, apply_state=None):
            return tg.group(var.assign_add(grad), self.get_slot(var, "seen").assign_add(tg.ones_like(var)))

    w = K.variable(np.ones(2, np.float32))
    opt = AddsTheGradient("adds")
    update = opt.apply_gradients([(tg.constant([1.0, 2.0]), w)])
    for _ in range(2):
        K.get_session().run(update)
    np.testing.assert_allclose(K.get_value(w), [3.0, 5.0])
    assert [K.get_value(v).tolist() for v in opt.weights] == [2, [2.0, 2.0]]
    assert opt.get_config() == {"name": "adds"} and opt.get_slot_names() == ["seen"]

    class NoRule(optimizer_v2.OptimizerV2):
        pass

    with pytest.raises(NotImplementedError, match=r"NoRule has no update rule.*_resource_apply_dense"):
        NoRule("none").get_updates(K.sum(w * w), [w])


def test_a_float64_model_steps_by_float32_hyper_parameters_as_tf():
    # TF's OptimizerV2 makes its hyper-parameters float32 variables whatever K.floatx() is and casts them to each
    # variable's dtype: 1.0 after one step by the gradient 1, as TF 2.15's tf.keras (legacy optimizers, compat.v1
    # graph mode) steps it with floatx float64
    previous = K.floatx()
    K.set_floatx("float64")
    try:
        with tg.Graph().as_default():
            variables = [tg.Variable(1.0, dtype=tg.float64) for _ in range(2)]
            optimizers = [keras.optimizers.SGD(0.05), keras.optimizers.Adam(0.05)]
            steps = [o.apply_gradients([(tg.constant(1.0, tg.float64), v)]) for o, v in zip(optimizers, variables)]
            assert K.floatx() == "float64" and optimizers[0].lr.dtype == tg.float32
            with tg.Session() as sess:
                sess.run(tg.global_variables_initializer())
                sess.run(steps)
                assert sess.run(variables) == [0.9499999992549419, 0.9500001573693452]
    finally:
        K.set_floatx(previous)
