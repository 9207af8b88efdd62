"""TF1's initializers take `dtype=` when made and use it when called without one (tf.get_variable passes its
own); the random ones refuse non-float dtypes (TF1's _assert_float_dtype). Values against closed forms."""
import numpy as np
import pytest

import trainer as tg

# std of a standard normal truncated to [-2, 2]: sqrt(1 - 4 phi(2) / (2 Phi(2) - 1)), phi/Phi the normal pdf/cdf
TRUNCATED_STD = np.sqrt(1 - 4 * np.exp(-2) / np.sqrt(2 * np.pi) / 0.9544997361036416)


@pytest.fixture(autouse=True)
def fresh_graph():
    tg.reset_default_graph()


@pytest.mark.parametrize("dtype", [tg.float32, tg.float64])
def test_random_initializers_made_with_a_dtype_make_it(dtype):
    initializers = [tg.random_normal_initializer(1.0, 2.0, seed=1, dtype=dtype),
                    tg.truncated_normal_initializer(stddev=2.0, seed=2, dtype=dtype),
                    tg.glorot_uniform_initializer(seed=3, dtype=dtype)]
    with tg.Session() as sess:
        normal, truncated, glorot = sess.run([init([20000]) for init in initializers])
    assert normal.dtype == truncated.dtype == glorot.dtype == dtype
    assert normal.mean() == pytest.approx(1.0, abs=0.05) and normal.std() == pytest.approx(2.0, rel=0.02)
    assert np.abs(truncated).max() <= 4.0 and truncated.std() == pytest.approx(2.0 * TRUNCATED_STD, rel=0.02)
    assert np.abs(glorot).max() <= np.sqrt(6 / 40000)


def test_the_dtype_of_the_call_wins_as_in_tf1():
    v = tg.get_variable("v", [3], dtype=tg.float64, initializer=tg.truncated_normal_initializer(dtype=tg.float32))
    c = tg.get_variable("c", [2], dtype=tg.int32, initializer=tg.constant_initializer(7, dtype=tg.float32))
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        assert sess.run(v).dtype == np.float64
        assert sess.run(c).tolist() == [7, 7] and sess.run(c).dtype == np.int32


def test_constant_zeros_and_ones_take_a_dtype():
    with tg.Session() as sess:
        ones, zeros, sevens = sess.run([tg.ones_initializer(dtype=tg.int64)([2]),
                                        tg.zeros_initializer(tg.float64)([2, 1]),
                                        tg.constant_initializer(7.5, dtype=tg.float16)([3])])
    assert ones.dtype == np.int64 and ones.tolist() == [1, 1]
    assert zeros.dtype == np.float64 and zeros.shape == (2, 1) and not zeros.any()
    assert sevens.dtype == np.float16 and sevens.tolist() == [7.5] * 3


@pytest.mark.parametrize("make", [tg.random_normal_initializer, tg.truncated_normal_initializer,
                                  tg.glorot_uniform_initializer])
def test_random_initializers_refuse_integer_dtypes(make):
    with pytest.raises(ValueError, match=f"{make.__name__} makes floating point values.*'int32'"):
        make(dtype=tg.int32)
