"""Momentum's and Adam's update kernels: TF1's formulas with the roundings written out by hand, to the bit, in
float32 and float64, for variables from a scalar to several of the blocks a large update is walked in, and with
the gradient's buffer taken for the step where nobody reads it after the update."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.train.dense_layer import FAN_IN, FAN_OUT, assert_gradient_kept, dense_layer
from trainer.train.training_ops import BLOCK_BYTES, BLOCKED_BYTES, DONATED_GRADIENT_SIZE

RNG = np.random.default_rng(11)
LR, MOMENTUM, BETA1, BETA2, EPSILON = 0.05, 0.9, 0.8, 0.95, 1e-3
STEPS = 3


def shapes(dtype):
    """A scalar, a small matrix, the smallest variable walked in blocks, and one of several blocks and a short
    last one."""
    itemsize = np.dtype(dtype).itemsize
    return [(), (7, 5), (BLOCKED_BYTES // itemsize,), (3, BLOCK_BYTES // itemsize + 5)]


def tf1(value, dtype):
    """A Python float hyper-parameter as TF1's update of a `dtype` variable takes it: float32, cast to dtype."""
    return dtype(np.float32(value))


def momentum_by_hand(var, grads, dtype, nesterov):
    """TF1's ApplyMomentum: accum = accum * momentum + grad; var -= accum * lr, or with Nesterov
    var -= grad * lr + accum * momentum * lr."""
    lr, mu, accum = tf1(LR, dtype), tf1(MOMENTUM, dtype), np.zeros_like(var)
    for g in grads:
        accum = accum * mu + g
        var = var - (g * lr + accum * mu * lr if nesterov else accum * lr)
    return var


def adam_by_hand(var, grads, dtype):
    """TF1's ApplyAdam, lr_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t); var -= (m * lr_t) / (sqrt(v) + epsilon)."""
    lr, b1, b2, eps = (tf1(x, dtype) for x in (LR, BETA1, BETA2, EPSILON))
    m, v = np.zeros_like(var), np.zeros_like(var)
    b1p, b2p = np.float32(BETA1), np.float32(BETA2)  # float32 variables whatever var's dtype, cast where used
    for g in grads:
        lr_t = lr * np.sqrt(1 - dtype(b2p)) / (1 - dtype(b1p))
        m = m + (g - m) * (1 - b1)
        v = v + (g * g - v) * (1 - b2)
        var = var - (m * lr_t) / (np.sqrt(v) + eps)
        b1p, b2p = b1p * np.float32(BETA1), b2p * np.float32(BETA2)
    return var


OPTIMIZERS = {
    "momentum": (lambda locking: tg.train.MomentumOptimizer(LR, MOMENTUM, use_locking=locking),
                 lambda var, grads, dtype: momentum_by_hand(var, grads, dtype, False)),
    "nesterov": (lambda locking: tg.train.MomentumOptimizer(LR, MOMENTUM, use_locking=locking, use_nesterov=True),
                 lambda var, grads, dtype: momentum_by_hand(var, grads, dtype, True)),
    "adam": (lambda locking: tg.train.AdamOptimizer(LR, BETA1, BETA2, EPSILON, use_locking=locking), adam_by_hand),
}


def train(optimizer, start, grads, use_locking=False):
    """The variable after applying `grads` one by one from `start`, fed as the gradient."""
    dtype = start.dtype
    with tg.Graph().as_default():
        var = tg.Variable(start, name="var")
        grad = tg.placeholder(dtype, start.shape, name="grad")
        step = OPTIMIZERS[optimizer][0](use_locking).apply_gradients([(grad, var)])
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            for g in grads:
                sess.run(step, {grad: g})
            return sess.run(var)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("optimizer", list(OPTIMIZERS))
def test_the_update_is_tf1s_formula_to_the_bit(optimizer, dtype):
    for shape in shapes(dtype):
        start = RNG.standard_normal(shape).astype(dtype)
        grads = [(RNG.standard_normal(shape) * 0.1).astype(dtype) for _ in range(STEPS)]
        got = train(optimizer, start, grads)
        assert got.dtype == dtype and got.shape == shape
        np.testing.assert_array_equal(got, OPTIMIZERS[optimizer][1](start, grads, dtype), err_msg=f"{shape}")


@pytest.mark.parametrize("optimizer", list(OPTIMIZERS))
def test_other_memory_orders_and_use_locking_give_the_same_bits(optimizer):
    """A Fortran-ordered variable and gradient take numpy's whole-array formula, not the blocks: the same bits."""
    shape = (BLOCKED_BYTES // 4000 + 3, 1000)  # walked in blocks in float32, C-ordered
    start = RNG.standard_normal(shape).astype(np.float32)
    grads = [(RNG.standard_normal(shape) * 0.1).astype(np.float32) for _ in range(STEPS)]
    expected = train(optimizer, start, grads)
    np.testing.assert_array_equal(train(optimizer, np.asfortranarray(start), [np.asfortranarray(g) for g in grads]),
                                  expected)
    np.testing.assert_array_equal(train(optimizer, start, grads, use_locking=True), expected)


def adam_sparse_by_hand(var, ids, rows, dtype):
    """TF1's sparse Adam: the repeated ids' rows summed; every row's m and v decay (m * beta1), the named rows add
    values * (1 - beta1) and values^2 * (1 - beta2); every row moves by (m * lr_t) / (sqrt(v) + epsilon)."""
    lr, b1, b2, eps = dtype(LR), dtype(BETA1), dtype(BETA2), dtype(EPSILON)
    m, v, b1p, b2p = np.zeros_like(var), np.zeros_like(var), b1, b2
    named, positions = np.unique(ids, return_inverse=True)
    for r in rows:
        summed = np.zeros((len(named),) + r.shape[1:], dtype)
        np.add.at(summed, positions, r)
        lr_t = lr * np.sqrt(1 - b2p) / (1 - b1p)
        m = m * b1
        m[named] += summed * (1 - b1)
        v = v * b2
        v[named] += (summed * summed) * (1 - b2)
        var = var - (m * lr_t) / (np.sqrt(v) + eps)
        b1p, b2p = b1p * b1, b2p * b2
    return var


def test_a_sparse_gradient_updates_adam_by_tf1s_sparse_rule():
    """An IndexedSlices gradient (rows of an embedding, one repeated) steps Adam by TF1's _apply_sparse: every row
    decays and moves, as in the dense rule, rounded in the sparse rule's order."""
    optimizer = "adam"
    table = RNG.standard_normal((50, 8)).astype(np.float32)
    ids = np.array([3, 7, 3, 41])
    rows = [RNG.standard_normal((len(ids), 8)).astype(np.float32) for _ in range(STEPS)]
    with tg.Graph().as_default():
        var = tg.Variable(table, name="embedding")
        values = tg.placeholder(tg.float32, [len(ids), 8], name="values")
        grad = tg.IndexedSlices(values, tg.constant(ids), tg.constant(table.shape))
        step = OPTIMIZERS[optimizer][0](False).apply_gradients([(grad, var)])
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            for r in rows:
                sess.run(step, {values: r})
            got = sess.run(var)
    np.testing.assert_array_equal(got, adam_sparse_by_hand(table, ids, rows, np.float32))


assert DONATED_GRADIENT_SIZE <= FAN_IN * FAN_OUT < BLOCKED_BYTES // 8


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("optimizer", ["momentum", "nesterov"])
def test_the_update_into_the_gradient_is_the_same_to_the_bit(optimizer, dtype):
    """The gradients die with the update (their buffers take the step) or are fetched too (a new array does): the
    same variables, equal to TF1's formula by hand on the fetched gradients."""
    batches = [(RNG.standard_normal((16, FAN_IN)).astype(dtype), RNG.integers(0, FAN_OUT, 16)) for _ in range(STEPS)]
    with tg.Graph().as_default():
        x, labels, loss, w, b = dense_layer(dtype, RNG)
        opt = OPTIMIZERS[optimizer][0](False)
        grads_and_vars = opt.compute_gradients(loss)
        step = opt.apply_gradients(grads_and_vars)
        grads = [g for g, _ in grads_and_vars]
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            start = sess.run([w, b])
            for xs, ys in batches:
                sess.run(step, {x: xs, labels: ys})
            donated = sess.run([w, b])
            sess.run(tg.global_variables_initializer())
            fetched = [sess.run([grads, step], {x: xs, labels: ys})[0] for xs, ys in batches]
            kept = sess.run([w, b])
    for i, (d, k) in enumerate(zip(donated, kept)):
        assert d.dtype == dtype
        np.testing.assert_array_equal(d, k)
        np.testing.assert_array_equal(k, OPTIMIZERS[optimizer][1](start[i], [g[i] for g in fetched], dtype))


@pytest.mark.parametrize("optimizer", ["momentum", "nesterov"])
def test_a_gradient_read_after_the_update_keeps_its_value(optimizer):
    xs, ys = RNG.standard_normal((16, FAN_IN)).astype(np.float32), RNG.integers(0, FAN_OUT, 16)
    assert_gradient_kept(lambda: OPTIMIZERS[optimizer][0](False), xs, ys, RNG)
