"""Ops whose TF1 wrapper returns a namedtuple of outputs (top_k, unique, setdiff1d, max_pool_with_argmax).

A TF1 program that prints `sess.run(tf.nn.top_k(x, 1))` shows `TopKV2(values=..., indices=...)` and may read
`.values`; the expected reprs below are what TensorFlow (2.15.1, tf.compat.v1 graph mode) printed for the same
graphs.
"""
import pytest

import trainer.compat.v1 as tf

CASES = {
    "top_k": (lambda: tf.nn.top_k(tf.constant([[3., 1., 2.]]), 2), ("values", "indices"),
              "TopKV2(values=array([[3., 2.]], dtype=float32), indices=array([[0, 2]], dtype=int32))"),
    "math.top_k": (lambda: tf.math.top_k(tf.constant([[3., 1., 2.]]), 2), ("values", "indices"),
                   "TopKV2(values=array([[3., 2.]], dtype=float32), indices=array([[0, 2]], dtype=int32))"),
    "unique": (lambda: tf.unique([1, 1, 2]), ("y", "idx"),
               "Unique(y=array([1, 2], dtype=int32), idx=array([0, 0, 1], dtype=int32))"),
    "unique_with_counts": (lambda: tf.unique_with_counts([1, 1, 2]), ("y", "idx", "count"),
                           "UniqueWithCounts(y=array([1, 2], dtype=int32), idx=array([0, 0, 1], dtype=int32), "
                           "count=array([2, 1], dtype=int32))"),
    "setdiff1d": (lambda: tf.setdiff1d([1, 2, 3], [2]), ("out", "idx"),
                  "ListDiff(out=array([1, 3], dtype=int32), idx=array([0, 2], dtype=int32))"),
    "max_pool_with_argmax": (lambda: tf.nn.max_pool_with_argmax(tf.ones([1, 2, 2, 1]), [1, 2, 2, 1], [1, 2, 2, 1],
                                                                "VALID"), ("output", "argmax"),
                             "MaxPoolWithArgmax(output=array([[[[1.]]]], dtype=float32), argmax=array([[[[0]]]]))"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_result_is_tf1s_namedtuple_in_the_graph_and_after_run(name):
    build, fields, tf_repr = CASES[name]
    with tf.Graph().as_default():
        out = build()
        assert out._fields == fields
        assert getattr(out, fields[0]) is out[0]
        with tf.Session() as sess:
            value = sess.run(out)
            assert repr(value) == tf_repr
            assert repr(sess.run(getattr(out, fields[-1]))) == repr(value[-1])


def test_top_k_still_unpacks_as_a_pair():
    with tf.Graph().as_default():
        values, indices = tf.nn.top_k(tf.constant([5., 7., 6.]), k=2)
        with tf.Session() as sess:
            assert sess.run(values).tolist() == [7., 6.]
            assert sess.run(indices).tolist() == [1, 2]
