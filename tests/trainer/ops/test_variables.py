"""Variables, get_variable reuse rules, collections, initializers and seeds."""
import numpy as np
import pytest

import trainer as tg
from trainer.ops.core_ops import snapshot


@pytest.fixture(autouse=True)
def fresh_graph():
    tg.reset_default_graph()


def test_assign_ops_and_load():
    v = tg.Variable([1.0, 2.0], name="v")
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        np.testing.assert_array_equal(sess.run(v.assign([3.0, 4.0])), [3, 4])
        sess.run(v.assign_add([1.0, 1.0]))
        sess.run(v.assign_sub([0.5, 0.5]))
        np.testing.assert_array_equal(sess.run(v), [3.5, 4.5])
        v.load([7.0, 8.0], sess)
        np.testing.assert_array_equal(sess.run(v), [7, 8])
        with pytest.raises(ValueError, match=r"shape \(3,\) into variable 'v:0' of shape \(2,\)"):
            v.load([1.0, 2.0, 3.0], sess)


def test_variable_ops_are_named_like_tf1():
    v = tg.Variable(1.0, name="w")
    assert v.name == "w:0" and v.op.type == "VariableV2"
    assert v.initializer.name == "w/Assign"
    assert tg.global_variables_initializer().name == "init"


def test_collections():
    a = tg.Variable(1.0)
    b = tg.Variable(2.0, trainable=False)
    c = tg.get_variable("c", [2])
    assert tg.global_variables() == [a, b, c]
    assert tg.trainable_variables() == [a, c]
    with tg.Session() as sess:
        sess.run(tg.variables_initializer([a]))
        assert sess.run(a) == 1.0
        with pytest.raises(tg.FailedPreconditionError):
            sess.run(b)


def test_reuse_of_a_missing_variable_is_an_error():
    with tg.variable_scope("s", reuse=True):
        with pytest.raises(ValueError, match="Variable s/w does not exist"):
            tg.get_variable("w", [1])


def test_auto_reuse_creates_then_shares():
    def layer():
        with tg.variable_scope("layer", reuse=tg.AUTO_REUSE):
            return tg.get_variable("w", [2, 2])
    assert layer() is layer()
    assert len(tg.global_variables()) == 1


def test_sharing_with_another_shape_is_an_error():
    with tg.variable_scope("s"):
        tg.get_variable("w", [2])
    with tg.variable_scope("s", reuse=True), pytest.raises(ValueError, match=r"specified shape \(3,\) and found "
                                                                              r"shape \(2,\)"):
        tg.get_variable("w", [3])


def test_new_variable_needs_a_shape():
    with pytest.raises(ValueError, match="Shape of a new variable \\(w\\) must be fully defined"):
        tg.get_variable("w")


def test_an_initializer_class_is_instantiated_as_tf1_does():
    # TF1 programs write initializer=tf.random_normal_initializer (the class, without parentheses)
    tg.set_random_seed(3)
    with tg.variable_scope("s", initializer=tg.ones_initializer):
        ones = tg.get_variable("ones", [2, 3])
    zeros = tg.get_variable("zeros", [4], dtype=tg.int32, initializer=tg.zeros_initializer)
    normal = tg.get_variable("normal", [200, 50], initializer=tg.random_normal_initializer)
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        ones, zeros, normal = sess.run([ones, zeros, normal])
    np.testing.assert_array_equal(ones, np.ones((2, 3), np.float32))
    np.testing.assert_array_equal(zeros, np.zeros(4, np.int32))
    assert normal.dtype == np.float32 and abs(normal.mean()) < 0.03 and abs(normal.std() - 1.0) < 0.03


def test_graph_seed_makes_initializers_reproducible():
    def build_and_init():
        tg.reset_default_graph()
        tg.set_random_seed(42)
        v = tg.get_variable("v", [3, 4])
        n = tg.get_variable("n", [5], initializer=tg.random_normal_initializer(0.0, 2.0))
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            return sess.run([v, n])
    first, second = build_and_init(), build_and_init()
    np.testing.assert_array_equal(first[0], second[0])
    np.testing.assert_array_equal(first[1], second[1])
    assert not np.array_equal(first[0].ravel()[:5], first[1])


def test_op_seed_alone_is_reproducible_and_unseeded_differs():
    def draw(seed):
        tg.reset_default_graph()
        v = tg.get_variable("v", [100], initializer=tg.random_normal_initializer(seed=seed))
        with tg.Session() as sess:
            sess.run(v.initializer)
            return sess.run(v)
    np.testing.assert_array_equal(draw(7), draw(7))
    assert not np.array_equal(draw(None), draw(None))


def test_glorot_uniform_uses_tf1_fans():
    tg.set_random_seed(0)
    dense = tg.get_variable("dense", [300, 100])
    conv = tg.get_variable("conv", [5, 5, 16, 32])
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        d, c = sess.run([dense, conv])
    assert np.abs(d).max() <= np.sqrt(6 / 400) and np.abs(d).max() > 0.95 * np.sqrt(6 / 400)
    limit = np.sqrt(6 / (5 * 5 * 16 + 5 * 5 * 32))
    assert np.abs(c).max() <= limit and np.abs(c).max() > 0.95 * limit
    assert abs(d.std() - np.sqrt(6 / 400) / np.sqrt(3)) < 0.01


def test_truncated_normal_stays_within_two_stddevs():
    v = tg.get_variable("v", [10000], initializer=tg.truncated_normal_initializer(1.0, 0.5, seed=3))
    with tg.Session() as sess:
        sess.run(v.initializer)
        x = sess.run(v)
    assert x.min() >= 0.0 and x.max() <= 2.0 and abs(x.mean() - 1.0) < 0.02


def test_a_snapshot_keeps_the_value_read_before_an_in_place_assignment_of_the_same_run():
    with tg.Graph().as_default():
        v = tg.Variable([1.0, 2.0])
        before = snapshot(v)
        with tg.control_dependencies([before]):
            bump = tg.assign_add(v, [10.0, 10.0])
        with tg.control_dependencies([bump]):
            after = tg.identity(before)
        grad = tg.gradients(tg.reduce_sum(snapshot(v) * 3.0), v)[0]
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            assert np.array_equal(sess.run(after), [1.0, 2.0]) and np.array_equal(sess.run(v), [11.0, 12.0])
            assert np.array_equal(sess.run(grad), [3.0, 3.0])
