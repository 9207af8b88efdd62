"""Helpers of the tf.data tests: read a dataset to its end, each test in its own graph."""
import pytest

import trainer as tf


def drain(dataset, feed_dict=None, limit=10_000):
    """Every element of `dataset`, read through an initializable iterator in a fresh session."""
    it = dataset.make_initializable_iterator()
    x = it.get_next()
    out = []
    with tf.Session() as sess:
        sess.run(it.initializer, feed_dict)
        try:
            while len(out) < limit:
                out.append(sess.run(x))
        except tf.errors.OutOfRangeError:
            pass
    return out


def ints(dataset, **kw):
    return [int(v) for v in drain(dataset, **kw)]


@pytest.fixture(autouse=True)
def fresh_graph():
    with tf.Graph().as_default() as g:
        yield g
