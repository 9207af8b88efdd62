"""tf.diag (tf.linalg.tensor_diag) and tf.cross (tf.linalg.cross), as the TF1 cookbooks call them. Expected values
were recorded with TensorFlow 2.15.1's tf.compat.v1 in graph mode (the same ops as TF 1.15)."""
import numpy as np
import pytest

import trainer as tg


def test_cross_and_its_gradients_match_tf():
    a = tg.constant([[1., 2., 3.], [4., 5., 6.]])
    b = tg.constant([[7., 8., 9.], [1., 0., -1.]])
    c = tg.cross(a, b)
    ga, gb = tg.gradients(tg.reduce_sum(c * [[1., 2., 3.], [-1., 0., 2.]]), [a, b])
    with tg.Session() as sess:
        got = sess.run([c, ga, gb])
    np.testing.assert_array_equal(got[0], [[-6., 12., -6.], [-5., 10., -5.]])
    np.testing.assert_array_equal(got[1], [[6., -12., 6.], [0., -1., 0.]])
    np.testing.assert_array_equal(got[2], [[0., 0., 0.], [-10., 14., -5.]])
    assert tg.linalg.cross is tg.cross


def test_diag_of_a_vector_and_of_a_matrix_match_tf():
    d = tg.constant([[1., 2.], [3., 4.]])
    dd = tg.diag(d)
    gd, = tg.gradients(tg.reduce_sum(dd * tg.reshape(tg.range(16.), [2, 2, 2, 2])), [d])
    with tg.Session() as sess:
        got_dd, got_gd, vector = sess.run([dd, gd, tg.diag([1, 2])])
    assert dd.shape == (2, 2, 2, 2) and got_dd.shape == (2, 2, 2, 2)
    np.testing.assert_array_equal(got_dd, [[[[1., 0.], [0., 0.]], [[0., 2.], [0., 0.]]],
                                           [[[0., 0.], [3., 0.]], [[0., 0.], [0., 4.]]]])
    np.testing.assert_array_equal(got_gd, [[0., 5.], [10., 15.]])
    assert vector.dtype == np.int32 and vector.tolist() == [[1, 0], [0, 2]]
    assert tg.linalg.tensor_diag is tg.diag


def test_bad_shapes_name_the_tensor():
    with pytest.raises(ValueError, match=r"tf.cross needs vectors of 3 in the last axis, got 'a:0' of shape \(2, 2\)"):
        tg.cross(tg.zeros([2, 2], name="a"), tg.zeros([2, 2]))
    with pytest.raises(ValueError, match="tf.diag needs a tensor of rank >= 1"):
        tg.diag(3.0)
