"""tg.cond, tg.case, tg.while_loop: only the chosen branch runs, values and gradients against numpy oracles."""
import numpy as np
import pytest

import trainer as tg
from trainer.platform.errors import InvalidArgumentError


@pytest.fixture(autouse=True)
def graph():
    with tg.Graph().as_default() as g:
        yield g


def test_only_the_chosen_branch_runs_its_side_effects():
    p = tg.placeholder(tg.bool, [])
    v, w = tg.Variable(0.0, name="v"), tg.Variable(0.0, name="w")

    def true_fn():
        with tg.control_dependencies([v.assign_add(1.0)]):
            return tg.constant(1.0)
    out = tg.cond(p, true_fn, lambda: w.assign_add(10.0))
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        for pred, expected in [(True, (1, 0)), (False, (1, 10)), (False, (1, 20)), (True, (2, 20))]:
            value = sess.run(out, {p: pred})
            assert value == (1.0 if pred else expected[1])
            assert tuple(sess.run([v, w])) == expected


def test_nested_conds_captured_tensors_and_outside_placeholders():
    x, a, b = tg.placeholder(tg.float32, [3]), tg.placeholder(tg.bool, []), tg.placeholder(tg.bool, [])
    outside = x * 2.0
    y = tg.cond(a, lambda: tg.cond(b, lambda: outside + 1.0, lambda: outside * x),
                lambda: tg.reduce_sum(x) + tg.zeros([3]))
    xv = np.array([1.0, -2.0, 3.0], np.float32)
    with tg.Session() as sess:
        for av in (True, False):
            for bv in (True, False):
                expected = (2 * xv + 1 if bv else 2 * xv * xv) if av else np.full(3, xv.sum())
                np.testing.assert_allclose(sess.run(y, {x: xv, a: av, b: bv}), expected)
    assert y.shape == (3,)
    assert y.name == "cond:0" and any(op.name.startswith("cond/cond") for op in tg.get_default_graph().get_operations())


def test_random_op_in_a_branch_draws_only_when_the_branch_runs():
    p = tg.placeholder(tg.bool, [])
    out = tg.cond(p, lambda: tg.random_normal([4], seed=7), lambda: tg.zeros([4]))
    with tg.Session() as sess:
        first, second = sess.run(out, {p: True}), sess.run(out, {p: True})
    with tg.Session() as sess:
        for _ in range(3):
            np.testing.assert_array_equal(sess.run(out, {p: False}), np.zeros(4))
        np.testing.assert_array_equal(sess.run(out, {p: True}), first)
        np.testing.assert_array_equal(sess.run(out, {p: True}), second)


def _numeric_grad(f, x, eps=1e-6):
    grad = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        grad[i] = (f(x + d) - f(x - d)) / (2 * eps)
    return grad


def test_gradient_is_the_chosen_branch_gradient_with_zeros_elsewhere():
    x, z = tg.placeholder(tg.float64, [2, 3]), tg.placeholder(tg.float64, [3])
    p = tg.placeholder(tg.bool, [])
    h = tg.tanh(x)  # outside the cond: its gradient must not be counted twice
    y = tg.cond(p, lambda: tg.reduce_sum(tg.exp(h) * h * z), lambda: tg.reduce_sum(tg.square(h)) * 3.0)
    gx, gz = tg.gradients(y, [x, z])
    rng = np.random.default_rng(0)
    xv, zv = rng.standard_normal((2, 3)), rng.standard_normal(3)
    with tg.Session() as sess:
        for pv in (True, False):
            f = lambda xx, zz: sess.run(y, {x: xx, z: zz, p: pv})  # noqa: E731
            got_x, got_z = sess.run([gx, gz], {x: xv, z: zv, p: pv})
            np.testing.assert_allclose(got_x, _numeric_grad(lambda xx: f(xx, zv), xv), rtol=1e-6, atol=1e-8)
            np.testing.assert_allclose(got_z, _numeric_grad(lambda zz: f(xv, zz), zv), rtol=1e-6, atol=1e-8)
            if not pv:
                np.testing.assert_array_equal(got_z, np.zeros(3))


def test_gradient_through_nested_conds_and_training_step():
    w = tg.Variable(np.array([1.5, -0.5]), name="w")
    p, q = tg.placeholder(tg.bool, []), tg.placeholder(tg.bool, [])
    loss = tg.cond(p, lambda: tg.cond(q, lambda: tg.reduce_sum(w * w * w), lambda: tg.reduce_sum(tg.sin(w))),
                   lambda: tg.reduce_sum(w) * 2.0)
    grad = tg.gradients(loss, w)[0]
    step = tg.train.GradientDescentOptimizer(0.1).minimize(loss)
    wv = np.array([1.5, -0.5])
    oracle = {(True, True): 3 * wv ** 2, (True, False): np.cos(wv), (False, True): np.full(2, 2.0)}
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        for (pv, qv), expected in oracle.items():
            np.testing.assert_allclose(sess.run(grad, {p: pv, q: qv}), expected)
        sess.run(step, {p: False, q: True})
        np.testing.assert_allclose(sess.run(w), wv - 0.2)


def test_structures_strict_and_python_bool():
    p = tg.placeholder(tg.bool, [])
    out = tg.cond(p, lambda: {"a": tg.constant(1), "b": [tg.constant(2.0)]},
                  lambda: {"a": tg.constant(3), "b": [tg.constant(4.0)]})
    single = tg.cond(p, lambda: [tg.constant(1.0)], lambda: [tg.constant(2.0)])
    strict = tg.cond(p, lambda: [tg.constant(1.0)], lambda: [tg.constant(2.0)], strict=True)
    shaped = tg.cond(p, lambda: tg.zeros([2, 3]), lambda: tg.placeholder(tg.float32, [2, None]))
    assert isinstance(single, tg.Tensor) and isinstance(strict, list)
    assert shaped.shape == (2, None)
    assert tg.cond(True, lambda: "yes", lambda: "no") == "yes"
    with tg.Session() as sess:
        assert sess.run(out, {p: False}) == {"a": 3, "b": [4.0]}
        assert sess.run(single, {p: True}) == 1.0


def test_mismatched_branches_name_both():
    p = tg.placeholder(tg.bool, [])
    with pytest.raises(ValueError, match="same structure"):
        tg.cond(p, lambda: (tg.constant(1.0), tg.constant(2.0)), lambda: tg.constant(1.0))
    with pytest.raises(ValueError, match=r"t:0' \(float32\).*f:0' \(int32\)"):
        tg.cond(p, lambda: tg.constant(1.0, name="t"), lambda: tg.constant(1, name="f"))
    with pytest.raises(ValueError, match="scalar bool"):
        tg.cond(tg.constant(1), lambda: 1, lambda: 2)
    with pytest.raises(ValueError, match="at least one result"):
        tg.cond(p, lambda: None, lambda: None)


def test_fetching_an_op_from_inside_a_branch_names_it():
    p = tg.placeholder(tg.bool, [])
    leaked = []

    def true_fn():
        leaked.append(tg.constant(2.0) * 3.0)
        return leaked[0] + 1.0
    tg.cond(p, true_fn, lambda: tg.constant(0.0))
    with tg.Session() as sess, pytest.raises(ValueError, match=r"'cond/mul' was built inside the true branch"):
        sess.run(leaked[0], {p: True})


def test_case_picks_the_first_true_pred():
    x = tg.placeholder(tg.int32, [])
    out = tg.case([(tg.less(x, 0), lambda: tg.constant(-1)), (tg.less(x, 10), lambda: tg.constant(1)),
                   (tg.less(x, 100), lambda: tg.constant(2))], default=lambda: tg.constant(3))
    no_default = tg.case([(tg.less(x, 0), lambda: tg.constant(-1)), (tg.less(x, 10), lambda: tg.constant(1))])
    exclusive = tg.case([(tg.less(x, 10), lambda: tg.constant(1)), (tg.less(x, 100), lambda: tg.constant(2))],
                        default=lambda: tg.constant(3), exclusive=True)
    with tg.Session() as sess:
        assert [sess.run(out, {x: v}) for v in (-5, 5, 50, 500)] == [-1, 1, 2, 3]
        assert [sess.run(no_default, {x: v}) for v in (-5, 5)] == [-1, 1]
        with pytest.raises(InvalidArgumentError, match="None of the conditions"):
            sess.run(no_default, {x: 50})
        assert sess.run(exclusive, {x: 50}) == 2
        with pytest.raises(InvalidArgumentError, match="More than one condition"):
            sess.run(exclusive, {x: 5})


def test_while_loop_sums_one_to_n():
    n = tg.placeholder(tg.int32, [])
    i, total = tg.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + i + 1), [tg.constant(0), tg.constant(0)])
    capped = tg.while_loop(lambda i: i < n, lambda i: i + 1, [tg.constant(0)], maximum_iterations=4)
    with tg.Session() as sess:
        for nv in (0, 1, 10, 37):
            assert sess.run([i, total], {n: nv}) == [nv, nv * (nv + 1) // 2]
        assert sess.run(capped, {n: 10}) == 4 and sess.run(capped, {n: 2}) == 2


def test_while_loop_with_a_tensor_dependent_trip_count_and_shape_invariants():
    x = tg.placeholder(tg.float64, [])
    steps, value = tg.while_loop(lambda k, v: v > 1.0, lambda k, v: (k + 1, v / 2.0), (tg.constant(0), x))
    grown = tg.while_loop(lambda t: tg.size(t) < 5, lambda t: tg.concat([t, t[:1] * 2.0], 0),
                          [tg.ones([1])], shape_invariants=[tg.TensorShape([None])])
    assert grown.shape == (None,)
    with tg.Session() as sess:
        for xv in (0.5, 3.0, 1000.0):
            k = int(np.ceil(np.log2(xv))) if xv > 1 else 0
            assert sess.run([steps, value, tg.gradients(value, x)[0]], {x: xv}) == [k, xv / 2 ** k, 1 / 2 ** k]
        np.testing.assert_array_equal(sess.run(grown), [1, 2, 2, 2, 2])
    with pytest.raises(ValueError, match=r"enters the loop with shape \(1,\), but has shape \(2,\)"):
        tg.while_loop(lambda t: tg.size(t) < 5, lambda t: tg.concat([t, t], 0), [tg.ones([1])])


def test_switch_case_runs_the_indexed_branch_and_the_default_or_last_out_of_range():
    index = tg.placeholder(tg.int32, [])
    branches = [lambda: tg.constant(10.0), lambda: tg.constant(20.0), lambda: tg.constant(30.0)]
    with_default = tg.switch_case(index, branches, default=lambda: tg.constant(-1.0))
    without = tg.switch_case(index, {0: branches[0], 1: branches[1]})
    with tg.Session() as sess:
        got = [sess.run([with_default, without], {index: i}) for i in (0, 1, 2, 5, -1)]
    assert got == [[10.0, 10.0], [20.0, 20.0], [30.0, 20.0], [-1.0, 20.0], [-1.0, 20.0]]
    with pytest.raises(TypeError, match="branch_index must be a Tensor"):
        tg.switch_case(1, branches)
    with pytest.raises(TypeError, match="int32"):
        tg.switch_case(tg.constant(1, tg.int64), branches)
    with pytest.raises(ValueError, match="0 .. n - 1"):
        tg.switch_case(index, {1: branches[0]})
