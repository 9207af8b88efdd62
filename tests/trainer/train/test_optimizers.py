"""Optimizers: TF1's update rules, slot variables in the graph, global step, and a 20-step MLP loss curve
identical (1e-9 relative, float64) to the same MLP trained by PyTorch from the same weights.

TF1 reads a Python float hyper-parameter as a float32 Tensor cast to the variable's dtype, so a float64 model
steps by float32's nearest value (`tf1`); PyTorch is given that value, or ringflow numpy float64s, which stay exact.
"""
import json
import pathlib

import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import torch

SIZES = [6, 16, 12, 4]
STEPS = 20


def tf1(x):
    """What TF1 makes of the Python float x as a float64 variable's hyper-parameter: float32's nearest value."""
    return float(np.float32(x))


def _data_and_weights(seed=0):
    rng = np.random.default_rng(seed)
    x, labels = rng.standard_normal((32, SIZES[0])), rng.integers(0, SIZES[-1], 32)
    weights = []
    for fan_in, fan_out in zip(SIZES[:-1], SIZES[1:]):
        weights += [rng.standard_normal((fan_in, fan_out)) / np.sqrt(fan_in), rng.standard_normal(fan_out) * 0.1]
    return x, labels, weights


def _mlp_loss(x, labels, params, ops):
    h = x
    for i in range(0, len(params), 2):
        h = ops["add"](ops["matmul"](h, params[i]), params[i + 1])
        if i + 2 < len(params):
            h = ops["relu"](h)
    return ops["xent"](h, labels)


def _ringflow_curve(make_optimizer, x, labels, weights):
    with tg.Graph().as_default():
        xt, yt = tg.placeholder(tg.float64, [None, SIZES[0]]), tg.placeholder(tg.int64, [None])
        params = [tg.Variable(w, name=f"p{i}") for i, w in enumerate(weights)]
        ops = dict(add=tg.nn.bias_add, matmul=tg.matmul, relu=tg.nn.relu,
                   xent=lambda h, y: tg.reduce_mean(tg.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=h)))
        loss = _mlp_loss(xt, yt, params, ops)
        step = tg.train.get_or_create_global_step()
        train = make_optimizer().minimize(loss, global_step=step)
        curve = []
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            for _ in range(STEPS):
                curve.append(sess.run([loss, train], {xt: x, yt: labels})[0])
            assert sess.run(step) == STEPS
    return np.array(curve)


def _torch_curve(make_optimizer, x, labels, weights, each_step=None):
    params = [torch.tensor(w, requires_grad=True) for w in weights]
    ops = dict(add=torch.add, matmul=torch.matmul, relu=torch.relu,
               xent=lambda h, y: torch.nn.functional.cross_entropy(h, y))
    opt = make_optimizer(params)
    xt, yt = torch.tensor(x), torch.tensor(labels)
    curve = []
    for t in range(1, STEPS + 1):
        if each_step:
            each_step(opt, t)
        opt.zero_grad()
        loss = _mlp_loss(xt, yt, params, ops)
        loss.backward()
        opt.step()
        curve.append(loss.item())
    return np.array(curve)


def _tf1_adam_epsilon(eps, beta2):
    # TF1 adds eps to sqrt(v), PyTorch to sqrt(v_hat) = sqrt(v) / sqrt(1 - beta2^t): rescale eps per step.
    def each_step(opt, t):
        for group in opt.param_groups:
            group["eps"] = eps / np.sqrt(1 - beta2 ** t)
    return each_step


CASES = {
    "sgd": (lambda: tg.train.GradientDescentOptimizer(0.1), lambda p: torch.optim.SGD(p, lr=tf1(0.1)), None),
    "momentum": (lambda: tg.train.MomentumOptimizer(0.05, 0.9),
                 lambda p: torch.optim.SGD(p, lr=tf1(0.05), momentum=tf1(0.9)), None),
    "nesterov": (lambda: tg.train.MomentumOptimizer(0.05, 0.9, use_nesterov=True),
                 lambda p: torch.optim.SGD(p, lr=tf1(0.05), momentum=tf1(0.9), nesterov=True), None),
    # numpy float64s: Adam's powers then are float64 variables, as PyTorch's bias corrections are
    "adam": (lambda: tg.train.AdamOptimizer(*np.array([0.01, 0.8, 0.95]), epsilon=np.float64(1e-3)),
             lambda p: torch.optim.Adam(p, lr=0.01, betas=(0.8, 0.95), eps=1e-3), _tf1_adam_epsilon(1e-3, 0.95)),
}


@pytest.mark.skipif(torch is None, reason="needs torch")
@pytest.mark.parametrize("name", list(CASES))
def test_mlp_loss_curve_matches_pytorch(name):
    ours, theirs, each_step = CASES[name]
    x, labels, weights = _data_and_weights()
    curve = _ringflow_curve(ours, x, labels, weights)
    reference = _torch_curve(theirs, x, labels, weights, each_step)
    assert curve[-1] < curve[0] * 0.9, f"{name} did not train: {curve}"
    np.testing.assert_allclose(curve, reference, rtol=1e-9, err_msg=f"{name}: loss curve vs PyTorch")
    if each_step is not None:  # the epsilon rescaling matters: without it the curves part
        plain = _torch_curve(theirs, x, labels, weights)
        assert np.max(np.abs(plain / curve - 1)) > 1e-6


def test_tf1_update_rules_by_hand():
    g = np.array([0.5, -1.0])
    with tg.Graph().as_default():
        v = tg.Variable(np.array([1.0, 2.0]), name="v")
        grad = tg.placeholder(tg.float64, [2])
        opts = {"sgd": tg.train.GradientDescentOptimizer(0.1), "mom": tg.train.MomentumOptimizer(0.1, 0.9),
                "nag": tg.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True), "adam": tg.train.AdamOptimizer(0.1)}
        train = {k: o.apply_gradients([(grad, v)]) for k, o in opts.items()}
        with tg.Session() as sess:
            results = {}
            for k in opts:
                sess.run(tg.global_variables_initializer())
                for _ in range(2):
                    sess.run(train[k], {grad: g})
                results[k] = sess.run(v)
    w0, lr, mu = np.array([1.0, 2.0]), tf1(0.1), tf1(0.9)
    exact = dict(rtol=1e-15, atol=0)
    np.testing.assert_allclose(results["sgd"], w0 - lr * g - lr * g, **exact)
    np.testing.assert_allclose(results["mom"], w0 - lr * g - lr * (mu * g + g), **exact)
    a1, a2 = g, mu * g + g
    np.testing.assert_allclose(results["nag"], w0 - lr * (g + mu * a1) - lr * (g + mu * a2), **exact)
    b1, b2 = np.float32(0.9), np.float32(0.999)  # the powers are float32 variables, multiplied in float32
    w, m, s, b1p, b2p = w0.copy(), 0 * g, 0 * g, b1, b2
    for _ in (1, 2):
        m, s = m + (g - m) * (1 - float(b1)), s + (g * g - s) * (1 - float(b2))
        w -= m * (lr * np.sqrt(1 - float(b2p)) / (1 - float(b1p))) / (np.sqrt(s) + tf1(1e-8))
        b1p, b2p = b1p * b1, b2p * b2
    np.testing.assert_allclose(results["adam"], w, **exact)


def test_slots_are_named_graph_variables_and_global_step_counts():
    with tg.Graph().as_default():
        with tg.variable_scope("dense"):
            w = tg.get_variable("kernel", [2, 3], dtype=tg.float64)
        loss = tg.reduce_sum(tg.square(w))
        step = tg.train.get_or_create_global_step()
        assert tg.train.get_or_create_global_step() is step and step.name == "global_step:0"
        opt = tg.train.AdamOptimizer(0.1)
        train = opt.minimize(loss, global_step=step)
        assert isinstance(train, tg.Operation)
        names = [v.name for v in tg.global_variables()]
        assert {"dense/kernel/Adam:0", "dense/kernel/Adam_1:0", "beta1_power:0", "beta2_power:0"} <= set(names)
        assert [v.name for v in tg.trainable_variables()] == ["dense/kernel:0"]
        assert opt.get_slot(w, "m").name == "dense/kernel/Adam:0"
        mom = tg.train.MomentumOptimizer(0.1, 0.9)
        mom.minimize(loss)
        assert mom.get_slot(w, "momentum").name == "dense/kernel/Momentum:0"
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            for _ in range(3):
                sess.run(train)
            assert sess.run(step) == 3
            # float32 whatever the variables' dtype, as TF1 makes them from the Python float beta1
            b1 = np.float32(0.9)
            assert sess.run("beta1_power:0") == b1 * b1 * b1 * b1
            assert tg.get_default_graph().get_tensor_by_name("beta1_power:0").dtype == tg.float32


def test_compute_and_apply_are_separable():
    # A wrapper may transform the gradients between the two calls, or run them as separate steps.
    with tg.Graph().as_default():
        w = tg.Variable(np.array([1.0, -1.0]), name="w")
        loss = tg.reduce_sum(tg.square(w))
        opt = tg.train.GradientDescentOptimizer(0.5)
        grads_and_vars = opt.compute_gradients(loss)
        assert [v for _, v in grads_and_vars] == [w]
        halved = opt.apply_gradients([(g * 0.5, v) for g, v in grads_and_vars])
        fed = opt.apply_gradients(grads_and_vars)
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            sess.run(halved)
            np.testing.assert_allclose(sess.run(w), [0.5, -0.5])
            g = sess.run(grads_and_vars[0][0])
            sess.run(fed, {grads_and_vars[0][0]: g * 0})
            np.testing.assert_allclose(sess.run(w), [0.5, -0.5])
            sess.run(fed, {grads_and_vars[0][0]: g})
            np.testing.assert_allclose(sess.run(w), [0.0, 0.0])


def test_no_gradient_at_all_is_an_error():
    with tg.Graph().as_default():
        w = tg.Variable(1.0, name="w")
        other = tg.Variable(2.0, name="other")
        with pytest.raises(ValueError, match="No gradients"):
            tg.train.GradientDescentOptimizer(0.1).minimize(other * 1.0, var_list=[w])


def test_train_ops_and_slots_are_named_as_in_tf1():
    with tg.Graph().as_default() as graph:
        w = tg.Variable(np.ones(3, np.float32), name="W")
        loss = tg.reduce_sum(w * w)
        train = tg.train.GradientDescentOptimizer(0.1).minimize(loss)
        assert train.name == "GradientDescent" and train.type == "NoOp"
        update = graph.get_operation_by_name("GradientDescent/update_W/ApplyGradientDescent")
        assert update in train.control_inputs
        step = tg.train.get_or_create_global_step()
        counted = tg.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step, name="train")
        assert counted.name == "train" and counted.type == "AssignAdd"
        assert [c.name for c in counted.control_inputs] == ["train/update"]
        with tg.name_scope("adam_optimizer"):
            adam = tg.train.AdamOptimizer(1e-3)
            adam_step = adam.minimize(loss, gate_gradients=tg.train.Optimizer.GATE_GRAPH, aggregation_method=None,
                                      colocate_gradients_with_ops=True)
        assert adam_step.name == "adam_optimizer/Adam"
        names = {v.name for v in tg.global_variables()}
        assert {"adam_optimizer/beta1_power:0", "adam_optimizer/beta2_power:0", "W/Adam:0", "W/Adam_1:0"} <= names
        momentum = tg.train.MomentumOptimizer(0.1, 0.9)
        momentum.minimize(loss)
        assert momentum.get_slot(w, "momentum").name == "W/Momentum:0" and momentum.get_name() == "Momentum"
        with pytest.raises(ValueError, match="gate_gradients"):
            momentum.compute_gradients(loss, gate_gradients=7)
        # GATE_GRAPH joins the gradients as TF1's tf.tuple: each waits for all (a graph TensorFlow runs in
        # parallel then updates no variable while another gradient still reads it)
        gated = [g for g, _ in momentum.compute_gradients(loss, gate_gradients=tg.train.Optimizer.GATE_GRAPH)]
        plain = [g for g, _ in momentum.compute_gradients(loss)]
        assert all(g.op.type == "Identity" and g.op.control_inputs for g in gated)
        assert not any(g.op.type == "Identity" and g.op.control_inputs for g in plain)
        with pytest.raises(ValueError, match="Invalid type tf.int32 for loss"):
            momentum.compute_gradients(tg.constant(1))
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            sess.run(counted)
            np.testing.assert_allclose(sess.run(w), 0.8)
            assert sess.run(step) == 1


def test_grad_loss_weights_the_loss_gradient():
    with tg.Graph().as_default():
        w = tg.Variable(np.array([1.0, 2.0]), name="w")
        opt = tg.train.GradientDescentOptimizer(1.0)
        (g, _), = opt.compute_gradients(w * 1.0, grad_loss=tg.constant(np.array([3.0, -1.0])))
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            np.testing.assert_allclose(sess.run(g), [3.0, -1.0])


@pytest.mark.parametrize("make", [lambda: tg.train.GradientDescentOptimizer(0.1),
                                  lambda: tg.train.MomentumOptimizer(0.1, 0.9),
                                  lambda: tg.train.AdamOptimizer(0.1),
                                  lambda: tg.train.RMSPropOptimizer(0.1),
                                  lambda: tg.train.AdagradOptimizer(0.1)])
def test_a_scalar_variable_trains_like_a_one_element_vector(make):
    def run(initial):
        with tg.Graph().as_default():
            w = tg.Variable(initial)
            step = make().minimize(tg.reduce_sum(tg.square(w - 1.0)))
            with tg.Session() as sess:
                sess.run(tg.global_variables_initializer())
                for _ in range(3):
                    sess.run(step)
                return sess.run(w)
    np.testing.assert_allclose(run(np.float32(3.0)), run(np.array([3.0], np.float32))[0], rtol=1e-6)


class AddsTheGradient(tg.train.Optimizer):
    """A user's optimizer as TF1 lets one write it: _apply_dense returns the assign's Tensor, not an op."""

    def __init__(self):
        super().__init__(use_locking=False, name="AddsTheGradient")

    def _apply_dense(self, grad, var):
        return var.assign_add(grad)


@pytest.mark.parametrize("with_step", [False, True])
def test_an_apply_dense_returning_a_tensor_is_grouped_like_an_op(with_step):
    with tg.Graph().as_default():
        v = tg.Variable([1.0, 2.0])
        step = tg.train.get_or_create_global_step() if with_step else None
        train = AddsTheGradient().apply_gradients([(tg.constant([0.5, 0.25]), v)], global_step=step)
        ahead = tg.cond(tg.constant(True), lambda: tg.group(train), tg.no_op)  # as accumulation's apply_if runs it
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            sess.run(train)
            sess.run(ahead)
            np.testing.assert_array_equal(sess.run(v), [2.0, 2.5])


TF_ADAM64 = pathlib.Path(__file__).parent / "fixtures" / "tf_adam64"  # scripts/record_tf_files.py adam64


def _adam64_model(recorded):
    w = tg.get_variable("dense/kernel", initializer=tg.constant(np.zeros((3, 2))))
    b = tg.get_variable("dense/bias", initializer=tg.constant(np.zeros(2)))
    prediction = tg.matmul(tg.constant(np.array(recorded["x"])), w) + b
    loss = tg.reduce_mean(tg.square(prediction - np.array(recorded["y"])))
    train = tg.train.AdamOptimizer(0.05).minimize(loss, global_step=tg.train.get_or_create_global_step())
    return w, b, train


def test_a_tf_float64_adam_checkpoint_restores_and_steps_as_tf(tmp_path):
    recorded = json.loads((TF_ADAM64 / "values.json").read_text())
    with tg.Graph().as_default():
        w, b, train = _adam64_model(recorded)
        assert {v.op.name: v.dtype.name for v in tg.global_variables()} == recorded["dtypes"]
        saver = tg.train.Saver()
        with tg.Session() as sess:
            saver.restore(sess, tg.train.latest_checkpoint(str(TF_ADAM64)))
            for v in tg.global_variables():
                np.testing.assert_array_equal(sess.run(v), recorded["saved"][v.op.name], err_msg=v.op.name)
            sess.run(train)
            np.testing.assert_array_equal(sess.run(w), recorded["after"]["dense/kernel"])
            np.testing.assert_array_equal(sess.run(b), recorded["after"]["dense/bias"])
            saver.save(sess, str(tmp_path / "model.ckpt"))
    reader = tg.train.load_checkpoint(str(tmp_path / "model.ckpt"))
    assert {k: v.name for k, v in reader.get_variable_to_dtype_map().items()} == recorded["dtypes"]


# (a learning rate, in a graph; the float64 variable 1.0 after one step by the gradient 1; Adam's powers' dtype):
# TF1 types a number as convert_to_tensor does and casts it to the variable's dtype
HYPER_PARAMETERS = {
    "python_float": (lambda: 0.05, 0.9499999992549419, "float32"),  # TF 2.15's compat.v1 answer
    "numpy_float64": (lambda: np.float64(0.05), 0.95, "float64"),
    "numpy_float32": (lambda: np.float32(0.05), 1 - tf1(0.05), "float32"),
    "float64_tensor": (lambda: tg.constant(0.05, tg.float64), 0.95, "float64"),
    "float32_tensor": (lambda: tg.constant(0.05), 1 - tf1(0.05), "float32"),
    "python_int": (lambda: 2, -1.0, "int32"),
    "callable": (lambda: lambda: 0.05, 0.9499999992549419, "float32"),  # called, as TF1 calls it
}


@pytest.mark.parametrize("kind", list(HYPER_PARAMETERS))
def test_a_float64_variable_steps_by_the_hyper_parameter_as_tf1_types_it(kind):
    make, stepped, power_dtype = HYPER_PARAMETERS[kind]
    with tg.Graph().as_default():
        v, w = tg.Variable(np.float64(1.0), name="v"), tg.Variable(np.float64(1.0), name="w")
        sgd = tg.train.GradientDescentOptimizer(make()).apply_gradients([(tg.constant(np.float64(1.0)), v)])
        tg.train.AdamOptimizer(beta1=make(), beta2=make()).apply_gradients([(tg.constant(np.float64(1.0)), w)])
        powers = {x.op.name: x.dtype.name for x in tg.global_variables() if "power" in x.name}
        assert powers == {"beta1_power": power_dtype, "beta2_power": power_dtype}
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            sess.run(sgd)
            assert sess.run(v) == stepped
