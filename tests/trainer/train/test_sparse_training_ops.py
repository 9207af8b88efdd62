"""TF1's sparse optimizer updates: a gradient TF makes an IndexedSlices (a gather's, an embedding lookup's, one given
to apply_gradients) changes only the rows it names and their slots, after summing the values at repeated indices,
which equals the dense update of those rows alone; Adam moves every row, as TF1's does. TF's own values are in the
conformance family cases_sparseopt.py."""
import numpy as np
import pytest

import trainer as tg
from trainer.framework.registry import apply_op

ROWS, COLS = 7, 3
INDICES = [5, 1, 5, 0, 5]  # 5 three times; rows 2, 3, 4 and 6 never named
OPTIMIZERS = {
    "momentum": lambda: tg.train.MomentumOptimizer(0.25, 0.875),
    "nesterov": lambda: tg.train.MomentumOptimizer(0.25, 0.875, use_nesterov=True),
    "adagrad": lambda: tg.train.AdagradOptimizer(0.25, initial_accumulator_value=0.125),
    "adagrad_da": lambda: tg.train.AdagradDAOptimizer(0.25, tg.train.get_or_create_global_step(),
                                                      l1_regularization_strength=0.0625),
    "rmsprop": lambda: tg.train.RMSPropOptimizer(0.25, decay=0.875, momentum=0.5),
    "rmsprop_centered": lambda: tg.train.RMSPropOptimizer(0.25, decay=0.875, momentum=0.5, centered=True),
    "adadelta": lambda: tg.train.AdadeltaOptimizer(1.0, rho=0.875),
    "ftrl": lambda: tg.train.FtrlOptimizer(0.25, l1_regularization_strength=0.0625, l2_regularization_strength=0.125),
    "ftrl_shrinkage": lambda: tg.train.FtrlOptimizer(0.25, l1_regularization_strength=0.0625,
                                                     l2_shrinkage_regularization_strength=0.25),
    "proximal_adagrad": lambda: tg.train.ProximalAdagradOptimizer(0.25, l1_regularization_strength=0.0625,
                                                                  l2_regularization_strength=0.125),
    "proximal_gradient_descent": lambda: tg.train.ProximalGradientDescentOptimizer(
        0.25, l1_regularization_strength=0.0625, l2_regularization_strength=0.125),
    "gradient_descent": lambda: tg.train.GradientDescentOptimizer(0.25),
}
SPARSE_ROUNDING = {"gradient_descent", "nesterov", "adagrad", "rmsprop", "rmsprop_centered", "adadelta",
                   "proximal_adagrad"}


def start(dtype):
    return np.linspace(-2, 2, ROWS * COLS).astype(dtype).reshape(ROWS, COLS)


def values(dtype, step):
    return np.random.default_rng(step).standard_normal((len(INDICES), COLS)).astype(dtype)


def steps_sparse(make, dtype, steps=2):
    """The variable and every slot after `steps` apply_gradients of IndexedSlices at INDICES."""
    with tg.Graph().as_default():
        var = tg.Variable(start(dtype), name="var")
        opt = make()
        feed = tg.placeholder(dtype, [len(INDICES), COLS])
        slices = tg.IndexedSlices(feed, tg.constant(INDICES), tg.constant([ROWS, COLS]))
        train = opt.apply_gradients([(slices, var)])
        slots = {name: opt.get_slot(var, name) for name in opt.get_slot_names()}
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            for step in range(steps):
                sess.run(train, {feed: values(dtype, step)})
            return sess.run(var), sess.run(slots)


def steps_dense_on_rows(make, dtype, rows, steps=2):
    """The same steps by the dense rule on a variable of just `rows`, each step's values summed per row."""
    with tg.Graph().as_default():
        var = tg.Variable(start(dtype)[rows], name="var")
        opt = make()
        feed = tg.placeholder(dtype, [len(rows), COLS])
        train = opt.apply_gradients([(feed, var)])
        slots = {name: opt.get_slot(var, name) for name in opt.get_slot_names()}
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            for step in range(steps):
                summed = np.zeros((len(rows), COLS), dtype)
                for i, index in enumerate(INDICES):
                    summed[rows.index(index)] += values(dtype, step)[i]
                sess.run(train, {feed: summed})
            return sess.run(var), sess.run(slots)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("optimizer", sorted(OPTIMIZERS))
def test_a_sparse_step_is_the_dense_step_of_the_named_rows_and_leaves_the_others(optimizer, dtype):
    var, slots = steps_sparse(OPTIMIZERS[optimizer], dtype)
    named = sorted(set(INDICES))
    dense_var, dense_slots = steps_dense_on_rows(OPTIMIZERS[optimizer], dtype, named)
    others = [r for r in range(ROWS) if r not in named]
    np.testing.assert_array_equal(var[others], start(dtype)[others])
    # gradient descent subtracts a repeated row's values one by one, where the dense rule subtracts their sum, and
    # TF's sparse Nesterov, Adagrad, RMSProp, Adadelta and proximal Adagrad kernels round unlike their dense ones
    same = (np.testing.assert_array_equal if optimizer not in SPARSE_ROUNDING else
            lambda a, b: np.testing.assert_allclose(a, b, rtol=1e-5 if dtype == np.float32 else 1e-13))
    same(var[named], dense_var)
    for name, slot in slots.items():
        same(slot[named], dense_slots[name])
        untouched = steps_sparse(OPTIMIZERS[optimizer], dtype, steps=0)[1][name][others]
        np.testing.assert_array_equal(slot[others], untouched)


def test_gradient_descent_subtracts_repeated_rows_one_after_the_other():
    var, _ = steps_sparse(OPTIMIZERS["gradient_descent"], np.float32, steps=1)
    expected = start(np.float32)
    for i, index in enumerate(INDICES):
        expected[index] = expected[index] - values(np.float32, 0)[i] * np.float32(0.25)
    np.testing.assert_array_equal(var, expected)


def test_adam_decays_every_row_and_moves_every_row_that_has_moments():
    var, slots = steps_sparse(lambda: tg.train.AdamOptimizer(0.25), np.float32)
    assert np.all(var[list(set(INDICES))] != start(np.float32)[list(set(INDICES))])
    np.testing.assert_array_equal(var[[2, 3, 4, 6]], start(np.float32)[[2, 3, 4, 6]])  # moments still zero
    var, slots = steps_sparse(lambda: tg.train.AdamOptimizer(0.25), np.float32, steps=1)
    m = np.zeros((ROWS, COLS), np.float32)
    np.add.at(m, INDICES, values(np.float32, 0))
    np.testing.assert_allclose(slots["m"], m * np.float32(0.1), rtol=1e-6)


def embedding_trained(make, steps):
    """An embedding table after `steps` minimize steps, step k looking up row k only."""
    with tg.Graph().as_default():
        table = tg.Variable(start(np.float32), name="table")
        ids = tg.placeholder(tg.int32, [None])
        loss = tg.reduce_sum(tg.nn.embedding_lookup(table, ids)) + tg.reduce_sum(tg.gather(table, ids) ** 2)
        train = make().minimize(loss)
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            for step in range(steps):
                sess.run(train, {ids: [step]})
            return sess.run(table)


def test_a_gathered_rows_momentum_stays_with_it_when_other_rows_are_looked_up():
    # the table is gathered twice (a sum of two gradients): still TF's IndexedSlices, so row 0 moves only at step 0
    after_one, after_three = (embedding_trained(OPTIMIZERS["momentum"], n) for n in (1, 3))
    np.testing.assert_array_equal(after_three[0], after_one[0])
    assert np.all(after_one[0] != start(np.float32)[0])
    np.testing.assert_array_equal(after_three[3:], start(np.float32)[3:])


class DenseOnly(tg.train.Optimizer):
    """A user's optimizer with a dense rule only: sparse gradients reach it in their dense form."""

    def __init__(self):
        super().__init__(False, "DenseOnly")

    def _apply_dense(self, grad, var):
        return var.assign_sub(grad * 0.5).op


def test_an_optimizer_without_a_sparse_rule_takes_the_dense_gradient():
    table = embedding_trained(DenseOnly, 1)
    expected = start(np.float32)
    expected[0] -= (1 + 2 * expected[0]) * np.float32(0.5)
    np.testing.assert_array_equal(table, expected)


def sparse_momentum(rows, indices, grads):
    """SparseApplyMomentum run once as an op: (var, accum) after it."""
    with tg.Graph().as_default():
        var = tg.Variable(np.arange(rows * 2, dtype=np.float32).reshape(rows, 2))
        accum = tg.Variable(np.ones((rows, 2), np.float32))
        lr, momentum = tg.constant(np.float32(0.5)), tg.constant(np.float32(0.75))
        update = apply_op("SparseApplyMomentum", [var, accum, lr, tg.constant(grads), tg.constant(indices),
                                                  momentum], use_nesterov=False)
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            sess.run(update)
            return sess.run([var, accum])


def test_the_op_updates_a_repeated_row_once_for_each_of_its_gradients():
    grads = np.array([[1, 2], [3, 4], [5, 6]], np.float32)
    var, accum = sparse_momentum(3, np.array([2, 0, 2]), grads)
    expected_accum = np.ones((3, 2), np.float32)
    expected_var = np.arange(6, dtype=np.float32).reshape(3, 2)
    for g, index in zip(grads, [2, 0, 2]):
        expected_accum[index] = expected_accum[index] * np.float32(0.75) + g
        expected_var[index] -= expected_accum[index] * np.float32(0.5)
    np.testing.assert_array_equal(accum, expected_accum)
    np.testing.assert_array_equal(var, expected_var)


def test_the_op_names_an_index_out_of_range_and_the_variable():
    with pytest.raises(tg.errors.InvalidArgumentError, match=r"index 4 is not in \[0, 3\): variable 'Variable'"):
        sparse_momentum(3, np.array([0, 4]), np.ones((2, 2), np.float32))
    with pytest.raises(tg.errors.InvalidArgumentError, match=r"one row of shape \(2,\) per index"):
        sparse_momentum(3, np.array([0, 1]), np.ones((2, 3), np.float32))
