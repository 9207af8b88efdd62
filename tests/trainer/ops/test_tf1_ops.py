"""TF1 names: DType objects, the tg.math / tg.random namespaces and ops a TF1 program reaches for."""
import pickle

import numpy as np
import pytest

import trainer as tg


def test_dtypes_are_tf1_dtypes_and_numpy_dtypes_at_once():
    assert tg.float32 == np.float32 and np.dtype("float32") == tg.float32 and tg.float32 != tg.float64
    assert {tg.float32, np.dtype(np.float32)} == {tg.float32} and hash(tg.int64) == hash(np.dtype(np.int64))
    assert tg.float32.as_numpy_dtype is np.float32 and tg.float32.name == "float32" and tg.float32.base_dtype is tg.float32
    assert np.zeros(2, dtype=tg.float16).dtype == np.float16 and np.ones(1).astype(tg.uint8).dtype == np.uint8
    assert tg.float64.is_floating and not tg.int32.is_floating and tg.uint16.is_integer and tg.uint16.is_unsigned
    assert not tg.bool.is_integer and tg.bool.is_bool and tg.complex64.is_complex and tg.complex64.real_dtype == tg.float32
    assert tg.int8.max == 127 and tg.int8.min == -128 and tg.float32.max == np.finfo(np.float32).max
    assert tg.as_dtype("float") is tg.float32 and tg.as_dtype(np.int16) is tg.int16 and tg.as_dtype(tg.int8) is tg.int8
    assert repr(tg.float32) == "tf.float32" and tg.string.name == "string" and tg.float32.as_datatype_enum == 1
    assert pickle.loads(pickle.dumps(tg.uint32)) is tg.uint32 and tg.float32.kind == "f" and tg.float64.itemsize == 8
    with pytest.raises(TypeError, match="Cannot find the minimum"):
        tg.bool.min
    with pytest.raises(TypeError, match="'not a dtype'"):
        tg.as_dtype("not a dtype")
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [2])
        assert x.dtype.is_floating and x.dtype.as_numpy_dtype is np.float32 and x.dtype == np.float32
        y = tg.cast(x, tg.uint8)
        with tg.Session() as sess:
            assert sess.run(y, {x: [1.7, 300.0 - 44.0]}).dtype == np.uint8


def test_bfloat16_says_what_is_missing():
    assert tg.bfloat16.is_floating and tg.bfloat16.name == "bfloat16"
    try:
        import ml_dtypes  # noqa: F401
    except ImportError:
        with pytest.raises(TypeError, match="ml_dtypes"):
            np.zeros(2, dtype=tg.bfloat16)


def test_random_namespace_draws_what_the_ops_draw():
    with tg.Graph().as_default():
        tg.random.set_random_seed(5)
        a = tg.random.normal([1000], mean=2.0, stddev=0.5)
        u = tg.random.uniform([1000], -1, 3)
        t = tg.random.truncated_normal([1000])
        ints = tg.random_uniform([1000], 0, 4, dtype=tg.int32)
        dynamic = tg.random_normal(tg.shape(tg.placeholder(tg.float32, [None, 2])))
        with pytest.raises(ValueError, match="maxval"):
            tg.random_uniform([2], dtype=tg.int64)
        with tg.Session() as sess:
            va, vu, vt, vi = sess.run([a, u, t, ints])
            vd = sess.run(dynamic, {dynamic.op.inputs[0].op.inputs[0]: np.zeros((3, 2))})
    assert abs(va.mean() - 2.0) < 0.1 and abs(va.std() - 0.5) < 0.05
    assert vu.min() >= -1 and vu.max() < 3 and abs(vu.mean() - 1.0) < 0.15 and np.abs(vt).max() <= 2.0
    assert vi.dtype == np.int32 and set(vi.tolist()) == {0, 1, 2, 3}
    assert vd.shape == (3, 2)
    assert tg.random.set_seed is tg.set_random_seed


def test_math_namespace_aliases():
    with tg.Graph().as_default():
        x = tg.constant([0.5, 1.5, -2.0])
        with tg.Session() as sess:
            v = sess.run([tg.math.sin(x), tg.math.reduce_prod(x), tg.math.log1p(tg.math.abs(x)), tg.math.argmax(x),
                          tg.math.squared_difference(x, 1.0), tg.math.reduce_logsumexp(x)])
    xv = np.array([0.5, 1.5, -2.0], dtype=np.float32)
    np.testing.assert_allclose(v[0], np.sin(xv), rtol=1e-6)
    np.testing.assert_allclose(v[1], -1.5)
    np.testing.assert_allclose(v[2], np.log1p(np.abs(xv)), rtol=1e-6)
    assert v[3] == 1
    np.testing.assert_allclose(v[4], (xv - 1) ** 2)
    np.testing.assert_allclose(v[5], np.log(np.exp(xv).sum()), rtol=1e-6)


def test_python_operands_join_the_tensor_graph_not_the_default_one():
    g = tg.Graph()
    with g.as_default():
        x = tg.placeholder(tg.float32, [2])
    y = x * 2 + 1  # built outside the block: TF1 puts the constants into x's graph
    assert y.graph is g
    with tg.Session(graph=g) as sess:
        np.testing.assert_allclose(sess.run(y, {x: [1.0, 2.0]}), [3.0, 5.0])


def test_optimizer_applies_a_variable_constraint_after_each_update():
    with tg.Graph().as_default():
        w = tg.get_variable("w", initializer=np.array([3.0, -4.0], np.float32),
                            constraint=lambda v: tg.clip_by_norm(v, 1.0))
        loss = tg.reduce_sum(w * np.array([1.0, 1.0], np.float32))
        step = tg.train.GradientDescentOptimizer(0.5).minimize(loss)
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            sess.run(step)
            expected = np.array([2.5, -4.5]) / np.linalg.norm([2.5, -4.5])
            np.testing.assert_allclose(sess.run(w), expected, rtol=1e-6)
